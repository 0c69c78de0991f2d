/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Validates MessageTransport against what the wire allows: the delivery time of one large
// message over one link is computed here from the link's rate and delay and from the bytes
// every packet carries, independently of the code under test.

#include "tcp-path-model.h"

#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-interface-container.h"
#include "ns3/message-header.h"
#include "ns3/message-transport-helper.h"
#include "ns3/message-transport.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/pointer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::tests;

namespace
{

/// Two nodes joined by one point-to-point link, a transport on each.
struct DirectLink
{
    Ptr<MessageTransport> first;  //!< Endpoint 0
    Ptr<MessageTransport> second; //!< Endpoint 1
};

/**
 * Build two nodes, one link between them, TCP/IP and a transport on each.
 * \param rate the link's data rate
 * \param delay the link's propagation delay
 * \param transportHelper configures the transports
 * \return the transports
 */
DirectLink
BuildDirectLink(DataRate rate, Time delay, const MessageTransportHelper& transportHelper)
{
    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper pointToPoint;
    pointToPoint.SetDeviceAttribute("DataRate", DataRateValue(rate));
    pointToPoint.SetChannelAttribute("Delay", TimeValue(delay));
    NetDeviceContainer devices = pointToPoint.Install(nodes);
    InternetStackHelper stack;
    stack.Install(nodes);
    Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.252");
    Ipv4InterfaceContainer interfaces = addresses.Assign(devices);
    ApplicationContainer transports =
        transportHelper.Install(nodes, {interfaces.GetAddress(0), interfaces.GetAddress(1)});
    return {DynamicCast<MessageTransport>(transports.Get(0)),
            DynamicCast<MessageTransport>(transports.Get(1))};
}

} // namespace

/**
 * \ingroup uniference-tests
 *
 * Round trip of a MessageHeader through a packet, and its wire layout.
 */
class MessageHeaderTestCase : public TestCase
{
  public:
    MessageHeaderTestCase()
        : TestCase("MessageHeader serializes 24 bytes in network order and reads them back")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Packet> packet = Create<Packet>(10);
        packet->AddHeader(MessageHeader(0x0102030405060708, 42, 1234567890123));
        NS_TEST_ASSERT_MSG_EQ(packet->GetSize(), 34, "header is 24 bytes");
        uint8_t bytes[24];
        packet->CopyData(bytes, 24);
        NS_TEST_EXPECT_MSG_EQ(bytes[0], 0x01, "channel is big-endian");
        NS_TEST_EXPECT_MSG_EQ(bytes[7], 0x08, "channel is big-endian");
        NS_TEST_EXPECT_MSG_EQ(bytes[15], 42, "cookie follows the channel");
        MessageHeader header;
        packet->RemoveHeader(header);
        NS_TEST_EXPECT_MSG_EQ(header.GetChannel(), 0x0102030405060708, "channel");
        NS_TEST_EXPECT_MSG_EQ(header.GetCookie(), 42, "cookie");
        NS_TEST_EXPECT_MSG_EQ(header.GetPayloadSize(), 1234567890123, "payload size");
        NS_TEST_EXPECT_MSG_EQ(packet->GetSize(), 10, "payload left alone");
    }
};

/**
 * \ingroup uniference-tests
 *
 * One message over one link arrives when the wire says it can: connection handshake, then the
 * segments back to back at the link rate, then the last one's propagation. Rate and delay are
 * chosen so that the initial congestion window (10 segments) already covers the path's
 * bandwidth-delay product: slow start never stalls the sender.
 */
class SingleLinkTimingTestCase : public TestCase
{
  public:
    /**
     * \param bytes the message's payload size
     * \param tolerance the error allowed, relative to the computed time
     */
    SingleLinkTimingTestCase(uint64_t bytes, double tolerance)
        : TestCase("one message of " + std::to_string(bytes) +
                   " bytes over one 1 Gbps link arrives within " + Percent(tolerance) +
                   " of the wire time"),
          m_bytes(bytes),
          m_tolerance(tolerance)
    {
    }

  private:
    void DoRun() override
    {
        const DataRate rate("1Gbps");
        const Time delay = MicroSeconds(20);
        const uint32_t mss = 1448;
        MessageTransportHelper transportHelper;
        transportHelper.SetAttribute("SegmentSize", UintegerValue(mss));
        DirectLink link = BuildDirectLink(rate, delay, transportHelper);

        Time sentAt;
        Time deliveredAt;
        uint64_t deliveredBytes = 0;
        uint32_t deliveredFrom = 99;
        link.second->Listen(7,
                            ReceiveCallbackFor([&](uint32_t src, uint64_t cookie, uint64_t bytes) {
                                deliveredAt = Simulator::Now();
                                deliveredBytes = bytes;
                                deliveredFrom = src;
                            }));
        // After both transports have started, so that only the send is measured.
        Simulator::Schedule(MilliSeconds(1), [&]() {
            sentAt = Simulator::Now();
            link.first->Send(1, 7, 5, m_bytes);
        });
        Simulator::Run();
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(deliveredBytes, m_bytes, "the whole message arrives");
        NS_TEST_ASSERT_MSG_EQ(deliveredFrom, 0, "from endpoint 0");

        // The stream: the connection's hello frame, the message's header, its payload, back
        // to back once the handshake is done.
        const uint64_t stream = MESSAGE_HEADER + MESSAGE_HEADER + m_bytes;
        const double expected =
            Handshake(rate, delay, 1) + StreamArrival(rate, delay, stream, mss, 1);
        const double measured = (deliveredAt - sentAt).GetSeconds();
        std::ostringstream note;
        note << m_bytes << " bytes: measured " << measured * 1e3 << " ms, computed "
             << expected * 1e3 << " ms";
        NS_TEST_EXPECT_MSG_EQ_TOL(measured, expected, m_tolerance * expected, note.str());
        std::clog << "  single link, " << note.str() << " (error "
                  << 100 * (measured - expected) / expected << "%)" << std::endl;
    }

    /**
     * \param f a callable taking (source, cookie, bytes)
     * \return it as a listener
     */
    template <typename F>
    static MessageTransport::ReceiveCallback ReceiveCallbackFor(F f)
    {
        return MessageTransport::ReceiveCallback(f);
    }

    uint64_t m_bytes;   //!< Payload size
    double m_tolerance; //!< Relative error allowed
};

/**
 * \ingroup uniference-tests
 *
 * The first message to a peer pays for opening the connection: SYN and SYN-ACK across the
 * link, the handshake's last ACK and the hello frame ahead of it; a second one, on the open
 * connection, only its own frame and the propagation. Small messages, so that the handshake is
 * most of the first one's time.
 */
class HandshakeTestCase : public TestCase
{
  public:
    HandshakeTestCase()
        : TestCase("the first message on a connection pays the handshake, the next one not")
    {
    }

  private:
    void DoRun() override
    {
        const DataRate rate("1Gbps");
        const Time delay = MicroSeconds(20);
        const uint32_t mss = 1448;
        const uint64_t bytes = 100;
        MessageTransportHelper transportHelper;
        transportHelper.SetAttribute("SegmentSize", UintegerValue(mss));
        DirectLink link = BuildDirectLink(rate, delay, transportHelper);
        std::vector<Time> deliveredAt;
        link.second->Listen(3, MessageTransport::ReceiveCallback([&](uint32_t, uint64_t, uint64_t) {
                                deliveredAt.push_back(Simulator::Now());
                            }));
        // Both after the transports have started; the second long after the first arrived.
        const Time firstAt = MilliSeconds(1);
        const Time secondAt = MilliSeconds(2);
        for (Time at : {firstAt, secondAt})
        {
            Simulator::Schedule(at,
                                &MessageTransport::Send,
                                link.first,
                                1,
                                3,
                                0,
                                bytes,
                                MakeNullCallback<void>());
        }
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(deliveredAt.size(), 2, "both messages arrive");

        const double first = Handshake(rate, delay, 1) +
                             StreamArrival(rate, delay, 2 * MESSAGE_HEADER + bytes, mss, 1);
        const double second = StreamArrival(rate, delay, MESSAGE_HEADER + bytes, mss, 1);
        const double measuredFirst = (deliveredAt[0] - firstAt).GetSeconds();
        const double measuredSecond = (deliveredAt[1] - secondAt).GetSeconds();
        std::ostringstream note;
        note << "first " << measuredFirst * 1e6 << " us (computed " << first * 1e6 << "), second "
             << measuredSecond * 1e6 << " us (computed " << second * 1e6 << ")";
        // The handshake is two thirds of the first message's time; 0.1% is 60 ns.
        NS_TEST_EXPECT_MSG_EQ_TOL(measuredFirst, first, 0.001 * first, note.str());
        NS_TEST_EXPECT_MSG_EQ_TOL(measuredSecond, second, 0.001 * second, note.str());
        std::clog << "  single link handshake: " << note.str() << std::endl;
    }
};

/**
 * \ingroup uniference-tests
 *
 * Many messages, queued at once before the transports start, some empty, some shorter than a
 * header, spread over three channels and sent both ways: each channel's listener sees exactly
 * its messages, in order, with their sizes and from the right endpoint. With a small segment
 * size nearly every header straddles segments.
 */
class OrderingTestCase : public TestCase
{
  public:
    /// \param mss the TCP segment size of every socket
    OrderingTestCase(uint32_t mss)
        : TestCase("messages arrive in order, exact and demultiplexed, with " +
                   std::to_string(mss) + "-byte segments"),
          m_mss(mss)
    {
    }

  private:
    /// A message as a listener saw it.
    struct Seen
    {
        uint32_t source;
        uint64_t cookie;
        uint64_t bytes;
        Time at;
    };

    void DoRun() override
    {
        MessageTransportHelper transportHelper;
        transportHelper.SetAttribute("SegmentSize", UintegerValue(m_mss));
        // Small buffers make the sender wait for room again and again.
        transportHelper.SetAttribute("SndBufSize", UintegerValue(4096));
        DirectLink link = BuildDirectLink(DataRate("100Mbps"), MicroSeconds(50), transportHelper);
        const Time start = MilliSeconds(3);
        link.first->SetStartTime(start);
        link.second->SetStartTime(start);

        std::vector<uint64_t> sizes =
            {0, 1, 23, 24, 25, 47, 48, 49, 1447, 1448, 1449, 2896, 100000, 0, 0, 7};
        for (uint64_t k = 0; k < 600; ++k)
        {
            sizes.push_back((k * 37) % 300);
        }
        const uint64_t channels[] = {10, 11, 12};
        std::map<uint64_t, std::vector<std::pair<uint64_t, uint64_t>>> expected;
        std::map<uint64_t, std::vector<Seen>> seen;
        for (uint64_t channel : channels)
        {
            link.second->Listen(channel, Listener(seen[channel]));
        }
        uint32_t sentCallbacks = 0;
        bool chainedSent = false;
        for (uint64_t k = 0; k < sizes.size(); ++k)
        {
            uint64_t channel = channels[k % 3];
            expected[channel].emplace_back(k, sizes[k]);
            Callback<void> onSent = Callback<void>([&]() { ++sentCallbacks; });
            if (k == 5)
            {
                // Sending from inside a sent callback: queued behind everything above.
                onSent = Callback<void>([&]() {
                    ++sentCallbacks;
                    link.first->Send(1, 12, 100000, 3000);
                    chainedSent = true;
                });
            }
            link.first->Send(1, channel, k, sizes[k], onSent);
        }
        expected[12].emplace_back(100000, 3000);

        // The other direction, at the same time, on a connection of its own.
        std::vector<Seen> reverse;
        link.first->Listen(10, Listener(reverse));
        for (uint64_t k = 0; k < 50; ++k)
        {
            link.second->Send(0, 10, k, k * 101);
        }

        uint32_t traceSent = 0;
        uint32_t traceDelivered = 0;
        link.first->TraceConnectWithoutContext(
            "MessageSent",
            Callback<void, uint32_t, uint64_t, uint64_t, uint64_t>(
                [&](uint32_t, uint64_t, uint64_t, uint64_t) { ++traceSent; }));
        link.second->TraceConnectWithoutContext(
            "MessageDelivered",
            Callback<void, uint32_t, uint64_t, uint64_t, uint64_t>(
                [&](uint32_t, uint64_t, uint64_t, uint64_t) { ++traceDelivered; }));

        Simulator::Run();
        Simulator::Destroy();

        NS_TEST_EXPECT_MSG_EQ(chainedSent, true, "the sent callback ran");
        NS_TEST_EXPECT_MSG_EQ(sentCallbacks, sizes.size(), "every sent callback ran once");
        NS_TEST_EXPECT_MSG_EQ(traceSent, sizes.size() + 1, "MessageSent per message");
        NS_TEST_EXPECT_MSG_EQ(traceDelivered, sizes.size() + 1, "MessageDelivered per message");
        for (uint64_t channel : channels)
        {
            const auto& want = expected[channel];
            const auto& got = seen[channel];
            NS_TEST_ASSERT_MSG_EQ(got.size(), want.size(), "messages on channel " << channel);
            for (size_t i = 0; i < want.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(got[i].source, 0, "source on channel " << channel);
                NS_TEST_ASSERT_MSG_EQ(got[i].cookie,
                                      want[i].first,
                                      "order on channel " << channel << " at " << i);
                NS_TEST_ASSERT_MSG_EQ(got[i].bytes,
                                      want[i].second,
                                      "size of message " << want[i].first);
                NS_TEST_ASSERT_MSG_GT(got[i].at, start, "nothing moves before the start");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(reverse.size(), 50, "messages the other way");
        for (uint64_t k = 0; k < reverse.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(reverse[k].source, 1, "source of the other direction");
            NS_TEST_EXPECT_MSG_EQ(reverse[k].cookie, k, "order of the other direction");
            NS_TEST_EXPECT_MSG_EQ(reverse[k].bytes, k * 101, "size in the other direction");
        }
    }

    /**
     * \param log where to record what the listener sees
     * \return a listener
     */
    static MessageTransport::ReceiveCallback Listener(std::vector<Seen>& log)
    {
        return MessageTransport::ReceiveCallback(
            [&log](uint32_t source, uint64_t cookie, uint64_t bytes) {
                log.push_back({source, cookie, bytes, Simulator::Now()});
            });
    }

    uint32_t m_mss; //!< TCP segment size
};

/**
 * \ingroup uniference-tests
 *
 * Listeners that answer from inside their callback (a ping-pong of a few rounds), and an
 * endpoint that sends to itself.
 */
class ReplyTestCase : public TestCase
{
  public:
    ReplyTestCase()
        : TestCase("a listener may send from its callback, and an endpoint to itself")
    {
    }

  private:
    void DoRun() override
    {
        const DataRate rate("1Gbps");
        const Time delay = MicroSeconds(100);
        DirectLink link = BuildDirectLink(rate, delay, MessageTransportHelper());
        const uint64_t rounds = 10;
        std::vector<Time> arrivals;
        auto bounce = [&](Ptr<MessageTransport> self) {
            return MessageTransport::ReceiveCallback(
                [&arrivals, self, rounds](uint32_t source, uint64_t cookie, uint64_t bytes) {
                    arrivals.push_back(Simulator::Now());
                    if (cookie + 1 < rounds)
                    {
                        self->Send(source, 20, cookie + 1, 1000);
                    }
                });
        };
        link.first->Listen(20, bounce(link.first));
        link.second->Listen(20, bounce(link.second));
        uint32_t selfMessages = 0;
        link.first->Listen(21,
                           MessageTransport::ReceiveCallback(
                               [&](uint32_t source, uint64_t cookie, uint64_t bytes) {
                                   selfMessages += (source == 0 && bytes == 500) ? 1 : 0;
                               }));
        Simulator::Schedule(MilliSeconds(1), [&]() {
            link.first->Send(1, 20, 0, 1000);
            link.first->Send(0, 21, 0, 500);
        });
        Simulator::Run();
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(arrivals.size(), rounds, "every round arrived");
        NS_TEST_EXPECT_MSG_EQ(selfMessages, 1, "a message to itself arrives");
        // Each round after the first needs at least a one-way trip across the link.
        for (size_t k = 1; k < arrivals.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(arrivals[k] - arrivals[k - 1], delay, "round " << k);
        }
    }
};

/**
 * \ingroup uniference-tests
 *
 * A HandlingDelay hands each message that finds the endpoint idle to its listener that much
 * after it arrived, and one that arrives while an earlier one still waits together with it, in
 * order. The arrival times come from the same sends without the delay: the receiver sends no
 * message back, so its handling cannot move them.
 */
class HandlingDelayTestCase : public TestCase
{
  public:
    HandlingDelayTestCase()
        : TestCase("a handling delay holds messages that find the endpoint idle, in order")
    {
    }

  private:
    /**
     * Two back-to-back messages at 1 ms, a third at 10 ms, from endpoint 0 to endpoint 1.
     * \param handling the receiver's HandlingDelay, in seconds; negative: none
     * \return (cookie, time handed to the listener) of each message
     */
    static std::vector<std::pair<uint64_t, Time>> Deliveries(double handling)
    {
        DirectLink link =
            BuildDirectLink(DataRate("1Gbps"), MicroSeconds(20), MessageTransportHelper());
        if (handling >= 0)
        {
            Ptr<ConstantRandomVariable> delay = CreateObject<ConstantRandomVariable>();
            delay->SetAttribute("Constant", DoubleValue(handling));
            link.second->SetAttribute("HandlingDelay", PointerValue(delay));
        }
        std::vector<std::pair<uint64_t, Time>> handed;
        link.second->Listen(9,
                            MessageTransport::ReceiveCallback(
                                [&handed](uint32_t, uint64_t cookie, uint64_t) {
                                    handed.emplace_back(cookie, Simulator::Now());
                                }));
        Simulator::Schedule(MilliSeconds(1), [&link]() {
            link.first->Send(1, 9, 0, 1000);
            link.first->Send(1, 9, 1, 1000);
        });
        Simulator::Schedule(MilliSeconds(10), [&link]() { link.first->Send(1, 9, 2, 1000); });
        Simulator::Run();
        Simulator::Destroy();
        return handed;
    }

    void DoRun() override
    {
        const Time handling = MilliSeconds(2);
        const std::vector<std::pair<uint64_t, Time>> arrived = Deliveries(-1);
        const std::vector<std::pair<uint64_t, Time>> handed = Deliveries(handling.GetSeconds());
        NS_TEST_ASSERT_MSG_EQ(arrived.size(), 3, "all three arrive");
        NS_TEST_ASSERT_MSG_EQ(handed.size(), 3, "all three are handed on");
        NS_TEST_ASSERT_MSG_LT(arrived[1].second, arrived[0].second + handling,
                              "the second arrives while the first waits");
        NS_TEST_ASSERT_MSG_GT(arrived[2].second, arrived[0].second + handling,
                              "the third finds the endpoint idle");
        for (uint64_t k = 0; k < 3; ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(handed[k].first, k, "message " << k << " in order");
        }
        NS_TEST_EXPECT_MSG_EQ(handed[0].second, arrived[0].second + handling, "the first waits");
        NS_TEST_EXPECT_MSG_EQ(handed[1].second, handed[0].second, "the second goes with it");
        NS_TEST_EXPECT_MSG_EQ(handed[2].second, arrived[2].second + handling, "the third waits");
    }
};

/**
 * \ingroup uniference-tests
 *
 * The MessageTransport suite.
 */
class MessageTransportTestSuite : public TestSuite
{
  public:
    MessageTransportTestSuite()
        : TestSuite("uniference-message-transport")
    {
        AddTestCase(new MessageHeaderTestCase);
        AddTestCase(new SingleLinkTimingTestCase(1 << 20, 0.001));
        AddTestCase(new SingleLinkTimingTestCase(8 << 20, 0.001));
        AddTestCase(new SingleLinkTimingTestCase(64 << 20, 0.001));
        // Handshake and propagation are 10% of this one's time.
        AddTestCase(new SingleLinkTimingTestCase(64 << 10, 0.001));
        AddTestCase(new HandshakeTestCase);
        AddTestCase(new OrderingTestCase(1448));
        AddTestCase(new OrderingTestCase(50));
        AddTestCase(new ReplyTestCase);
        AddTestCase(new HandlingDelayTestCase);
    }
};

/// Registers the suite.
static MessageTransportTestSuite g_messageTransportTestSuite;
