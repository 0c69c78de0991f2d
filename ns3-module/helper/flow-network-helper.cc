/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-network-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/channel.h"
#include "ns3/data-rate.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/ib-channel.h"
#include "ns3/ib-switch.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/message-header.h"
#include "ns3/rdma-message-transport.h"
#include "ns3/tcp-message-transport.h"
#include "ns3/uinteger.h"

#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowNetworkHelper");

namespace
{

/// IPv4 20 + TCP 20 + timestamp option 12: what every TCP segment carries.
constexpr uint32_t TCP_IP_HEADERS = 52;
/// A SYN's IPv4 and TCP headers with its options (MSS, window scale, SACK, timestamps).
constexpr uint32_t SYN_BYTES = 60;
/// A pure acknowledgement's IPv4 and TCP headers with timestamps.
constexpr uint32_t ACK_BYTES = 52;
/// PPP's header on a point-to-point link.
constexpr uint32_t PPP_HEADER = 2;
/// Hops a route may take before it is taken for a loop.
constexpr int MAX_HOPS = 64;

/// The device's line rate (its DataRate attribute).
DataRate
RateOf(Ptr<NetDevice> device)
{
    DataRateValue rate;
    device->GetAttribute("DataRate", rate);
    return rate.Get();
}

/// The cable's delay (its channel's Delay attribute).
Time
DelayOf(Ptr<NetDevice> device)
{
    TimeValue delay;
    device->GetChannel()->GetAttribute("Delay", delay);
    return delay.Get();
}

/// Wire bytes a link adds to every IP packet: Ethernet's framing, or PPP's header.
uint32_t
FramingOf(Ptr<NetDevice> device)
{
    if (DynamicCast<EthernetNetDevice>(device))
    {
        UintegerValue preamble;
        UintegerValue fcs;
        UintegerValue gap;
        device->GetAttribute("PreambleSize", preamble);
        device->GetAttribute("FcsSize", fcs);
        device->GetAttribute("InterframeGap", gap);
        return static_cast<uint32_t>(preamble.Get() + fcs.Get() + gap.Get()) +
               EthernetNetDevice::HEADER_BYTES;
    }
    return PPP_HEADER;
}

/// ns-3's TcpSocket InitialCwnd default (segments), as the sockets will get it.
uint32_t
InitialCwnd()
{
    TypeId::AttributeInformation info;
    NS_ABORT_UNLESS(TypeId::LookupByName("ns3::TcpSocket").LookupAttributeByName("InitialCwnd", &info));
    UintegerValue value;
    value.DeserializeFromString(info.initialValue->SerializeToString(info.checker), info.checker);
    return static_cast<uint32_t>(value.Get());
}

/// The node's one cable: its first device on a channel of two.
Ptr<NetDevice>
UplinkOf(Ptr<Node> node, uint32_t endpoint)
{
    for (uint32_t i = 0; i < node->GetNDevices(); ++i)
    {
        Ptr<NetDevice> device = node->GetDevice(i);
        Ptr<Channel> channel = device->GetChannel();
        if (channel && channel->GetNDevices() == 2)
        {
            return device;
        }
    }
    NS_FATAL_ERROR("FlowNetworkHelper: endpoint " << endpoint << " has no cable");
}

/// The device at the other end of a device's cable.
Ptr<NetDevice>
OtherEnd(Ptr<NetDevice> device)
{
    Ptr<Channel> channel = device->GetChannel();
    return channel->GetDevice(0) == device ? channel->GetDevice(1) : channel->GetDevice(0);
}

} // namespace

struct FlowNetworkHelper::State
{
    Ptr<FlowNetwork> network;
    std::vector<Ptr<MessageTransport>> packet;
    std::vector<Ptr<FlowMessageTransport>> flow;
    std::unordered_map<const NetDevice*, uint32_t> links; //!< Transmitter to link id
    uint32_t ackBytes{0};                                   //!< RDMA: an acknowledgement's wire bytes

    uint32_t LinkOf(Ptr<NetDevice> device, DataRate rate)
    {
        auto it = links.find(PeekPointer(device));
        if (it != links.end())
        {
            return it->second;
        }
        const uint32_t id = network->AddLink(rate, device);
        links.emplace(PeekPointer(device), id);
        return id;
    }

    FlowRoute Resolve(uint32_t src, uint32_t dst)
    {
        NS_ABORT_MSG_IF(dst >= flow.size(),
                        "FlowNetworkHelper: endpoint " << src << " sends to endpoint " << dst
                                                       << ", which has no transport");
        FlowRoute route = DynamicCast<RdmaMessageTransport>(packet[src]) ? ResolveIb(src, dst)
                                                                       : ResolveStar(src, dst);
        route.peer = flow[dst];
        return route;
    }

    /// The path a queue pair's packets take: the endpoint's route, then every switch's ECMP
    /// choice for its flow hash.
    FlowRoute ResolveIb(uint32_t src, uint32_t dst)
    {
        Ptr<RdmaMessageTransport> sender = DynamicCast<RdmaMessageTransport>(packet[src]);
        const uint32_t hash = RdmaMessageTransport::FlowHash(src, dst);
        Ptr<IbNetDevice> device = sender->GetPort(sender->RouteTo(dst));
        FlowRoute route;
        std::vector<uint32_t> path;
        Time back; // the acknowledgement's way back: propagation, switching, its serialisation
        route.bottleneck = 0;
        for (int hop = 0;; ++hop)
        {
            NS_ABORT_MSG_IF(hop == MAX_HOPS,
                            "FlowNetworkHelper: no way from endpoint " << src << " to " << dst);
            const DataRate rate = device->GetDataRate();
            path.push_back(LinkOf(device, rate));
            const double bytesPerSecond = static_cast<double>(rate.GetBitRate()) / 8.0;
            route.bottleneck = hop == 0 ? bytesPerSecond : std::min(route.bottleneck, bytesPerSecond);
            const Time delay = device->GetIbChannel()->GetDelay();
            route.propagation += delay;
            back += delay + rate.CalculateBytesTxTime(ackBytes);
            Ptr<IbNetDevice> peer = device->GetIbChannel()->GetPeer(device);
            auto* sw = dynamic_cast<IbSwitch*>(peer->GetOwner());
            if (!sw)
            {
                auto* receiver = dynamic_cast<RdmaMessageTransport*>(peer->GetOwner());
                NS_ABORT_MSG_UNLESS(receiver && receiver->GetEndpointId() == dst,
                                    "FlowNetworkHelper: the route from endpoint "
                                        << src << " to " << dst << " ends elsewhere");
                break;
            }
            NS_ABORT_MSG_IF(sw->GetRouting() == IbSwitch::ADAPTIVE,
                            "FlowNetworkHelper: adaptive routing spreads one queue pair over "
                            "several paths; the flow level follows ECMP only");
            route.propagation += sw->GetForwardingLatency();
            back += sw->GetForwardingLatency();
            Ptr<IbNetDevice> next = sw->GetPort(sw->SelectEcmpPort(hash, dst));
            (peer->IsCutThrough() ? route.cutThrough : route.storeAndForward)
                .push_back(next->GetDataRate());
            device = next;
        }
        route.stream = network->AddStream(path);
        route.ackLatency = back;
        // RDMA opens no connection and has no slow start.
        route.handshake = Time(0);
        route.roundTrip = route.propagation + back;
        return route;
    }

    /// Through the hub of a star: the sender's cable up, the receiver's cable down.
    FlowRoute ResolveStar(uint32_t src, uint32_t dst)
    {
        Ptr<NetDevice> up = UplinkOf(packet[src]->GetNode(), src);
        Ptr<NetDevice> down = OtherEnd(UplinkOf(packet[dst]->GetNode(), dst));
        NS_ABORT_MSG_UNLESS(OtherEnd(up)->GetNode() == down->GetNode(),
                            "FlowNetworkHelper: endpoints " << src << " and " << dst
                                                            << " hang off different hubs; the "
                                                               "flow level takes TCP stars only");
        FlowRoute route;
        const DataRate upRate = RateOf(up);
        const DataRate downRate = RateOf(down);
        route.stream = network->AddStream({LinkOf(up, upRate), LinkOf(down, downRate)});
        route.propagation = DelayOf(up) + DelayOf(down);
        route.storeAndForward = {downRate};
        route.bottleneck =
            static_cast<double>(std::min(upRate.GetBitRate(), downRate.GetBitRate())) / 8.0;
        const uint32_t framing = FramingOf(up);
        UintegerValue segment;
        packet[src]->GetAttribute("SegmentSize", segment);
        const auto wire = [&](uint32_t ipBytes) {
            return upRate.CalculateBytesTxTime(ipBytes + framing) +
                   downRate.CalculateBytesTxTime(ipBytes + framing);
        };
        route.handshake = route.propagation * 2 + wire(SYN_BYTES) * 2;
        route.roundTrip =
            route.propagation * 2 + wire(static_cast<uint32_t>(segment.Get()) + TCP_IP_HEADERS) +
            wire(ACK_BYTES);
        route.ackLatency = route.propagation + wire(ACK_BYTES);
        return route;
    }
};

FlowNetworkHelper::FlowNetworkHelper() = default;

std::vector<Ptr<MessageTransport>>
FlowNetworkHelper::Install(const std::vector<Ptr<MessageTransport>>& packetTransports)
{
    m_state = std::make_shared<State>();
    State& state = *m_state;
    state.network = CreateObject<FlowNetwork>();
    state.packet = packetTransports;
    std::vector<Ptr<MessageTransport>> installed;
    for (uint32_t id = 0; id < packetTransports.size(); ++id)
    {
        Ptr<MessageTransport> packet = packetTransports[id];
        NS_ABORT_MSG_UNLESS(packet->GetEndpointId() == id,
                            "FlowNetworkHelper: transport " << id << " has endpoint id "
                                                            << packet->GetEndpointId());
        Ptr<FlowMessageTransport> flow = CreateObject<FlowMessageTransport>();
        flow->SetEndpointId(id);
        if (auto rdma = DynamicCast<RdmaMessageTransport>(packet))
        {
            Ptr<IbNetDevice> port = rdma->GetPort(0);
            UintegerValue ackBytes;
            rdma->GetAttribute("AckBytes", ackBytes);
            state.ackBytes = port->GetHeaderBytes() + static_cast<uint32_t>(ackBytes.Get());
            flow->SetAttribute("PacketPayload", UintegerValue(port->GetPayloadMtu()));
            flow->SetAttribute("PacketOverhead", UintegerValue(port->GetHeaderBytes()));
            flow->SetAttribute("HeaderBytes", UintegerValue(port->GetHeaderBytes()));
            flow->SetAttribute("Connection", BooleanValue(false));
        }
        else if (DynamicCast<TcpMessageTransport>(packet))
        {
            UintegerValue segment;
            UintegerValue sndBuf;
            packet->GetAttribute("SegmentSize", segment);
            packet->GetAttribute("SndBufSize", sndBuf);
            const uint32_t framing = FramingOf(UplinkOf(packet->GetNode(), id));
            flow->SetAttribute("PacketPayload", segment);
            flow->SetAttribute("PacketOverhead", UintegerValue(TCP_IP_HEADERS + framing));
            flow->SetAttribute("MessageOverhead", UintegerValue(MessageHeader::SERIALIZED_SIZE));
            flow->SetAttribute("Connection", BooleanValue(true));
            flow->SetAttribute("SendBuffer", sndBuf);
            flow->SetAttribute("InitialWindow", UintegerValue(InitialCwnd()));
        }
        else
        {
            NS_FATAL_ERROR("FlowNetworkHelper: transport " << id << " is a "
                                                           << packet->GetInstanceTypeId().GetName()
                                                           << ", which the flow level cannot take");
        }
        // The transports keep the state alive; disposing them lets it go.
        std::shared_ptr<State> shared = m_state;
        flow->Setup(state.network, [shared](uint32_t src, uint32_t dst) {
            return shared->Resolve(src, dst);
        });
        packet->GetNode()->AddApplication(flow);
        state.flow.push_back(flow);
        installed.push_back(flow);
    }
    return installed;
}

Ptr<FlowNetwork>
FlowNetworkHelper::GetNetwork() const
{
    return m_state ? m_state->network : nullptr;
}

} // namespace ns3
