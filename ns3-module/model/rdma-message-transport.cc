/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-message-transport.h"

#include "ib-event-queue.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaMessageTransport");

NS_OBJECT_ENSURE_REGISTERED(RdmaMessageTransport);

TypeId
RdmaMessageTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaMessageTransport")
            .SetParent<MessageTransport>()
            .SetGroupName("Uniference")
            .AddConstructor<RdmaMessageTransport>()
            .AddAttribute("VirtualLane",
                          "The lane (service level) all of this endpoint's traffic uses.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaMessageTransport::m_vl),
                          MakeUintegerChecker<uint8_t>(0, 14))
            .AddAttribute("AckBytes",
                          "Bytes an acknowledgement or CNP adds to the packet headers "
                          "(InfiniBand's ACK extended transport header is 4).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&RdmaMessageTransport::m_ackBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CnpInterval",
                          "Least time between two congestion notifications to one sender.",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&RdmaMessageTransport::m_cnpInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("CongestionControl",
                          "Rate control of each queue pair: ns3::RdmaCongestionControl (off), "
                          "ns3::IbCongestionControl or ns3::Dcqcn.",
                          TypeIdValue(RdmaCongestionControl::GetTypeId()),
                          MakeTypeIdAccessor(&RdmaMessageTransport::m_ccType),
                          MakeTypeIdChecker())
            .AddAttribute("RetransmitTimeout",
                          "How long a queue pair with unacknowledged messages waits, after its "
                          "last packet or acknowledgement, before sending again from its first "
                          "unacknowledged message (IB's local ACK timeout, 4.096 us x "
                          "2^NCCL_IB_TIMEOUT); 0: never, as a lossless fabric needs.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaMessageTransport::m_retransmitTimeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RetryCount",
                          "Timeouts in a row after which a queue pair errors and its messages "
                          "are lost (IB's retry count, NCCL_IB_RETRY_CNT).",
                          UintegerValue(7),
                          MakeUintegerAccessor(&RdmaMessageTransport::m_retryCount),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("Retransmit",
                            "A queue pair timed out and sends again from its first "
                            "unacknowledged message (peer, the new round).",
                            MakeTraceSourceAccessor(&RdmaMessageTransport::m_retransmitTrace),
                            "ns3::RdmaMessageTransport::BytesTracedCallback")
            .AddTraceSource("QueuePairError",
                            "A queue pair timed out RetryCount times in a row and errored "
                            "(peer); its messages are never completed.",
                            MakeTraceSourceAccessor(&RdmaMessageTransport::m_qpErrorTrace),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("Inject",
                            "A data packet left (destination, payload bytes).",
                            MakeTraceSourceAccessor(&RdmaMessageTransport::m_injectTrace),
                            "ns3::RdmaMessageTransport::BytesTracedCallback")
            .AddTraceSource("Arrive",
                            "A data packet arrived (source, payload bytes).",
                            MakeTraceSourceAccessor(&RdmaMessageTransport::m_arriveTrace),
                            "ns3::RdmaMessageTransport::BytesTracedCallback");
    return tid;
}

RdmaMessageTransport::RdmaMessageTransport()
    : m_running(false),
      m_vl(0),
      m_ackBytes(4),
      m_retransmitTimeout(0),
      m_retryCount(7),
      m_injected(0),
      m_delivered(0),
      m_unacked(0),
      m_outstanding(0)
{
}

RdmaMessageTransport::~RdmaMessageTransport() = default;

void
RdmaMessageTransport::DoDispose()
{
    for (auto& port : m_ports)
    {
        port.device = nullptr;
    }
    m_ports.clear();
    for (auto& [dst, qp] : m_sendQps)
    {
        if (qp->cc)
        {
            qp->cc->Dispose();
        }
        qp->timer.Cancel();
    }
    m_sendQps.clear();
    m_recvQps.clear();
    MessageTransport::DoDispose();
}

uint32_t
RdmaMessageTransport::AddPort(Ptr<IbNetDevice> port)
{
    NS_LOG_FUNCTION(this << port);
    auto index = static_cast<uint32_t>(m_ports.size());
    port->SetOwner(this, index);
    m_ports.emplace_back();
    m_ports.back().device = port;
    return index;
}

void
RdmaMessageTransport::SetRoute(uint32_t dst, uint32_t port)
{
    NS_ABORT_MSG_UNLESS(port < m_ports.size(),
                        "RdmaMessageTransport " << GetEndpointId() << ": no port " << port);
    m_routes[dst] = port;
}

// A queue pair's flow hash: well mixed, so that ECMP spreads neighbouring ids.
uint32_t
RdmaMessageTransport::FlowHash(uint32_t src, uint32_t dst)
{
    uint64_t x = (static_cast<uint64_t>(src) << 32) | dst;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return static_cast<uint32_t>(x);
}

Ptr<IbNetDevice>
RdmaMessageTransport::GetPort(uint32_t i) const
{
    return m_ports.at(i).device;
}

uint32_t
RdmaMessageTransport::RouteTo(uint32_t dst) const
{
    auto it = m_routes.find(dst);
    return it == m_routes.end() ? 0 : it->second;
}

void
RdmaMessageTransport::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_ports.empty(),
                    "RdmaMessageTransport " << GetEndpointId() << ": no port (AddPort)");
    m_running = true;
    for (uint32_t p = 0; p < m_ports.size(); ++p)
    {
        Serve(p);
    }
}

void
RdmaMessageTransport::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_running = false;
}

RdmaMessageTransport::SendQp&
RdmaMessageTransport::GetSendQp(uint32_t dst)
{
    auto it = m_sendQps.find(dst);
    if (it != m_sendQps.end())
    {
        return *it->second;
    }
    auto qp = std::make_unique<SendQp>();
    qp->dst = dst;
    qp->port = RouteTo(dst);
    qp->flowHash = FlowHash(GetEndpointId(), dst);
    m_ccFactory.SetTypeId(m_ccType);
    qp->cc = m_ccFactory.Create<RdmaCongestionControl>();
    qp->cc->SetLineRate(m_ports[qp->port].device->GetDataRate());
    return *m_sendQps.emplace(dst, std::move(qp)).first->second;
}

void
RdmaMessageTransport::DoSend(uint32_t dst,
                             uint64_t channel,
                             uint64_t cookie,
                             uint64_t bytes,
                             Callback<void> onSent)
{
    if (dst == GetEndpointId())
    {
        DeliverLocally(channel, cookie, bytes, onSent);
        return;
    }
    NS_ABORT_MSG_IF(m_ports.empty(),
                    "RdmaMessageTransport " << GetEndpointId() << ": no port (AddPort)");
    SendQp& qp = GetSendQp(dst);
    ++m_outstanding;
    qp.queue.push_back(OutMessage{qp.nextMsn++, channel, cookie, bytes, 0, onSent});
    if (!qp.listed)
    {
        qp.listed = true;
        m_ports[qp.port].active.push_back(&qp);
    }
    Serve(qp.port);
}

void
RdmaMessageTransport::DeliverLocally(uint64_t channel,
                                     uint64_t cookie,
                                     uint64_t bytes,
                                     Callback<void> onSent)
{
    // Through the event queue, never inside Send: a listener may send in turn.
    Simulator::ScheduleNow([this, channel, cookie, bytes, onSent]() {
        NotifyMessageSent(GetEndpointId(), channel, cookie, bytes);
        m_delivered += bytes;
        Deliver(GetEndpointId(), channel, cookie, bytes);
        if (!onSent.IsNull())
        {
            onSent();
        }
    });
}

void
RdmaMessageTransport::PortReady(uint32_t port)
{
    Serve(port);
}

void
RdmaMessageTransport::Serve(uint32_t port)
{
    PortState& state = m_ports[port];
    IbNetDevice* device = PeekPointer(state.device);
    if (!m_running || (state.control.empty() && state.active.empty()))
    {
        return;
    }
    if (!device->IsTransmitterIdle())
    {
        device->NotifyWhenIdle();
        return;
    }
    if (!state.control.empty())
    {
        const IbPacket& packet = state.control.front();
        if (device->HasCredits(packet.vl, packet.wireBytes))
        {
            IbPacket out = packet;
            state.control.pop_front();
            device->Transmit(out);
            device->NotifyWhenIdle(); // something may follow; a spare event is harmless
        }
        return; // otherwise the credits' return calls PortReady
    }
    int64_t now = IbEventQueue::Get().NowPs();
    int64_t earliest = INT64_MAX;
    std::size_t n = state.active.size();
    for (std::size_t i = 0; i < n; ++i)
    {
        std::size_t slot = (state.next + i) % n;
        SendQp* qp = state.active[slot];
        if (qp->nextSendPs > now)
        {
            earliest = std::min(earliest, qp->nextSendPs);
            continue;
        }
        OutMessage& message = qp->queue.front();
        uint64_t payload = std::min<uint64_t>(device->GetPayloadMtu(), message.bytes - message.sent);
        IbPacket packet;
        packet.kind = IbPacket::DATA;
        packet.vl = m_vl;
        packet.src = GetEndpointId();
        packet.dst = qp->dst;
        packet.flowHash = qp->flowHash;
        packet.payload = static_cast<uint32_t>(payload);
        packet.wireBytes = packet.payload + device->GetHeaderBytes();
        if (!device->HasCredits(packet.vl, packet.wireBytes))
        {
            return; // every queue pair here waits for the same credits
        }
        packet.msn = message.msn;
        packet.offset = message.sent;
        packet.length = message.bytes;
        packet.channel = message.channel;
        packet.cookie = message.cookie;
        packet.attempt = qp->attempt;
        if (!message.announced)
        {
            message.announced = true;
            NotifyMessageSent(qp->dst, message.channel, message.cookie, message.bytes);
        }
        message.sent += payload;
        if (message.sent == message.bytes)
        {
            qp->unacked.emplace(message.msn, std::move(message));
            ++m_unacked;
            qp->queue.pop_front();
        }
        if (!m_retransmitTimeout.IsZero())
        {
            qp->lastProgressPs = now;
            ArmTimer(*qp);
        }
        // Pace only below line rate: the line itself spaces packets exactly, and pacing from
        // this event's (rounded) time would add a fraction of a nanosecond to every packet.
        int64_t serialisation = device->TransmissionPs(packet.wireBytes);
        int64_t gap = qp->cc->NextPacketGapPs(packet.wireBytes, serialisation);
        qp->nextSendPs = gap > serialisation ? now + gap : 0;
        if (qp->queue.empty())
        {
            qp->listed = false;
            state.active.erase(state.active.begin() + static_cast<std::ptrdiff_t>(slot));
            state.next = slot;
        }
        else
        {
            state.next = slot + 1;
        }
        m_injected += payload;
        m_injectTrace(packet.dst, packet.payload);
        device->Transmit(packet);
        if (!state.control.empty() || !state.active.empty())
        {
            device->NotifyWhenIdle();
        }
        return;
    }
    if (earliest != INT64_MAX)
    {
        device->WakeOwnerAt(earliest);
    }
}

void
RdmaMessageTransport::SendControl(IbPacket::Kind kind, uint32_t dst, uint64_t msn)
{
    uint32_t port = RouteTo(dst);
    IbPacket packet;
    packet.kind = kind;
    packet.vl = m_vl;
    packet.src = GetEndpointId();
    packet.dst = dst;
    packet.flowHash = FlowHash(GetEndpointId(), dst);
    packet.msn = msn;
    packet.wireBytes = m_ports[port].device->GetHeaderBytes() + m_ackBytes;
    m_ports[port].control.push_back(packet);
    Serve(port);
}

void
RdmaMessageTransport::PortReceive(uint32_t port, const IbPacket& packet)
{
    // The host takes packets out of the port's buffer as they come.
    m_ports[port].device->ReleaseReceiveBuffer(packet.vl, packet.wireBytes);
    NS_ABORT_MSG_IF(packet.dst != GetEndpointId(),
                    "RdmaMessageTransport " << GetEndpointId() << ": got a packet for endpoint "
                                            << packet.dst << " (a forwarding table is wrong)");
    switch (packet.kind)
    {
    case IbPacket::DATA:
        ReceiveData(packet);
        break;
    case IbPacket::ACK: {
        SendQp& qp = GetSendQp(packet.src);
        Callback<void> onSent;
        auto it = qp.unacked.find(packet.msn);
        if (it != qp.unacked.end())
        {
            onSent = it->second.onSent;
            qp.unacked.erase(it);
            --m_unacked;
        }
        else
        {
            // After a timeout a message may be back in the queue when its (late) ack comes,
            // or acknowledged twice; without retransmission, an unknown ack is a bug.
            auto queued = std::find_if(qp.queue.begin(), qp.queue.end(), [&](const OutMessage& m) {
                return m.msn == packet.msn;
            });
            NS_ABORT_MSG_IF(qp.attempt == 0 && queued == qp.queue.end(),
                            "RdmaMessageTransport " << GetEndpointId() << ": unexpected ack of message "
                                                    << packet.msn << " from " << packet.src);
            if (queued == qp.queue.end() || qp.failed)
            {
                break;
            }
            onSent = queued->onSent;
            qp.queue.erase(queued);
        }
        --m_outstanding;
        if (!m_retransmitTimeout.IsZero())
        {
            qp.timeouts = 0;
            qp.lastProgressPs = IbEventQueue::Get().NowPs();
        }
        if (!onSent.IsNull())
        {
            onSent();
        }
        break;
    }
    case IbPacket::CNP:
        GetSendQp(packet.src).cc->OnCongestionNotification();
        break;
    }
}

void
RdmaMessageTransport::ReceiveData(const IbPacket& packet)
{
    m_arriveTrace(packet.src, packet.payload);
    RecvQp& qp = m_recvQps[packet.src];
    if (packet.marked)
    {
        int64_t now = IbEventQueue::Get().NowPs();
        if (now - qp.lastCnpPs >= m_cnpInterval.GetPicoSeconds())
        {
            qp.lastCnpPs = now;
            SendControl(IbPacket::CNP, packet.src, packet.msn);
        }
    }
    if (packet.msn < qp.nextDeliver)
    {
        // A resend of a message delivered already, whose ack was lost: acknowledge it again
        // at its last packet.
        if (packet.offset + packet.payload == packet.length)
        {
            SendControl(IbPacket::ACK, packet.src, packet.msn);
        }
        return;
    }
    InMessage& message = qp.partial[packet.msn];
    if (!message.started)
    {
        message.started = true;
        message.length = packet.length;
        message.channel = packet.channel;
        message.cookie = packet.cookie;
        message.attempt = packet.attempt;
    }
    else if (packet.attempt != message.attempt)
    {
        // A later round sends the whole message again: count it from the start. A packet of
        // an earlier round still on its way counts for nothing.
        if (static_cast<int8_t>(packet.attempt - message.attempt) < 0)
        {
            return;
        }
        message.attempt = packet.attempt;
        message.received = 0;
    }
    message.received += packet.payload;
    // Deliver every complete message at the head, in order.
    while (!qp.partial.empty())
    {
        auto head = qp.partial.begin();
        if (head->first != qp.nextDeliver || !head->second.started ||
            head->second.received != head->second.length)
        {
            break;
        }
        InMessage done = head->second;
        uint64_t msn = head->first;
        qp.partial.erase(head);
        ++qp.nextDeliver;
        m_delivered += done.length;
        SendControl(IbPacket::ACK, packet.src, msn);
        Deliver(packet.src, done.channel, done.cookie, done.length);
    }
}

void
RdmaMessageTransport::ArmTimer(SendQp& qp)
{
    if (!qp.timer.IsRunning() && !qp.failed)
    {
        qp.timer = Simulator::Schedule(m_retransmitTimeout, &RdmaMessageTransport::RetransmitTimeout,
                                       this, qp.dst);
    }
}

void
RdmaMessageTransport::RetransmitTimeout(uint32_t dst)
{
    SendQp& qp = *m_sendQps.at(dst);
    const bool outstanding =
        !qp.unacked.empty() || (!qp.queue.empty() && qp.queue.front().sent > 0);
    if (!outstanding || qp.failed)
    {
        return;
    }
    // The timer is armed once and pushed back lazily: a packet or an ack since it was armed
    // moves the deadline, checked here, rather than rescheduling an event per packet.
    const int64_t deadlinePs = qp.lastProgressPs + m_retransmitTimeout.GetPicoSeconds();
    const int64_t nowPs = IbEventQueue::Get().NowPs();
    if (nowPs < deadlinePs)
    {
        qp.timer = Simulator::Schedule(NanoSeconds(IbEventQueue::NsUntil(deadlinePs)),
                                       &RdmaMessageTransport::RetransmitTimeout, this, dst);
        return;
    }
    if (++qp.timeouts > m_retryCount)
    {
        NS_LOG_WARN("endpoint " << GetEndpointId() << ": queue pair to " << dst << " timed out "
                                << qp.timeouts - 1 << " times in a row and errored");
        qp.failed = true;
        m_qpErrorTrace(dst);
        return;
    }
    // Go back to the first unacknowledged message: every message from there is sent again
    // whole, in a new round.
    ++qp.attempt;
    if (!qp.queue.empty())
    {
        qp.queue.front().sent = 0;
    }
    for (auto it = qp.unacked.rbegin(); it != qp.unacked.rend(); ++it)
    {
        it->second.sent = 0;
        qp.queue.push_front(std::move(it->second));
        --m_unacked;
    }
    qp.unacked.clear();
    m_retransmitTrace(dst, qp.attempt);
    if (!qp.listed)
    {
        qp.listed = true;
        m_ports[qp.port].active.push_back(&qp);
    }
    qp.lastProgressPs = nowPs;
    ArmTimer(qp);
    Serve(qp.port);
}

uint32_t
RdmaMessageTransport::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

uint64_t
RdmaMessageTransport::GetInjectedBytes() const
{
    return m_injected;
}

uint64_t
RdmaMessageTransport::GetDeliveredBytes() const
{
    return m_delivered;
}

uint64_t
RdmaMessageTransport::GetUnacknowledged() const
{
    return m_unacked;
}

uint64_t
RdmaMessageTransport::GetPendingSends() const
{
    return m_outstanding;
}

Ptr<RdmaCongestionControl>
RdmaMessageTransport::GetCongestionControl(uint32_t dst) const
{
    auto it = m_sendQps.find(dst);
    return it == m_sendQps.end() ? nullptr : it->second->cc;
}

} // namespace ns3
