/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-message-transport.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowMessageTransport");

NS_OBJECT_ENSURE_REGISTERED(FlowMessageTransport);

TypeId
FlowMessageTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FlowMessageTransport")
            .SetParent<MessageTransport>()
            .SetGroupName("Uniference")
            .AddConstructor<FlowMessageTransport>()
            .AddAttribute("PacketPayload",
                          "Payload bytes per packet (a TCP segment, an IB MTU).",
                          UintegerValue(1448),
                          MakeUintegerAccessor(&FlowMessageTransport::m_packetPayload),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("PacketOverhead",
                          "Wire bytes per packet beyond its payload: headers, and on Ethernet "
                          "the preamble, FCS and inter-frame gap.",
                          UintegerValue(90),
                          MakeUintegerAccessor(&FlowMessageTransport::m_packetOverhead),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MessageOverhead",
                          "Stream bytes per message beyond its payload (a framing header).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FlowMessageTransport::m_messageOverhead),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HeaderBytes",
                          "Bytes a cut-through hop waits for before passing a packet on.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FlowMessageTransport::m_headerBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Connection",
                          "TCP-like: a handshake before the first message to a peer, a hello, "
                          "slow start and a send buffer; else RDMA-like: messages complete when "
                          "acknowledged.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&FlowMessageTransport::m_connection),
                          MakeBooleanChecker())
            .AddAttribute("InitialWindow",
                          "Slow start's first window, in packets.",
                          UintegerValue(10),
                          MakeUintegerAccessor(&FlowMessageTransport::m_initialWindow),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("SendBuffer",
                          "With Connection: bytes of a stream the sender may hold uncarried; "
                          "a message is sent once its end is within them.",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&FlowMessageTransport::m_sendBuffer),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

FlowMessageTransport::FlowMessageTransport()
    : m_packetPayload(1448),
      m_packetOverhead(90),
      m_messageOverhead(0),
      m_headerBytes(0),
      m_connection(false),
      m_initialWindow(10),
      m_sendBuffer(131072),
      m_pending(0)
{
}

FlowMessageTransport::~FlowMessageTransport() = default;

void
FlowMessageTransport::DoDispose()
{
    for (auto& [dst, peer] : m_peers)
    {
        peer.grow.Cancel();
        peer.route.peer = nullptr;
        peer.carried.Nullify();
    }
    m_peers.clear();
    m_network = nullptr;
    m_resolver = nullptr;
    MessageTransport::DoDispose();
}

void
FlowMessageTransport::Setup(Ptr<FlowNetwork> network, Resolver resolver)
{
    m_network = network;
    m_resolver = std::move(resolver);
}

uint64_t
FlowMessageTransport::WireBytes(uint64_t bytes) const
{
    const uint64_t stream = bytes + m_messageOverhead;
    const uint64_t packets = std::max<uint64_t>(1, (stream + m_packetPayload - 1) / m_packetPayload);
    return stream + packets * m_packetOverhead;
}

uint64_t
FlowMessageTransport::GetPendingSends() const
{
    return m_pending;
}

FlowMessageTransport::Peer&
FlowMessageTransport::PeerOf(uint32_t dst)
{
    auto it = m_peers.find(dst);
    if (it != m_peers.end())
    {
        return it->second;
    }
    NS_ABORT_MSG_UNLESS(m_network && m_resolver,
                        "FlowMessageTransport " << GetEndpointId()
                                                << ": no network (FlowNetworkHelper sets it up)");
    Peer& peer = m_peers[dst];
    peer.route = m_resolver(GetEndpointId(), dst);
    peer.carried = MakeCallback(&FlowMessageTransport::Carried, this, dst);
    return peer;
}

void
FlowMessageTransport::DoSend(uint32_t dst,
                             uint64_t channel,
                             uint64_t cookie,
                             uint64_t bytes,
                             Callback<void> onSent)
{
    Peer& peer = PeerOf(dst);
    const Message message{channel, cookie, bytes, onSent};
    if (!m_connection || peer.open)
    {
        Transmit(dst, message);
        return;
    }
    peer.waiting.push_back(message);
    if (!peer.opening)
    {
        peer.opening = true;
        Simulator::Schedule(peer.route.handshake, &FlowMessageTransport::Open, this, dst);
    }
}

void
FlowMessageTransport::Open(uint32_t dst)
{
    Peer& peer = m_peers.at(dst);
    peer.open = true;
    // The hello that names this endpoint goes first, as one small packet.
    m_network->Push(peer.route.stream, WireBytes(0));
    const double window = static_cast<double>(m_initialWindow) * (m_packetPayload + m_packetOverhead);
    const double cap = window / peer.route.roundTrip.GetSeconds();
    if (cap < peer.route.bottleneck)
    {
        peer.slowStart = true;
        m_network->SetCap(peer.route.stream, cap);
        peer.grow = Simulator::Schedule(peer.route.roundTrip, &FlowMessageTransport::Grow, this, dst);
    }
    std::vector<Message> waiting;
    waiting.swap(peer.waiting);
    for (const Message& message : waiting)
    {
        Transmit(dst, message);
    }
}

void
FlowMessageTransport::Grow(uint32_t dst)
{
    Peer& peer = m_peers.at(dst);
    const uint32_t stream = peer.route.stream;
    // Slow start grows the window by what was acknowledged: about what was carried.
    const double window = static_cast<double>(m_initialWindow) * (m_packetPayload + m_packetOverhead) +
                          m_network->GetCarried(stream);
    const double cap = window / peer.route.roundTrip.GetSeconds();
    if (cap >= peer.route.bottleneck)
    {
        peer.slowStart = false;
        m_network->SetCap(stream, 0);
        return;
    }
    m_network->SetCap(stream, cap);
    // An idle stream's window does not grow; the next message restarts the clock.
    if (m_network->GetRate(stream) > 0)
    {
        peer.grow = Simulator::Schedule(peer.route.roundTrip, &FlowMessageTransport::Grow, this, dst);
    }
}

void
FlowMessageTransport::Transmit(uint32_t dst, const Message& message)
{
    Peer& peer = m_peers.at(dst);
    NotifyMessageSent(dst, message.channel, message.cookie, message.bytes);
    const uint64_t wire = WireBytes(message.bytes);
    const uint32_t stream = peer.route.stream;
    const uint64_t end = m_network->Push(stream, wire);
    Callback<void> onSent = message.onSent;
    if (m_connection)
    {
        if (!onSent.IsNull())
        {
            m_network->When(stream, end > m_sendBuffer ? end - m_sendBuffer : 0, onSent);
        }
        onSent = MakeNullCallback<void>();
        if (peer.slowStart && !peer.grow.IsRunning())
        {
            peer.grow = Simulator::Schedule(peer.route.roundTrip, &FlowMessageTransport::Grow, this, dst);
        }
    }
    else
    {
        ++m_pending;
    }
    peer.inFlight.push_back({message.channel, message.cookie, message.bytes, onSent});
    m_network->When(stream, end, peer.carried);
}

void
FlowMessageTransport::Carried(uint32_t dst)
{
    Peer& peer = m_peers.at(dst);
    const FlowRoute& route = peer.route;
    NS_ASSERT(!peer.inFlight.empty());
    const Message message = std::move(peer.inFlight.front());
    peer.inFlight.pop_front();
    const uint64_t bytes = message.bytes;
    const uint64_t wire = WireBytes(bytes);
    // The last packet still crosses the hops after the first: whole on store-and-forward
    // hops, its header on cut-through ones.
    const uint64_t stream = bytes + m_messageOverhead;
    const uint64_t lastPayload = stream % m_packetPayload == 0 && stream > 0
                                     ? m_packetPayload
                                     : stream % m_packetPayload;
    const uint32_t lastPacket = static_cast<uint32_t>(std::min<uint64_t>(wire, lastPayload + m_packetOverhead));
    Time lag = route.propagation;
    for (const DataRate& rate : route.storeAndForward)
    {
        lag += rate.CalculateBytesTxTime(lastPacket);
    }
    for (const DataRate& rate : route.cutThrough)
    {
        lag += rate.CalculateBytesTxTime(m_headerBytes);
    }
    // A stream's messages arrive in order.
    const Time arrival = std::max(Simulator::Now() + lag, peer.lastArrival);
    peer.lastArrival = arrival;
    Simulator::Schedule(arrival - Simulator::Now(),
                        &FlowMessageTransport::Arrive,
                        route.peer,
                        GetEndpointId(),
                        message.channel,
                        message.cookie,
                        bytes);
    if (!m_connection)
    {
        // Complete when the acknowledgement is back.
        Simulator::Schedule(arrival - Simulator::Now() + route.ackLatency,
                            &FlowMessageTransport::Acknowledged,
                            this,
                            message.onSent);
    }
}

void
FlowMessageTransport::Acknowledged(Callback<void> onSent)
{
    --m_pending;
    if (!onSent.IsNull())
    {
        onSent();
    }
}

void
FlowMessageTransport::Arrive(uint32_t source, uint64_t channel, uint64_t cookie, uint64_t bytes)
{
    Deliver(source, channel, cookie, bytes);
}

} // namespace ns3
