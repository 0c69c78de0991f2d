/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// StarNetworkHelper: what it builds and configures, and one message across the hub against the
// time the two links allow, computed here from their rate, delay and the header sizes.

#include "tcp-path-model.h"

#include "ns3/data-rate.h"
#include "ns3/ipv4.h"
#include "ns3/message-transport.h"
#include "ns3/node.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/simulator.h"
#include "ns3/star-network-helper.h"
#include "ns3/tcp-cubic.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <iostream>
#include <set>
#include <sstream>
#include <string>

using namespace ns3;
using namespace ns3::tests;

/**
 * \ingroup uniference-tests
 *
 * The helper builds n endpoints around a hub with the requested links, TCP variant and
 * transport attributes.
 */
class StarConfigurationTestCase : public TestCase
{
  public:
    StarConfigurationTestCase()
        : TestCase("the star has the requested endpoints, links, TCP variant and transports")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 5;
        StarNetworkHelper star;
        star.SetLinkAttribute("DataRate", DataRateValue(DataRate("2Gbps")));
        star.SetLinkAttribute("Delay", TimeValue(MicroSeconds(7)));
        star.SetTcpVariant(TcpCubic::GetTypeId());
        star.SetTransportAttribute("Port", UintegerValue(9100));
        NodeContainer endpoints = star.Install(n);

        NS_TEST_ASSERT_MSG_EQ(endpoints.GetN(), n, "endpoints returned");
        NS_TEST_ASSERT_MSG_EQ(star.GetN(), n, "endpoints kept");
        NS_TEST_EXPECT_MSG_EQ(star.GetHub()->GetNDevices(), n + 1, "one link per endpoint");
        std::set<uint32_t> addresses;
        for (uint32_t i = 0; i < n; ++i)
        {
            Ptr<Node> node = star.GetEndpoint(i);
            NS_TEST_EXPECT_MSG_NE(node, star.GetHub(), "endpoint " << i << " is not the hub");
            addresses.insert(star.GetEndpointAddress(i).Get());
            NS_TEST_EXPECT_MSG_EQ(star.GetTransport(i)->GetEndpointId(), i, "endpoint id");
            NS_TEST_EXPECT_MSG_EQ(star.GetTransport(i)->GetNode(), node, "transport's node");
            UintegerValue port;
            star.GetTransport(i)->GetAttribute("Port", port);
            NS_TEST_EXPECT_MSG_EQ(port.Get(), 9100, "transport attribute");
            TypeIdValue socketType;
            node->GetObject<TcpL4Protocol>()->GetAttribute("SocketType", socketType);
            NS_TEST_EXPECT_MSG_EQ(socketType.Get(), TcpCubic::GetTypeId(), "TCP variant");
            // The link was installed before the internet stack added the loopback device.
            Ptr<PointToPointNetDevice> device =
                DynamicCast<PointToPointNetDevice>(node->GetDevice(0));
            NS_TEST_ASSERT_MSG_EQ(bool(device), true, "a point-to-point device");
            DataRateValue rate;
            device->GetAttribute("DataRate", rate);
            NS_TEST_EXPECT_MSG_EQ(rate.Get(), DataRate("2Gbps"), "device attribute");
            TimeValue delay;
            device->GetChannel()->GetAttribute("Delay", delay);
            NS_TEST_EXPECT_MSG_EQ(delay.Get(), MicroSeconds(7), "channel attribute");
        }
        NS_TEST_EXPECT_MSG_EQ(addresses.size(), n, "distinct addresses");
        NS_TEST_EXPECT_MSG_EQ(star.GetTransports().size(), n, "all transports");
        Simulator::Destroy();
    }
};

/**
 * \ingroup uniference-tests
 *
 * One message between two endpoints crosses both links as the wire allows: handshake across
 * the hub, the segments back to back on the first link, and the last one stored and forwarded
 * by the hub.
 */
class StarMessageTimingTestCase : public TestCase
{
  public:
    /// \param tcpVariant the TCP congestion control to use
    StarMessageTimingTestCase(std::string tcpVariant)
        : TestCase("one 1 MiB message across the hub with " + tcpVariant +
                   " arrives within 2% of the wire time"),
          m_tcpVariant(tcpVariant)
    {
    }

  private:
    void DoRun() override
    {
        const DataRate rate("1Gbps");
        const Time delay = MicroSeconds(15);
        const uint32_t mss = 1448;
        const uint64_t bytes = 1 << 20;
        StarNetworkHelper star;
        star.SetDeviceAttribute("DataRate", DataRateValue(rate));
        star.SetChannelAttribute("Delay", TimeValue(delay));
        star.SetTcpVariant(TypeId::LookupByName(m_tcpVariant));
        star.SetTransportAttribute("SegmentSize", UintegerValue(mss));
        star.Install(3);
        Time deliveredAt;
        star.GetTransport(2)->Listen(
            1,
            MessageTransport::ReceiveCallback([&](uint32_t source, uint64_t cookie, uint64_t size) {
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

        const double d = delay.GetSeconds();
        const double handshake = Handshake(rate, delay, 2);
        // The stream: the connection's hello frame, the message's header, its payload.
        const uint64_t stream = MESSAGE_HEADER + MESSAGE_HEADER + bytes;
        const uint64_t segments = (stream + mss - 1) / mss;
        const double lastFrame = Wire(rate, stream - (segments - 1) * mss + FRAME_OVERHEAD);
        // The segments back to back on the first link; the hub forwards the last one once it
        // has it all.
        const double expected =
            handshake + (segments - 1) * Wire(rate, DataFrame(mss)) + lastFrame + d + lastFrame + d;
        const double measured = (deliveredAt - sentAt).GetSeconds();
        std::ostringstream note;
        note << "two hops, " << m_tcpVariant << ": measured " << measured * 1e3 << " ms, computed "
             << expected * 1e3 << " ms";
        NS_TEST_EXPECT_MSG_EQ_TOL(measured, expected, 0.02 * expected, note.str());
        std::clog << "  " << note.str() << " (error " << 100 * (measured - expected) / expected
                  << "%)" << std::endl;
    }

    std::string m_tcpVariant; //!< Congestion control
};

/**
 * \ingroup uniference-tests
 *
 * StarNetworkHelper suite.
 */
class StarNetworkHelperTestSuite : public TestSuite
{
  public:
    StarNetworkHelperTestSuite()
        : TestSuite("uniference-star-network-helper")
    {
        AddTestCase(new StarConfigurationTestCase);
        AddTestCase(new StarMessageTimingTestCase("ns3::TcpNewReno"));
        AddTestCase(new StarMessageTimingTestCase("ns3::TcpCubic"));
    }
};

/// Registers the suite.
static StarNetworkHelperTestSuite g_starNetworkHelperTestSuite;
