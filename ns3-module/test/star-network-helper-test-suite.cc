/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// StarNetworkHelper: what it builds and configures, and one message across the hub against the
// time the two links allow, computed here from their rate, delay and the header sizes.

#include "tcp-path-model.h"

#include "ns3/channel.h"
#include "ns3/data-rate.h"
#include "ns3/ipv4.h"
#include "ns3/message-transport.h"
#include "ns3/node.h"
#include "ns3/object-vector.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/star-network-helper.h"
#include "ns3/tcp-cubic.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket-base.h"
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
        star.SetTcpVariant(TcpVegas::GetTypeId()); // not ns-3's default
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
            NS_TEST_EXPECT_MSG_EQ(socketType.Get(), TcpVegas::GetTypeId(), "TCP variant");
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
 * What the helper was asked for is what the built network has: the MTU at both ends of every
 * link, and the segment size, buffer sizes and congestion control of every TCP socket the
 * transports open or accept, read back from the sockets once connected; and segments of that
 * size on the wire.
 */
class StarReadBackTestCase : public TestCase
{
  public:
    StarReadBackTestCase()
        : TestCase("MTU, segment size, buffers and TCP variant reach the devices and sockets")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 3;
        const uint16_t mtu = 9000;
        const uint32_t mss = mtu - IPV4_HEADER - TCP_DATA_HEADER;
        const uint32_t sndBuf = 262144;
        const uint32_t rcvBuf = 196608;
        const DataRate rate("5Gbps");
        const Time delay = MicroSeconds(3);
        StarNetworkHelper star;
        star.SetLinkAttribute("DataRate", DataRateValue(rate));
        star.SetLinkAttribute("Delay", TimeValue(delay));
        star.SetLinkAttribute("Mtu", UintegerValue(mtu));
        // Not ns-3's default (TcpCubic in 3.37), so that a variant left unset shows.
        star.SetTcpVariant(TcpVegas::GetTypeId());
        star.SetTransportAttribute("SegmentSize", UintegerValue(mss));
        star.SetTransportAttribute("SndBufSize", UintegerValue(sndBuf));
        star.SetTransportAttribute("RcvBufSize", UintegerValue(rcvBuf));
        star.Install(n);

        // Both ends of every link: the endpoint's device and the hub's.
        for (uint32_t i = 0; i < n; ++i)
        {
            Ptr<Channel> channel = star.GetEndpoint(i)->GetDevice(0)->GetChannel();
            NS_TEST_ASSERT_MSG_EQ(channel->GetNDevices(), 2, "a point-to-point link");
            TimeValue channelDelay;
            channel->GetAttribute("Delay", channelDelay);
            NS_TEST_EXPECT_MSG_EQ(channelDelay.Get(), delay, "delay of link " << i);
            std::set<Ptr<Node>> ends;
            for (uint32_t end = 0; end < 2; ++end)
            {
                Ptr<NetDevice> device = channel->GetDevice(end);
                ends.insert(device->GetNode());
                NS_TEST_EXPECT_MSG_EQ(device->GetMtu(), mtu, "MTU of link " << i);
                DataRateValue deviceRate;
                device->GetAttribute("DataRate", deviceRate);
                NS_TEST_EXPECT_MSG_EQ(deviceRate.Get(), rate, "rate of link " << i);
            }
            NS_TEST_EXPECT_MSG_EQ(ends.count(star.GetHub()), 1, "link " << i << " at the hub");
            NS_TEST_EXPECT_MSG_EQ(ends.count(star.GetEndpoint(i)), 1, "link " << i << " end");
        }

        // Every endpoint sends to every other, so that each has outgoing and accepted sockets.
        const uint64_t bytes = 100000;
        uint32_t largestFrame = 0;
        star.GetEndpoint(0)->GetDevice(0)->TraceConnectWithoutContext(
            "PhyTxBegin",
            Callback<void, Ptr<const Packet>>([&largestFrame](Ptr<const Packet> frame) {
                largestFrame = std::max(largestFrame, frame->GetSize());
            }));
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
                    star.GetTransport(i)->Send(j, 1, 0, bytes);
                }
            }
        }
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(delivered, n * (n - 1), "every message arrived");
        NS_TEST_EXPECT_MSG_EQ(largestFrame, mss + FRAME_OVERHEAD, "full segments on the wire");

        for (uint32_t i = 0; i < n; ++i)
        {
            ObjectVectorValue sockets;
            star.GetEndpoint(i)->GetObject<TcpL4Protocol>()->GetAttribute("SocketList", sockets);
            // The listening socket, one per peer it sends to, one per peer it accepted.
            NS_TEST_EXPECT_MSG_EQ(sockets.GetN(), 1 + 2 * (n - 1), "sockets of endpoint " << i);
            for (auto it = sockets.Begin(); it != sockets.End(); ++it)
            {
                Ptr<TcpSocketBase> socket = DynamicCast<TcpSocketBase>(it->second);
                NS_TEST_ASSERT_MSG_EQ(bool(socket), true, "a TCP socket");
                UintegerValue value;
                socket->GetAttribute("SegmentSize", value);
                NS_TEST_EXPECT_MSG_EQ(value.Get(), mss, "segment size at endpoint " << i);
                socket->GetAttribute("SndBufSize", value);
                NS_TEST_EXPECT_MSG_EQ(value.Get(), sndBuf, "send buffer at endpoint " << i);
                socket->GetAttribute("RcvBufSize", value);
                NS_TEST_EXPECT_MSG_EQ(value.Get(), rcvBuf, "receive buffer at endpoint " << i);
                PointerValue congestionOps;
                socket->GetAttribute("CongestionOps", congestionOps);
                NS_TEST_EXPECT_MSG_EQ(congestionOps.Get<TcpCongestionOps>()->GetInstanceTypeId(),
                                      TcpVegas::GetTypeId(),
                                      "congestion control at endpoint " << i);
            }
        }
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
    /**
     * \param tcpVariant the TCP congestion control to use
     * \param bytes the message's payload size
     * \param tolerance the error allowed, relative to the computed time
     */
    StarMessageTimingTestCase(std::string tcpVariant, uint64_t bytes, double tolerance)
        : TestCase("one message of " + std::to_string(bytes) + " bytes across the hub with " +
                   tcpVariant + " arrives within " + Percent(tolerance) + " of the wire time"),
          m_tcpVariant(tcpVariant),
          m_bytes(bytes),
          m_tolerance(tolerance)
    {
    }

  private:
    void DoRun() override
    {
        const DataRate rate("1Gbps");
        const Time delay = MicroSeconds(15);
        const uint32_t mss = 1448;
        const uint64_t bytes = m_bytes;
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

        // The stream: the connection's hello frame, the message's header, its payload, back
        // to back on the first link once the handshake is done, stored and forwarded by the hub.
        const uint64_t stream = MESSAGE_HEADER + MESSAGE_HEADER + bytes;
        const double expected =
            Handshake(rate, delay, 2) + StreamArrival(rate, delay, stream, mss, 2);
        const double measured = (deliveredAt - sentAt).GetSeconds();
        std::ostringstream note;
        note << "two hops, " << m_tcpVariant << ": measured " << measured * 1e3 << " ms, computed "
             << expected * 1e3 << " ms";
        NS_TEST_EXPECT_MSG_EQ_TOL(measured, expected, m_tolerance * expected, note.str());
        std::clog << "  " << note.str() << " (error " << 100 * (measured - expected) / expected
                  << "%)" << std::endl;
    }

    std::string m_tcpVariant; //!< Congestion control
    uint64_t m_bytes;         //!< Payload size
    double m_tolerance;       //!< Relative error allowed
};

/**
 * \ingroup uniference-tests
 *
 * Across the hub, the first message to a peer pays for opening the connection (SYN and
 * SYN-ACK over both links, the handshake's last ACK, the hello frame); a second one, on the
 * open connection, its frame stored and forwarded by the hub and two propagations.
 */
class StarHandshakeTestCase : public TestCase
{
  public:
    StarHandshakeTestCase()
        : TestCase("across the hub, the first message pays the handshake, the next one not")
    {
    }

  private:
    void DoRun() override
    {
        const DataRate rate("1Gbps");
        const Time delay = MicroSeconds(15);
        const uint32_t mss = 1448;
        const uint64_t bytes = 100;
        StarNetworkHelper star;
        star.SetLinkAttribute("DataRate", DataRateValue(rate));
        star.SetLinkAttribute("Delay", TimeValue(delay));
        star.SetTransportAttribute("SegmentSize", UintegerValue(mss));
        star.Install(3);
        std::vector<Time> deliveredAt;
        star.GetTransport(1)->Listen(
            3,
            MessageTransport::ReceiveCallback(
                [&](uint32_t, uint64_t, uint64_t) { deliveredAt.push_back(Simulator::Now()); }));
        const Time firstAt = MilliSeconds(1);
        const Time secondAt = MilliSeconds(2);
        for (Time at : {firstAt, secondAt})
        {
            Simulator::Schedule(at,
                                &MessageTransport::Send,
                                star.GetTransport(2),
                                1,
                                3,
                                0,
                                bytes,
                                MakeNullCallback<void>());
        }
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(deliveredAt.size(), 2, "both messages arrive");

        const double first = Handshake(rate, delay, 2) +
                             StreamArrival(rate, delay, 2 * MESSAGE_HEADER + bytes, mss, 2);
        const double second = StreamArrival(rate, delay, MESSAGE_HEADER + bytes, mss, 2);
        const double measuredFirst = (deliveredAt[0] - firstAt).GetSeconds();
        const double measuredSecond = (deliveredAt[1] - secondAt).GetSeconds();
        std::ostringstream note;
        note << "first " << measuredFirst * 1e6 << " us (computed " << first * 1e6 << "), second "
             << measuredSecond * 1e6 << " us (computed " << second * 1e6 << ")";
        // The handshake is two thirds of the first message's time, one link's delay a sixth;
        // 0.1% is 100 ns.
        NS_TEST_EXPECT_MSG_EQ_TOL(measuredFirst, first, 0.001 * first, note.str());
        NS_TEST_EXPECT_MSG_EQ_TOL(measuredSecond, second, 0.001 * second, note.str());
        std::clog << "  two hops handshake: " << note.str() << std::endl;
    }
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
        AddTestCase(new StarReadBackTestCase);
        AddTestCase(new StarMessageTimingTestCase("ns3::TcpNewReno", 1 << 20, 0.001));
        AddTestCase(new StarMessageTimingTestCase("ns3::TcpCubic", 1 << 20, 0.001));
        // Handshake and propagation are 14% of these, one link's delay 2.3%.
        AddTestCase(new StarMessageTimingTestCase("ns3::TcpNewReno", 64 << 10, 0.001));
        AddTestCase(new StarMessageTimingTestCase("ns3::TcpCubic", 64 << 10, 0.001));
        AddTestCase(new StarHandshakeTestCase);
    }
};

/// Registers the suite.
static StarNetworkHelperTestSuite g_starNetworkHelperTestSuite;
