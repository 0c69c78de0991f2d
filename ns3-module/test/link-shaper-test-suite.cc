/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Token-bucket shapers (ns-3's TbfQueueDisc) on the stars' links, as `tc ... tbf` shapes a
// Linux testbed's veth links: a long transfer runs at the shaper's rate less the bytes each
// disc charges per segment, and a full bucket passes at once, so a larger burst makes a
// transfer from idle shorter by the difference of the bursts at the rate. Expected values
// come from the rate, the burst and the frame sizes, computed here.

#include "tcp-path-model.h"

#include "ns3/data-rate.h"
#include "ns3/ethernet-switch.h"
#include "ns3/message-transport.h"
#include "ns3/queue-size.h"
#include "ns3/simulator.h"
#include "ns3/star-network-helper.h"
#include "ns3/switched-star-helper.h"
#include "ns3/tbf-queue-disc.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::tests;

namespace
{

/// Much faster than the shaper, as a veth pair is: the shaper alone sets the pace.
const DataRate LINE_RATE("10Gbps");
/// Propagation delay of every link.
const Time LINK_DELAY = MicroSeconds(5);
/// The shaper's rate, the testbed's slow links.
const DataRate SHAPER_RATE("100Mbps");
/// Room in every disc for all a sender can have in flight: no test here loses a packet.
const QueueSize ROOMY("4MB");
/// A full-size segment's IP packet (payload + TCP with timestamps + IPv4).
constexpr uint32_t SEGMENT_PACKET = 1448 + TCP_DATA_HEADER + IPV4_HEADER;

/// Where the shapers sit.
enum class Shaped
{
    ENDPOINTS, //!< on the endpoints' side of each link only
    BOTH_ENDS, //!< on both ends of each link
};

/**
 * Times messages from endpoint 0 to endpoint 1 of a star whose links are shaped, each sent
 * when the one before it has been delivered, or all at once.
 * \tparam Helper StarNetworkHelper or SwitchedStarHelper
 * \param burst the shaper's bucket, bytes
 * \param shaped where the shapers sit
 * \param sizes the messages' payload sizes
 * \param backToBack send all messages at once (a warm-up then a measured one) instead of one
 *        after another
 * \return the time from sending the first message to each delivery
 */
template <typename Helper>
std::vector<double>
Deliveries(uint32_t burst,
           Shaped shaped,
           const std::vector<uint64_t>& sizes,
           bool backToBack)
{
    Helper star;
    star.SetLinkAttribute("DataRate", DataRateValue(LINE_RATE));
    star.SetLinkAttribute("Delay", TimeValue(LINK_DELAY));
    star.SetTransportAttribute("SegmentSize", UintegerValue(1448));
    const DataRateValue rate(SHAPER_RATE);
    const UintegerValue bucket(burst);
    const QueueSizeValue limit(ROOMY);
    star.SetEndpointQueueDisc("ns3::TbfQueueDisc", "Rate", rate, "Burst", bucket, "MaxSize", limit);
    if (shaped == Shaped::BOTH_ENDS)
    {
        star.SetHubQueueDisc("ns3::TbfQueueDisc", "Rate", rate, "Burst", bucket, "MaxSize", limit);
    }
    star.Install(2);
    std::vector<double> delivered;
    const Time start = MilliSeconds(1);
    Ptr<MessageTransport> sender = star.GetTransport(0);
    star.GetTransport(1)->Listen(
        1,
        MessageTransport::ReceiveCallback([&](uint32_t, uint64_t, uint64_t) {
            delivered.push_back((Simulator::Now() - start).GetSeconds());
            if (!backToBack && delivered.size() < sizes.size())
            {
                sender->Send(1, 1, 0, sizes[delivered.size()]);
            }
        }));
    Simulator::Schedule(start, [&]() {
        for (size_t i = 0; i < (backToBack ? sizes.size() : 1); ++i)
        {
            sender->Send(1, 1, 0, sizes[i]);
        }
    });
    Simulator::Run();
    Simulator::Destroy();
    NS_ABORT_MSG_UNLESS(delivered.size() == sizes.size(), "every message arrives");
    return delivered;
}

/**
 * Counts what a switch drops and records the peak of one gauge of a port's disc.
 * \param hub the switch
 * \param port the port whose disc is watched
 * \param gauge PacketsInQueue or BytesInQueue
 * \param drops incremented at every drop, any port
 * \param peak the gauge's highest value
 */
void
WatchPort(Ptr<EthernetSwitch> hub, uint32_t port, const std::string& gauge, uint32_t& drops, uint32_t& peak)
{
    hub->TraceConnectWithoutContext(
        "Drop",
        Callback<void, Ptr<const Packet>, uint32_t>(
            [&drops](Ptr<const Packet>, uint32_t) { ++drops; }));
    hub->GetPortQueueDisc(port)->TraceConnectWithoutContext(
        gauge,
        Callback<void, uint32_t, uint32_t>(
            [&peak](uint32_t, uint32_t now) { peak = std::max(peak, now); }));
}

} // namespace

/**
 * \ingroup uniference-tests
 *
 * Behind a warm-up message, a long one runs at the shapers' rate times the payload of a segment
 * over what a shaper charges for it: its IP packet, on the endpoints' discs above IP and on the
 * switch's ports alike, so two shapers of one rate in series keep one pace: 1448/1500 of the
 * rate, switched or routed, shaped on both ends or on the endpoints' only.
 */
class ShapedGoodputTestCase : public TestCase
{
  public:
    ShapedGoodputTestCase()
        : TestCase("a long transfer through shapers runs at the rate x payload over the bytes "
                   "a shaper charges per segment (its IP packet)")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 4 << 20;
        const std::vector<uint64_t> sizes{1 << 20, bytes};
        const auto goodput = [&](const std::vector<double>& at) {
            return (MESSAGE_HEADER + bytes) / (at[1] - at[0]);
        };
        const double rate = SHAPER_RATE.GetBitRate() / 8.0;
        const double switched =
            goodput(Deliveries<SwitchedStarHelper>(15000, Shaped::BOTH_ENDS, sizes, true));
        const double routed =
            goodput(Deliveries<StarNetworkHelper>(15000, Shaped::BOTH_ENDS, sizes, true));
        const double endpoints =
            goodput(Deliveries<SwitchedStarHelper>(15000, Shaped::ENDPOINTS, sizes, true));
        const double switchedExpected = rate * 1448 / SEGMENT_PACKET;
        const double ipExpected = switchedExpected;
        std::ostringstream note;
        note << "goodput: switched " << switched * 8e-6 << " Mbit/s (computed "
             << switchedExpected * 8e-6 << "), routed " << routed * 8e-6 << " (computed "
             << ipExpected * 8e-6 << "), endpoints only " << endpoints * 8e-6 << " (computed "
             << ipExpected * 8e-6 << ")";
        NS_TEST_EXPECT_MSG_EQ_TOL(switched, switchedExpected, 0.002 * switchedExpected, note.str());
        NS_TEST_EXPECT_MSG_EQ_TOL(routed, ipExpected, 0.002 * ipExpected, note.str());
        NS_TEST_EXPECT_MSG_EQ_TOL(endpoints, ipExpected, 0.002 * ipExpected, note.str());
        std::clog << "  " << note.str() << std::endl;
    }
};

/**
 * \ingroup uniference-tests
 *
 * A shaper's full bucket passes at once: a message sent on an idle link is ahead by the bucket
 * at the rate. With one shaper on the sender's side and nothing else changed, raising the
 * burst from two packets to 100 kB shortens a 1 MiB message by (100000 - 3000) / rate, 7.76 ms
 * at 100 Mbit/s, less the few round trips TCP's slow start takes to empty the bucket. The
 * message itself takes about its bytes at the rate.
 */
class ShaperBurstTestCase : public TestCase
{
  public:
    ShaperBurstTestCase()
        : TestCase("a full bucket passes at once: a larger burst shortens a transfer from idle "
                   "by the bursts' difference at the rate")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 1 << 20;
        const uint32_t small = 2 * 1500;
        const uint32_t large = 100000;
        // A first message opens the connection; the link is idle again before the second.
        const std::vector<uint64_t> sizes{1000, bytes};
        const auto time = [&](uint32_t burst) {
            // Idle long enough to refill any bucket: the second message starts its own clock.
            const std::vector<double> at =
                Deliveries<SwitchedStarHelper>(burst, Shaped::ENDPOINTS, sizes, false);
            return at[1] - at[0];
        };
        const double rate = SHAPER_RATE.GetBitRate() / 8.0;
        const double smallBurst = time(small);
        const double largeBurst = time(large);
        const double savedExpected = (large - small) / rate;
        const uint64_t segments = (MESSAGE_HEADER + bytes + 1447) / 1448;
        const double charged = (MESSAGE_HEADER + bytes) + segments * (SEGMENT_PACKET - 1448.0);
        const double smallExpected = (charged - small) / rate;
        std::ostringstream note;
        note << "1 MiB from idle: burst " << small << " B " << smallBurst * 1e3 << " ms (computed "
             << smallExpected * 1e3 << "), burst " << large << " B " << largeBurst * 1e3
             << " ms; saved " << (smallBurst - largeBurst) * 1e3 << " ms (computed "
             << savedExpected * 1e3 << ")";
        NS_TEST_EXPECT_MSG_EQ_TOL(smallBurst, smallExpected, 0.01 * smallExpected, note.str());
        NS_TEST_EXPECT_MSG_EQ_TOL(smallBurst - largeBurst,
                                  savedExpected,
                                  0.05 * savedExpected,
                                  note.str());
        std::clog << "  " << note.str() << std::endl;
    }
};

/**
 * \ingroup uniference-tests
 *
 * A switch port's disc sits in front of the port's own queue, which stops it when full and
 * wakes it as frames leave: two endpoints sending to a third at the line rate overload its
 * port two to one, the backlog builds in the disc, and nothing is dropped, where the port's
 * 100-frame queue alone could not hold the two TCP windows.
 */
class SwitchPortDiscTestCase : public TestCase
{
  public:
    SwitchPortDiscTestCase()
        : TestCase("a switch port's queue disc holds the backlog of an incast; the port's "
                   "queue stops and wakes it and drops nothing")
    {
    }

  private:
    void DoRun() override
    {
        SwitchedStarHelper star;
        star.SetLinkAttribute("DataRate", DataRateValue(DataRate("1Gbps")));
        star.SetLinkAttribute("Delay", TimeValue(LINK_DELAY));
        star.SetTransportAttribute("SndBufSize", UintegerValue(1 << 20));
        star.SetTransportAttribute("RcvBufSize", UintegerValue(1 << 20));
        star.SetHubQueueDisc("ns3::FifoQueueDisc", "MaxSize", QueueSizeValue(ROOMY));
        star.Install(3);
        Ptr<EthernetSwitch> hub = star.GetSwitch();
        uint32_t drops = 0;
        uint32_t maxBacklog = 0;
        WatchPort(hub, 1, "PacketsInQueue", drops, maxBacklog);
        uint32_t delivered = 0;
        star.GetTransport(1)->Listen(1,
                                     MessageTransport::ReceiveCallback(
                                         [&delivered](uint32_t, uint64_t, uint64_t) {
                                             ++delivered;
                                         }));
        star.GetTransport(0)->Send(1, 1, 0, 4 << 20);
        star.GetTransport(2)->Send(1, 1, 0, 4 << 20);
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(delivered, 2, "both messages arrive");
        NS_TEST_EXPECT_MSG_EQ(drops, 0, "nothing dropped at the switch");
        NS_TEST_EXPECT_MSG_GT(maxBacklog, 100, "the backlog built in the disc, past the port's queue");
        std::clog << "  incast backlog in the disc: up to " << maxBacklog << " frames" << std::endl;
    }
};

/**
 * \ingroup uniference-tests
 *
 * Two shapers of one rate in series, the sender's and the switch port's, keep one pace: the
 * second never holds more than the first lets through at once, so a testbed-sized limit on the
 * port (75 kB at 100 Mbit/s) drops nothing however long the transfer.
 */
class ShapersInSeriesTestCase : public TestCase
{
  public:
    ShapersInSeriesTestCase()
        : TestCase("a switch port's shaper behind a sender's of the same rate queues no more "
                   "than a burst and drops nothing")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t burst = 12500;
        SwitchedStarHelper star;
        star.SetLinkAttribute("DataRate", DataRateValue(LINE_RATE));
        star.SetLinkAttribute("Delay", TimeValue(LINK_DELAY));
        star.SetEndpointQueueDisc("ns3::TbfQueueDisc",
                                  "Rate",
                                  DataRateValue(SHAPER_RATE),
                                  "Burst",
                                  UintegerValue(burst),
                                  "MaxSize",
                                  QueueSizeValue(ROOMY));
        star.SetHubQueueDisc("ns3::TbfQueueDisc",
                             "Rate",
                             DataRateValue(SHAPER_RATE),
                             "Burst",
                             UintegerValue(burst),
                             "MaxSize",
                             QueueSizeValue(QueueSize("75000B")));
        star.Install(2);
        Ptr<EthernetSwitch> hub = star.GetSwitch();
        uint32_t drops = 0;
        uint32_t maxBytes = 0;
        WatchPort(hub, 1, "BytesInQueue", drops, maxBytes);
        bool delivered = false;
        star.GetTransport(1)->Listen(1,
                                     MessageTransport::ReceiveCallback(
                                         [&delivered](uint32_t, uint64_t, uint64_t) {
                                             delivered = true;
                                         }));
        star.GetTransport(0)->Send(1, 1, 0, 16 << 20);
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(delivered, true, "the message arrives");
        NS_TEST_EXPECT_MSG_EQ(drops, 0, "nothing dropped at the port");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(maxBytes, burst + SEGMENT_PACKET, "at most a burst queued");
    }
};

/**
 * \ingroup uniference-tests
 *
 * Link shaper suite.
 */
class LinkShaperTestSuite : public TestSuite
{
  public:
    LinkShaperTestSuite()
        : TestSuite("uniference-link-shaper")
    {
        AddTestCase(new ShapedGoodputTestCase);
        AddTestCase(new ShaperBurstTestCase);
        AddTestCase(new SwitchPortDiscTestCase);
        AddTestCase(new ShapersInSeriesTestCase);
    }
};

/// Registers the suite.
static LinkShaperTestSuite g_linkShaperTestSuite;
