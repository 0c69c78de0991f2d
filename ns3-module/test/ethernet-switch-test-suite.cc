/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Ethernet links, the switch and the switched star: frames take the time their bytes and the
// Ethernet framing need, the switch forwards by its table, floods what it does not know and
// traces what its queues drop, and TCP messages across the switched star take what the routed
// star's take but for the framing. Expected values come from rates, delays and frame sizes
// computed here.

#include "tcp-path-model.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/ethernet-channel.h"
#include "ns3/ethernet-header.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/ethernet-switch.h"
#include "ns3/ipv4.h"
#include "ns3/message-transport.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/star-network-helper.h"
#include "ns3/switched-star-helper.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-vegas.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::tests;

namespace
{

/// An EtherType for local experiments (IEEE 802), so that no protocol above claims the frames.
constexpr uint16_t LOCAL_ETHERTYPE = 0x88B5;

/// A switch on its own node and one plain node per port, each on its own cable; no IP.
struct SwitchBench
{
    Ptr<EthernetSwitch> sw;                      //!< The switch
    std::vector<Ptr<EthernetNetDevice>> hosts;   //!< Host i's device, on port i
    std::vector<uint32_t> delivered;             //!< Frames handed up at host i
    std::vector<uint32_t> seen;                  //!< Frames that reached host i's device
    std::vector<Time> lastDelivery;              //!< When host i last handed one up

    /**
     * \param rates each host's link rate, one per port
     * \param delay every cable's delay
     * \param portQueue each port's output queue
     * \param learning whether the switch learns
     */
    SwitchBench(const std::vector<DataRate>& rates,
                Time delay,
                QueueSize portQueue,
                bool learning)
        : delivered(rates.size(), 0),
          seen(rates.size(), 0),
          lastDelivery(rates.size())
    {
        Ptr<Node> switchNode = CreateObject<Node>();
        sw = CreateObject<EthernetSwitch>();
        sw->SetAttribute("PortQueueSize", QueueSizeValue(portQueue));
        sw->SetAttribute("Learning", BooleanValue(learning));
        switchNode->AggregateObject(sw);
        for (uint32_t i = 0; i < rates.size(); ++i)
        {
            Ptr<EthernetChannel> cable = CreateObject<EthernetChannel>();
            cable->SetAttribute("Delay", TimeValue(delay));
            Ptr<EthernetNetDevice> host = CreateObject<EthernetNetDevice>();
            Ptr<EthernetNetDevice> port = CreateObject<EthernetNetDevice>();
            for (const Ptr<EthernetNetDevice>& device : {host, port})
            {
                device->SetAddress(Mac48Address::Allocate());
                device->SetAttribute("DataRate", DataRateValue(rates[i]));
                device->Attach(cable);
            }
            Ptr<Queue<Packet>> queue = CreateObject<DropTailQueue<Packet>>();
            queue->SetMaxSize(QueueSize("1000p")); // a host sends whole bursts at line rate
            host->SetQueue(queue);
            CreateObject<Node>()->AddDevice(host);
            switchNode->AddDevice(port);
            sw->AddPort(port);
            host->SetReceiveCallback(MakeCallback(&SwitchBench::Deliver, this).Bind(i));
            host->TraceConnectWithoutContext(
                "PhyRxEnd",
                MakeCallback(&SwitchBench::Count, this).Bind(i));
            hosts.push_back(host);
        }
    }

    /// Host i's MAC address.
    Mac48Address Mac(uint32_t i) const
    {
        return Mac48Address::ConvertFrom(hosts[i]->GetAddress());
    }

    /// Schedules host from sending a frame of bytes payload to destination at time at.
    void Send(Time at, uint32_t from, Mac48Address destination, uint32_t bytes)
    {
        Simulator::Schedule(at, [this, from, destination, bytes]() {
            hosts[from]->Send(Create<Packet>(bytes), destination, LOCAL_ETHERTYPE);
        });
    }

  private:
    bool Deliver(uint32_t i, Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&)
    {
        ++delivered[i];
        lastDelivery[i] = Simulator::Now();
        return true;
    }

    void Count(uint32_t i, Ptr<const Packet>)
    {
        ++seen[i];
    }
};

} // namespace

/**
 * \ingroup uniference-tests
 *
 * A frame between two hosts crosses two cables, stored whole at the switch before it goes on:
 * each hop takes the preamble, the frame and its FCS at the link rate plus the cable's delay.
 * A short frame is timed as padded to the Ethernet minimum.
 */
class EthernetFrameTimingTestCase : public TestCase
{
  public:
    EthernetFrameTimingTestCase()
        : TestCase("a frame is stored and forwarded: two hops of preamble, frame and FCS")
    {
    }

  private:
    void DoRun() override
    {
        const DataRate rate("1Gbps");
        const Time delay = MicroSeconds(5);
        for (uint32_t payload : {1000u, 10u})
        {
            SwitchBench bench({rate, rate, rate}, delay, QueueSize("100p"), true);
            bench.sw->AddEntry(bench.Mac(1), 1);
            const Time sentAt = MilliSeconds(1);
            bench.Send(sentAt, 0, bench.Mac(1), payload);
            Simulator::Run();
            Simulator::Destroy();
            const uint32_t frame = std::max<uint32_t>(14 + payload, 60);
            const double expected = 2 * (Wire(rate, 8 + frame + 4) + delay.GetSeconds());
            NS_TEST_EXPECT_MSG_EQ_TOL((bench.lastDelivery[1] - sentAt).GetSeconds(),
                                      expected,
                                      1e-12,
                                      "a frame of " << payload << " payload bytes");
        }
    }
};

/**
 * \ingroup uniference-tests
 *
 * With learning off, the switch sends a frame out of the port its table names and nowhere
 * else, and floods a frame to an unknown or broadcast address to every port but its own.
 */
class EthernetSwitchTableTestCase : public TestCase
{
  public:
    EthernetSwitchTableTestCase()
        : TestCase("the switch forwards by its table and floods unknown and broadcast addresses")
    {
    }

  private:
    void DoRun() override
    {
        const DataRate rate("1Gbps");
        SwitchBench bench({rate, rate, rate, rate}, MicroSeconds(1), QueueSize("100p"), false);
        bench.sw->AddEntry(bench.Mac(2), 2);
        uint32_t floods = 0;
        bench.sw->TraceConnectWithoutContext(
            "Flood",
            Callback<void, Ptr<const Packet>, uint32_t>(
                [&floods](Ptr<const Packet>, uint32_t in) { floods += in == 0 ? 1 : 100; }));

        bench.Send(MicroSeconds(10), 0, bench.Mac(2), 100);
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(bench.delivered[2], 1, "known address: delivered");
        NS_TEST_EXPECT_MSG_EQ(bench.seen[1] + bench.seen[3] + bench.seen[0], 0, "and only there");
        NS_TEST_EXPECT_MSG_EQ(floods, 0, "nothing flooded");

        // Host 1 is not in the table, and with learning off it stays unknown.
        // Times are from now: each phase runs until its frames are through.
        bench.Send(MicroSeconds(10), 0, bench.Mac(1), 100);
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(floods, 1, "unknown address: flooded once, from port 0");
        NS_TEST_EXPECT_MSG_EQ(bench.delivered[1], 1, "reaches its host");
        NS_TEST_EXPECT_MSG_EQ(bench.seen[2], 2, "and the other ports' hosts see it");
        NS_TEST_EXPECT_MSG_EQ(bench.seen[3], 1, "and the other ports' hosts see it");
        NS_TEST_EXPECT_MSG_EQ(bench.delivered[3], 0, "which do not take it");
        NS_TEST_EXPECT_MSG_EQ(bench.seen[0], 0, "not back to where it came from");

        bench.Send(MicroSeconds(10), 0, Mac48Address::GetBroadcast(), 100);
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(floods, 2, "broadcast: flooded");
        NS_TEST_EXPECT_MSG_EQ(bench.delivered[1], 2, "every other host takes a broadcast");
        NS_TEST_EXPECT_MSG_EQ(bench.delivered[2], 2, "every other host takes a broadcast");
        NS_TEST_EXPECT_MSG_EQ(bench.delivered[3], 1, "every other host takes a broadcast");
        NS_TEST_EXPECT_MSG_EQ(bench.seen[0], 0, "not back to where it came from");
        NS_TEST_EXPECT_MSG_EQ(bench.sw->LookupPort(bench.Mac(0)),
                              bench.sw->GetNPorts(),
                              "learning off: the sender stays unknown");
        Simulator::Destroy();
    }
};

/**
 * \ingroup uniference-tests
 *
 * With learning on and an empty table, the first frame to a host is flooded; the reply goes
 * only to the port the first frame came in on, and after it neither direction floods.
 */
class EthernetSwitchLearningTestCase : public TestCase
{
  public:
    EthernetSwitchLearningTestCase()
        : TestCase("the switch learns source addresses and stops flooding them")
    {
    }

  private:
    void DoRun() override
    {
        const DataRate rate("1Gbps");
        SwitchBench bench({rate, rate, rate}, MicroSeconds(1), QueueSize("100p"), true);
        uint32_t floods = 0;
        bench.sw->TraceConnectWithoutContext(
            "Flood",
            Callback<void, Ptr<const Packet>, uint32_t>(
                [&floods](Ptr<const Packet>, uint32_t) { ++floods; }));
        bench.Send(MicroSeconds(10), 0, bench.Mac(1), 100);
        bench.Send(MicroSeconds(100), 1, bench.Mac(0), 100);
        bench.Send(MicroSeconds(200), 0, bench.Mac(1), 100);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(floods, 1, "only the first frame is flooded");
        NS_TEST_EXPECT_MSG_EQ(bench.delivered[1], 2, "both frames to host 1 arrive");
        NS_TEST_EXPECT_MSG_EQ(bench.delivered[0], 1, "the reply arrives");
        NS_TEST_EXPECT_MSG_EQ(bench.seen[2], 1, "host 2 sees only the flooded frame");
        NS_TEST_EXPECT_MSG_EQ(bench.sw->LookupPort(bench.Mac(0)), 0, "learned port of host 0");
        NS_TEST_EXPECT_MSG_EQ(bench.sw->LookupPort(bench.Mac(1)), 1, "learned port of host 1");
        Simulator::Destroy();
    }
};

/**
 * \ingroup uniference-tests
 *
 * A burst from a fast link into a slow one overflows the slow port's output queue: the switch
 * traces every frame the queue drops, and exactly the frames a drop-tail queue of that size
 * keeps get through. The expected count replays the burst in a queue model here: frames
 * arrive one fast-link frame time apart and leave one slow-link frame time apart.
 */
class EthernetSwitchDropTestCase : public TestCase
{
  public:
    EthernetSwitchDropTestCase()
        : TestCase("a port's full output queue drops frames, and the switch traces each")
    {
    }

  private:
    void DoRun() override
    {
        // Rates in a ratio (2.3) that makes no arrival coincide with a departure within the
        // burst, so the count does not hang on the order of simultaneous events.
        const DataRate fast("2.3Gbps");
        const DataRate slow("1Gbps");
        const uint32_t queueFrames = 4;
        const uint32_t burst = 20;
        const uint32_t payload = 1486;
        SwitchBench bench({fast, slow}, MicroSeconds(1), QueueSize(QueueSizeUnit::PACKETS, queueFrames), false);
        bench.sw->AddEntry(bench.Mac(1), 1);
        uint32_t traced = 0;
        bench.sw->TraceConnectWithoutContext(
            "Drop",
            Callback<void, Ptr<const Packet>, uint32_t>([&traced](Ptr<const Packet>, uint32_t port) {
                traced += port == 1 ? 1 : 1000;
            }));
        for (uint32_t k = 0; k < burst; ++k)
        {
            bench.Send(MicroSeconds(10), 0, bench.Mac(1), payload);
        }
        Simulator::Run();
        Simulator::Destroy();

        const uint32_t frame = 14 + payload;
        const double in = Wire(fast, 8 + frame + 4 + 12);
        const double out = Wire(slow, 8 + frame + 4 + 12);
        uint32_t queued = 0;
        uint32_t dropped = 0;
        double free = 0;
        for (uint32_t k = 0; k < burst; ++k)
        {
            const double t = k * in;
            while (queued > 0 && free <= t)
            {
                --queued;
                free += out;
            }
            if (free <= t)
            {
                free = t + out;
            }
            else if (queued < queueFrames)
            {
                ++queued;
            }
            else
            {
                ++dropped;
            }
        }
        NS_TEST_ASSERT_MSG_GT(dropped, 0, "the model overflows the queue");
        NS_TEST_EXPECT_MSG_EQ(traced, dropped, "every drop traced, at the slow port");
        NS_TEST_EXPECT_MSG_EQ(bench.delivered[1], burst - dropped, "the rest delivered");
    }
};

/**
 * \ingroup uniference-tests
 *
 * The switched star is built as asked: endpoints on one switch, in one subnet, the switch
 * without IP, its table filled; and all-to-all messages flood nothing and send no ARP.
 */
class SwitchedStarConfigurationTestCase : public TestCase
{
  public:
    SwitchedStarConfigurationTestCase()
        : TestCase("the switched star: one subnet, a switch without IP, no flooding, no ARP")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 5;
        SwitchedStarHelper star;
        star.SetLinkAttribute("DataRate", DataRateValue(DataRate("2Gbps")));
        star.SetLinkAttribute("Delay", TimeValue(MicroSeconds(7)));
        star.SetTcpVariant(TcpVegas::GetTypeId()); // not ns-3's default
        star.SetTransportAttribute("Port", UintegerValue(9100));
        NodeContainer endpoints = star.Install(n);

        NS_TEST_ASSERT_MSG_EQ(endpoints.GetN(), n, "endpoints returned");
        NS_TEST_EXPECT_MSG_EQ(star.GetSwitch()->GetNPorts(), n, "one port per endpoint");
        NS_TEST_EXPECT_MSG_EQ(bool(star.GetSwitchNode()->GetObject<Ipv4>()), false, "no IP");
        std::set<uint32_t> addresses;
        const Ipv4Mask mask("255.255.0.0");
        for (uint32_t i = 0; i < n; ++i)
        {
            Ptr<Node> node = star.GetEndpoint(i);
            addresses.insert(star.GetEndpointAddress(i).Get());
            NS_TEST_EXPECT_MSG_EQ(star.GetEndpointAddress(i).CombineMask(mask),
                                  Ipv4Address("10.1.0.0"),
                                  "one subnet");
            NS_TEST_EXPECT_MSG_EQ(star.GetTransport(i)->GetEndpointId(), i, "endpoint id");
            UintegerValue port;
            star.GetTransport(i)->GetAttribute("Port", port);
            NS_TEST_EXPECT_MSG_EQ(port.Get(), 9100, "transport attribute");
            TypeIdValue socketType;
            node->GetObject<TcpL4Protocol>()->GetAttribute("SocketType", socketType);
            NS_TEST_EXPECT_MSG_EQ(socketType.Get(), TcpVegas::GetTypeId(), "TCP variant");
            Ptr<NetDevice> device = node->GetDevice(0);
            NS_TEST_ASSERT_MSG_EQ(bool(DynamicCast<EthernetNetDevice>(device)), true, "Ethernet");
            DataRateValue rate;
            device->GetAttribute("DataRate", rate);
            NS_TEST_EXPECT_MSG_EQ(rate.Get(), DataRate("2Gbps"), "device attribute");
            TimeValue delay;
            device->GetChannel()->GetAttribute("Delay", delay);
            NS_TEST_EXPECT_MSG_EQ(delay.Get(), MicroSeconds(7), "channel attribute");
            NS_TEST_EXPECT_MSG_EQ(
                star.GetSwitch()->LookupPort(Mac48Address::ConvertFrom(device->GetAddress())),
                i,
                "the table knows endpoint " << i);
            Ptr<NetDevice> port0 = star.GetSwitch()->GetPort(i);
            NS_TEST_EXPECT_MSG_EQ(port0->GetChannel(), device->GetChannel(), "port i, endpoint i");
        }
        NS_TEST_EXPECT_MSG_EQ(addresses.size(), n, "distinct addresses");

        uint32_t floods = 0;
        star.GetSwitch()->TraceConnectWithoutContext(
            "Flood",
            Callback<void, Ptr<const Packet>, uint32_t>(
                [&floods](Ptr<const Packet>, uint32_t) { ++floods; }));
        uint32_t delivered = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            star.GetTransport(i)->Listen(
                1,
                MessageTransport::ReceiveCallback(
                    [&delivered](uint32_t, uint64_t, uint64_t) { ++delivered; }));
            for (uint32_t j = 0; j < n; ++j)
            {
                if (j != i)
                {
                    star.GetTransport(i)->Send(j, 1, 0, 10000);
                }
            }
        }
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(delivered, n * (n - 1), "every message arrived");
        NS_TEST_EXPECT_MSG_EQ(floods, 0, "no frame flooded, so no ARP request either");
    }
};

/**
 * \ingroup uniference-tests
 *
 * One message across the switched star and the same across the routed star, each against its
 * own wire time: the same TCP exchange, framed in PPP (2 bytes per frame) or Ethernet (14-byte
 * header, 4-byte FCS, 8 bytes of preamble, 12 of gap).
 */
class SwitchedStarMessageTimingTestCase : public TestCase
{
  public:
    /**
     * \param tcpVariant the TCP congestion control to use
     * \param bytes the message's payload size
     * \param tolerance the error allowed, relative to the computed time
     */
    SwitchedStarMessageTimingTestCase(std::string tcpVariant, uint64_t bytes, double tolerance)
        : TestCase("one message of " + std::to_string(bytes) + " bytes with " + tcpVariant +
                   ", switched and routed star, each within " + Percent(tolerance) +
                   " of its framing's wire time"),
          m_tcpVariant(tcpVariant),
          m_bytes(bytes),
          m_tolerance(tolerance)
    {
    }

  private:
    /// Sends the message from endpoint 0 to 2 and returns the seconds until it is delivered.
    template <typename Helper>
    double Measure(DataRate rate, Time delay, uint32_t mss)
    {
        Helper star;
        star.SetLinkAttribute("DataRate", DataRateValue(rate));
        star.SetLinkAttribute("Delay", TimeValue(delay));
        star.SetTcpVariant(TypeId::LookupByName(m_tcpVariant));
        star.SetTransportAttribute("SegmentSize", UintegerValue(mss));
        star.Install(3);
        Time deliveredAt;
        const uint64_t bytes = m_bytes;
        star.GetTransport(2)->Listen(
            1,
            MessageTransport::ReceiveCallback([&](uint32_t source, uint64_t, uint64_t size) {
                deliveredAt = size == bytes && source == 0 ? Simulator::Now() : Seconds(-1);
            }));
        const Time sentAt = MilliSeconds(1);
        Simulator::Schedule(sentAt,
                            &MessageTransport::Send,
                            star.GetTransport(0),
                            2,
                            1,
                            0,
                            bytes,
                            MakeNullCallback<void>());
        Simulator::Run();
        Simulator::Destroy();
        return (deliveredAt - sentAt).GetSeconds();
    }

    void DoRun() override
    {
        const DataRate rate("1Gbps");
        const Time delay = MicroSeconds(15);
        const uint32_t mss = 1448;
        const uint64_t stream = MESSAGE_HEADER + MESSAGE_HEADER + m_bytes; // hello, header, payload
        const double routed = Measure<StarNetworkHelper>(rate, delay, mss);
        const double switched = Measure<SwitchedStarHelper>(rate, delay, mss);
        const double routedExpected =
            FramedHandshake(rate, delay, 2, PPP) + FramedStreamArrival(rate, delay, stream, mss, 2, PPP);
        const double switchedExpected = FramedHandshake(rate, delay, 2, ETHERNET) +
                                        FramedStreamArrival(rate, delay, stream, mss, 2, ETHERNET);
        std::ostringstream note;
        note << m_tcpVariant << ", " << m_bytes << " B: routed " << routed * 1e3 << " ms (computed "
             << routedExpected * 1e3 << "), switched " << switched * 1e3 << " ms (computed "
             << switchedExpected * 1e3 << ")";
        NS_TEST_EXPECT_MSG_EQ_TOL(routed, routedExpected, m_tolerance * routedExpected, note.str());
        NS_TEST_EXPECT_MSG_EQ_TOL(switched,
                                  switchedExpected,
                                  m_tolerance * switchedExpected,
                                  note.str());
        std::clog << "  " << note.str() << std::endl;
    }

    std::string m_tcpVariant; //!< Congestion control
    uint64_t m_bytes;         //!< Payload size
    double m_tolerance;       //!< Relative error allowed
};

/**
 * \ingroup uniference-tests
 *
 * A long transfer, once TCP has opened its window, runs at the rate the framing leaves for
 * payload: rate x mss / (mss + TCP/IP headers + link framing), 1448/1502 of the link with
 * PPP and 1448/1538 with Ethernet. Measured between the deliveries of a warm-up message and of
 * a long one queued right behind it.
 */
class SwitchedStarThroughputTestCase : public TestCase
{
  public:
    SwitchedStarThroughputTestCase()
        : TestCase("a long transfer's goodput is rate x payload over payload and overhead, "
                   "switched and routed")
    {
    }

  private:
    /// Seconds between the end of a warm-up message and the end of a long one behind it.
    template <typename Helper>
    double Measure(DataRate rate, Time delay, uint32_t mss, uint64_t warmUp, uint64_t bytes)
    {
        Helper star;
        star.SetLinkAttribute("DataRate", DataRateValue(rate));
        star.SetLinkAttribute("Delay", TimeValue(delay));
        star.SetTransportAttribute("SegmentSize", UintegerValue(mss));
        star.Install(2);
        std::vector<Time> deliveredAt;
        star.GetTransport(1)->Listen(
            1,
            MessageTransport::ReceiveCallback(
                [&](uint32_t, uint64_t, uint64_t) { deliveredAt.push_back(Simulator::Now()); }));
        star.GetTransport(0)->Send(1, 1, 0, warmUp);
        star.GetTransport(0)->Send(1, 1, 0, bytes);
        Simulator::Run();
        Simulator::Destroy();
        NS_ABORT_MSG_UNLESS(deliveredAt.size() == 2, "both messages arrive");
        return (deliveredAt[1] - deliveredAt[0]).GetSeconds();
    }

    void DoRun() override
    {
        const DataRate rate("1Gbps");
        const Time delay = MicroSeconds(15);
        const uint32_t mss = 1448;
        const uint64_t bytes = 16 << 20;
        const uint64_t stream = MESSAGE_HEADER + bytes;
        const double routed = stream / Measure<StarNetworkHelper>(rate, delay, mss, 1 << 20, bytes);
        const double switched =
            stream / Measure<SwitchedStarHelper>(rate, delay, mss, 1 << 20, bytes);
        const uint32_t headers = TCP_DATA_HEADER + IPV4_HEADER;
        // One full segment's payload per frame time.
        const double routedExpected = mss / Busy(rate, PPP, mss + headers);
        const double switchedExpected = mss / Busy(rate, ETHERNET, mss + headers);
        std::ostringstream note;
        note << "goodput routed " << routed * 8e-6 << " Mbit/s (computed " << routedExpected * 8e-6
             << "), switched " << switched * 8e-6 << " Mbit/s (computed "
             << switchedExpected * 8e-6 << ")";
        NS_TEST_EXPECT_MSG_EQ_TOL(routed, routedExpected, 0.001 * routedExpected, note.str());
        NS_TEST_EXPECT_MSG_EQ_TOL(switched, switchedExpected, 0.001 * switchedExpected, note.str());
        std::clog << "  " << note.str() << std::endl;
    }
};

/**
 * \ingroup uniference-tests
 *
 * The header size the switch and the bridge's shaper take from EthernetNetDevice is Ethernet
 * II's, and the size of the header ns-3 writes on every frame.
 */
class EthernetHeaderSizeTestCase : public TestCase
{
  public:
    EthernetHeaderSizeTestCase()
        : TestCase("EthernetNetDevice::HEADER_BYTES is the Ethernet II header")
    {
    }

  private:
    void DoRun() override
    {
        // Destination and source MAC addresses, then the EtherType.
        NS_TEST_EXPECT_MSG_EQ(EthernetNetDevice::HEADER_BYTES,
                              6 + 6 + 2,
                              "Ethernet II: two MAC addresses and a type");
        NS_TEST_EXPECT_MSG_EQ(EthernetHeader(false).GetSerializedSize(),
                              EthernetNetDevice::HEADER_BYTES,
                              "ns-3's EthernetHeader without preamble");
    }
};

/**
 * \ingroup uniference-tests
 *
 * Ethernet device, switch and switched star suite.
 */
class EthernetSwitchTestSuite : public TestSuite
{
  public:
    EthernetSwitchTestSuite()
        : TestSuite("uniference-ethernet-switch")
    {
        AddTestCase(new EthernetHeaderSizeTestCase);
        AddTestCase(new EthernetFrameTimingTestCase);
        AddTestCase(new EthernetSwitchTableTestCase);
        AddTestCase(new EthernetSwitchLearningTestCase);
        AddTestCase(new EthernetSwitchDropTestCase);
        AddTestCase(new SwitchedStarConfigurationTestCase);
        AddTestCase(new SwitchedStarMessageTimingTestCase("ns3::TcpNewReno", 1 << 20, 0.001));
        AddTestCase(new SwitchedStarMessageTimingTestCase("ns3::TcpCubic", 1 << 20, 0.001));
        AddTestCase(new SwitchedStarMessageTimingTestCase("ns3::TcpCubic", 64 << 10, 0.001));
        AddTestCase(new SwitchedStarThroughputTestCase);
    }
};

/// Registers the suite.
static EthernetSwitchTestSuite g_ethernetSwitchTestSuite;
