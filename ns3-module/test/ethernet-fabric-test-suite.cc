/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// EthernetFabricHelper: TCP over switched Ethernet fabrics with ECMP by flow hash. The times
// are Ethernet framing's wire times (tcp-path-model.h), the path choices counted frame by frame
// at the switches.

#include "tcp-path-model.h"

#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/ethernet-fabric-helper.h"
#include "ns3/ethernet-header.h"
#include "ns3/ethernet-switch.h"
#include "ns3/ipv4-header.h"
#include "ns3/message-transport.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tcp-header.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::tests;

namespace
{

/// Every link of the fabrics below.
const DataRate RATE("10Gbps");
/// Every cable's delay.
const Time DELAY = MicroSeconds(1);

/// The IPv4 source of a frame carrying a TCP segment with payload, or 0.
uint32_t
DataSource(Ptr<const Packet> frame)
{
    uint8_t bytes[EthernetNetDevice::HEADER_BYTES + 20];
    if (frame->GetSize() < 200 || frame->CopyData(bytes, sizeof(bytes)) < sizeof(bytes) ||
        bytes[12] != 0x08 || bytes[13] != 0x00)
    {
        return 0; // an ACK, or not IPv4
    }
    const uint8_t* source = bytes + EthernetNetDevice::HEADER_BYTES + 12;
    return uint32_t(source[0]) << 24 | uint32_t(source[1]) << 16 | uint32_t(source[2]) << 8 |
           source[3];
}

/**
 * Per switch of a fabric, the senders whose data frames it received: which path each flow
 * took.
 */
struct PathCounter
{
    std::vector<std::set<uint32_t>> sendersAt; //!< By switch index

    /// Count at every port of every switch.
    explicit PathCounter(const EthernetFabricHelper& fabric)
        : sendersAt(fabric.GetNSwitches())
    {
        for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
        {
            Ptr<EthernetSwitch> sw = fabric.GetSwitch(s);
            for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
            {
                sw->GetPort(p)->TraceConnectWithoutContext(
                    "PhyRxEnd",
                    Callback<void, Ptr<const Packet>>([this, s](Ptr<const Packet> frame) {
                        if (uint32_t source = DataSource(frame))
                        {
                            sendersAt[s].insert(source);
                        }
                    }));
            }
        }
    }
};

/// Sends bytes from each sender to its receiver at once, runs, and returns each delivery time.
std::vector<Time>
RunFlows(EthernetFabricHelper& fabric,
         const std::vector<std::pair<uint32_t, uint32_t>>& flows,
         uint64_t bytes)
{
    std::vector<Time> delivered(flows.size(), Seconds(-1));
    std::set<uint32_t> receivers;
    for (const auto& flow : flows)
    {
        receivers.insert(flow.second);
    }
    for (uint32_t receiver : receivers)
    {
        fabric.GetTransport(receiver)->Listen(
            1,
            MessageTransport::ReceiveCallback([&delivered, bytes](uint32_t, uint64_t cookie, uint64_t size) {
                delivered[cookie] = size == bytes ? Simulator::Now() : Seconds(-2);
            }));
    }
    for (uint32_t f = 0; f < flows.size(); ++f)
    {
        fabric.GetTransport(flows[f].first)->Send(flows[f].second, 1, f, bytes);
    }
    Simulator::Run();
    return delivered;
}

/// A fabric with the links above, Cubic, and 1448-byte segments.
void
Configure(EthernetFabricHelper& fabric)
{
    fabric.SetDeviceAttribute("DataRate", DataRateValue(RATE));
    fabric.SetChannelAttribute("Delay", TimeValue(DELAY));
    fabric.SetTcpVariant(TypeId::LookupByName("ns3::TcpCubic"));
    fabric.SetTransportAttribute("SegmentSize", UintegerValue(1448));
}

} // namespace

/**
 * \ingroup uniference-tests
 *
 * One message within a leaf (2 links) and one across the spine (4 links), each within 0.1% of
 * the wire time of its TCP handshake and stream, framed in Ethernet and stored and forwarded
 * whole at every switch.
 */
class EthernetFabricTimingTestCase : public TestCase
{
  public:
    EthernetFabricTimingTestCase()
        : TestCase("a message on a leaf-spine takes the Ethernet wire time of its 2 or 4 links")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 1 << 20;
        const uint32_t mss = 1448;
        // The model sends segments back to back. Across four links a round trip (about 17 us)
        // outlasts ns-3's initial window of 10 segments (12 us at 10 Gbit/s), and slow start
        // would idle the sender's link for about a frame; a window of 100 keeps it busy.
        Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(100));
        for (const auto& [destination, hops] : {std::pair(1u, 2u), std::pair(2u, 4u)})
        {
            EthernetFabricHelper fabric;
            Configure(fabric);
            fabric.LeafSpine(2, 2, 2);
            fabric.Install();
            const Time sent = Simulator::Now();
            const std::vector<Time> delivered = RunFlows(fabric, {{0, destination}}, bytes);
            const double measured = (delivered[0] - sent).GetSeconds();
            const double expected =
                FramedHandshake(RATE, DELAY, hops, ETHERNET) +
                FramedStreamArrival(RATE, DELAY, 2 * MESSAGE_HEADER + bytes, mss, hops, ETHERNET);
            std::ostringstream note;
            note << hops << " links: " << measured * 1e6 << " us, computed " << expected * 1e6;
            NS_TEST_EXPECT_MSG_EQ_TOL(measured, expected, 0.001 * expected, note.str());
            Simulator::Destroy();
        }
        Config::Reset();
    }
};

/**
 * \ingroup uniference-tests
 *
 * Eight flows from leaf 0 to leaf 1 over four spines: every flow crosses exactly one spine
 * (its packets are never split, so they arrive in order), and the flows spread over more
 * than one spine. On a k = 4 fat-tree, 48 flows out of pod 0 cross all four cores: with the
 * same hash on every switch, the aggregation switch an edge switch picks would decide the
 * core too (index for index), and only two cores would ever carry traffic.
 */
class EthernetFabricEcmpTestCase : public TestCase
{
  public:
    EthernetFabricEcmpTestCase()
        : TestCase("ECMP keeps each TCP flow on one path, spreads flows, and does not polarise")
    {
    }

  private:
    void DoRun() override
    {
        {
            EthernetFabricHelper fabric;
            Configure(fabric);
            fabric.LeafSpine(2, 4, 8); // spines are switches 0..3, leaves 4 and 5
            fabric.Install();
            PathCounter paths(fabric);
            std::vector<std::pair<uint32_t, uint32_t>> flows;
            for (uint32_t i = 0; i < 8; ++i)
            {
                flows.emplace_back(i, 8 + i);
            }
            const std::vector<Time> delivered = RunFlows(fabric, flows, 256 << 10);
            std::map<uint32_t, uint32_t> spinesOf;
            uint32_t spinesUsed = 0;
            for (uint32_t s = 0; s < 4; ++s)
            {
                spinesUsed += paths.sendersAt[s].empty() ? 0 : 1;
                for (uint32_t sender : paths.sendersAt[s])
                {
                    ++spinesOf[sender];
                }
            }
            for (uint32_t f = 0; f < flows.size(); ++f)
            {
                NS_TEST_EXPECT_MSG_GT(delivered[f], Seconds(0), "flow " << f << " delivered whole");
                const uint32_t sender = fabric.GetEndpointAddress(flows[f].first).Get();
                NS_TEST_EXPECT_MSG_EQ(spinesOf[sender], 1u, "flow " << f << " crosses one spine");
            }
            NS_TEST_EXPECT_MSG_GT(spinesUsed, 1u, "8 flows over 4 spines use more than one");
            Simulator::Destroy();
        }
        {
            EthernetFabricHelper fabric;
            Configure(fabric);
            fabric.FatTree(4); // cores are switches 0..3; endpoints 0..3 are pod 0's
            fabric.Install();
            PathCounter paths(fabric);
            std::vector<std::pair<uint32_t, uint32_t>> flows;
            for (uint32_t i = 0; i < 4; ++i)
            {
                for (uint32_t j = 4; j < 16; ++j)
                {
                    flows.emplace_back(i, j);
                }
            }
            const std::vector<Time> delivered = RunFlows(fabric, flows, 16 << 10);
            for (uint32_t f = 0; f < flows.size(); ++f)
            {
                NS_TEST_EXPECT_MSG_GT(delivered[f], Seconds(0), "flow " << f << " delivered whole");
            }
            for (uint32_t core = 0; core < 4; ++core)
            {
                NS_TEST_EXPECT_MSG_GT(paths.sendersAt[core].size(),
                                      0u,
                                      "core " << core << " carries flows out of pod 0");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup uniference-tests
 *
 * The flow hash reads what identifies a TCP flow and only that: the same flow hashes alike
 * whatever its payload, another source port or address changes the hash, and two switches of
 * different seeds hash one flow differently.
 */
class EthernetFlowHashTestCase : public TestCase
{
  public:
    EthernetFlowHashTestCase()
        : TestCase("the switch's flow hash: IPv4 addresses, protocol and TCP ports, salted")
    {
    }

  private:
    /// A frame of a TCP segment with payload bytes.
    static Ptr<Packet> Frame(uint32_t source, uint16_t sourcePort, uint32_t payload)
    {
        Ptr<Packet> p = Create<Packet>(payload);
        TcpHeader tcp;
        tcp.SetSourcePort(sourcePort);
        tcp.SetDestinationPort(5000);
        p->AddHeader(tcp);
        Ipv4Header ip;
        ip.SetSource(Ipv4Address(source));
        ip.SetDestination(Ipv4Address("10.2.0.9"));
        ip.SetProtocol(6);
        ip.SetPayloadSize(p->GetSize());
        p->AddHeader(ip);
        EthernetHeader ethernet(false);
        ethernet.SetLengthType(0x0800);
        p->AddHeader(ethernet);
        return p;
    }

    void DoRun() override
    {
        Ptr<EthernetSwitch> a = CreateObject<EthernetSwitch>();
        Ptr<EthernetSwitch> b = CreateObject<EthernetSwitch>();
        b->SetAttribute("HashSeed", UintegerValue(1));
        const uint32_t host = Ipv4Address("10.2.0.1").Get();
        const uint32_t flow = a->FlowHash(Frame(host, 49153, 100));
        NS_TEST_EXPECT_MSG_EQ(a->FlowHash(Frame(host, 49153, 1400)), flow, "payload ignored");
        NS_TEST_EXPECT_MSG_NE(a->FlowHash(Frame(host, 49154, 100)), flow, "source port");
        NS_TEST_EXPECT_MSG_NE(a->FlowHash(Frame(host + 1, 49153, 100)), flow, "source address");
        NS_TEST_EXPECT_MSG_NE(b->FlowHash(Frame(host, 49153, 100)), flow, "seed");
        // Over many flows, two seeds choose between two ports independently: about half the
        // flows agree, where polarised hashing would agree on all of them.
        uint32_t agree = 0;
        const uint32_t flows = 1000;
        for (uint32_t port = 0; port < flows; ++port)
        {
            Ptr<Packet> frame = Frame(host, 40000 + port, 100);
            agree += a->FlowHash(frame) % 2 == b->FlowHash(frame) % 2 ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(agree, flows / 2, flows / 10, "choices of two seeds agree");
    }
};

/**
 * \ingroup uniference-tests
 *
 * Two 4 MiB messages from two endpoints of leaf 0 to two of leaf 1, with one spine: both cross
 * leaf 0's one uplink, so the later finishes when both streams have crossed it, within 5% of
 * twice one stream's wire time (full frames back to back).
 */
class EthernetFabricSharedUplinkTestCase : public TestCase
{
  public:
    EthernetFabricSharedUplinkTestCase()
        : TestCase("two flows through one uplink take twice one flow's wire time")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 4 << 20;
        const uint32_t mss = 1448;
        EthernetFabricHelper fabric;
        Configure(fabric);
        fabric.SetSwitchAttribute("PortQueueSize", QueueSizeValue(QueueSize("1000p")));
        fabric.LeafSpine(2, 1, 2);
        fabric.Install();
        const std::vector<Time> delivered = RunFlows(fabric, {{0, 2}, {1, 3}}, bytes);
        const double last = std::max(delivered[0], delivered[1]).GetSeconds();
        const uint64_t segments = (2 * MESSAGE_HEADER + bytes + mss - 1) / mss;
        const double expected = FramedHandshake(RATE, DELAY, 4, ETHERNET) +
                                2 * segments * Busy(RATE, ETHERNET, mss + TCP_DATA_HEADER + IPV4_HEADER);
        std::ostringstream note;
        note << "the later of two: " << last * 1e6 << " us, computed " << expected * 1e6;
        NS_TEST_EXPECT_MSG_GT(delivered[0], Seconds(0), "first delivered");
        NS_TEST_EXPECT_MSG_GT(delivered[1], Seconds(0), "second delivered");
        NS_TEST_EXPECT_MSG_EQ_TOL(last, expected, 0.05 * expected, note.str());
        Simulator::Destroy();
    }
};

/**
 * \ingroup uniference-tests
 *
 * TCP over switched Ethernet fabrics with ECMP.
 */
class EthernetFabricTestSuite : public TestSuite
{
  public:
    EthernetFabricTestSuite()
        : TestSuite("uniference-ethernet-fabric")
    {
        AddTestCase(new EthernetFlowHashTestCase);
        AddTestCase(new EthernetFabricTimingTestCase);
        AddTestCase(new EthernetFabricEcmpTestCase);
        AddTestCase(new EthernetFabricSharedUplinkTestCase);
    }
};

/// Registers the suite.
static EthernetFabricTestSuite g_ethernetFabricTestSuite;
