/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-net-device.h"

#include "ib-channel.h"
#include "ib-event-queue.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/error-model.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbNetDevice");

NS_OBJECT_ENSURE_REGISTERED(IbNetDevice);

TypeId
IbNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IbNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Uniference")
            .AddConstructor<IbNetDevice>()
            .AddAttribute("DataRate",
                          "Line rate (the signalling rate after line coding).",
                          DataRateValue(DataRate("400Gbps")),
                          MakeDataRateAccessor(&IbNetDevice::m_rate),
                          MakeDataRateChecker())
            .AddAttribute("Mtu",
                          "Largest payload of one packet, in bytes (InfiniBand: 256 to 4096).",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&IbNetDevice::m_mtu),
                          MakeUintegerChecker<uint32_t>(256, 4096))
            .AddAttribute("HeaderBytes",
                          "Headers and trailers of every packet: local routing header (8), "
                          "base transport header (12), invariant CRC (4), variant CRC (2).",
                          UintegerValue(DEFAULT_HEADER_BYTES),
                          MakeUintegerAccessor(&IbNetDevice::m_headerBytes),
                          MakeUintegerChecker<uint32_t>(0, 512))
            .AddAttribute("VirtualLanes",
                          "Data virtual lanes, each with its own buffer and credits.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&IbNetDevice::m_lanes),
                          MakeUintegerChecker<uint8_t>(1, 15))
            .AddAttribute("VlBufferBytes",
                          "Receive buffer per virtual lane, in bytes; it must hold one packet "
                          "of Mtu payload, and it bounds a link's throughput to about "
                          "buffer / round-trip time.",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&IbNetDevice::m_vlBufferBytes),
                          MakeUintegerChecker<uint32_t>(64))
            .AddAttribute("CreditBytes",
                          "Bytes per credit (InfiniBand counts 64-byte blocks).",
                          UintegerValue(64),
                          MakeUintegerAccessor(&IbNetDevice::m_creditBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("FlowControlPacketBytes",
                          "Size on the wire of one credit update.",
                          UintegerValue(6),
                          MakeUintegerAccessor(&IbNetDevice::m_fcpBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("CreditUpdateBytes",
                          "Freed buffer bytes that trigger a credit update (an emptied lane "
                          "always triggers one); 0 sends one per released packet unless the "
                          "line is busy, when updates coalesce.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&IbNetDevice::m_updateBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CutThrough",
                          "Hand a packet to the owner once its header has arrived rather than "
                          "its last bit (set on switch ports).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&IbNetDevice::m_cutThrough),
                          MakeBooleanChecker())
            .AddAttribute("ReceiveErrorModel",
                          "Loses packets as they arrive (faults on purpose: a cable down). The "
                          "fabric is lossless without one; a packet it loses still frees its "
                          "buffer space, so the sender's credits come back.",
                          PointerValue(),
                          MakePointerAccessor(&IbNetDevice::m_receiveErrorModel),
                          MakePointerChecker<ErrorModel>())
            .AddTraceSource("Credits",
                            "Credits held for the peer's buffer changed (lane, blocks).",
                            MakeTraceSourceAccessor(&IbNetDevice::m_creditsTrace),
                            "ns3::IbNetDevice::LevelTracedCallback")
            .AddTraceSource("ReceiveBuffer",
                            "Blocks in use in this port's receive buffer changed (lane, "
                            "blocks).",
                            MakeTraceSourceAccessor(&IbNetDevice::m_rxBufferTrace),
                            "ns3::IbNetDevice::LevelTracedCallback")
            .AddTraceSource("Tx",
                            "A packet started on the line.",
                            MakeTraceSourceAccessor(&IbNetDevice::m_txTrace),
                            "ns3::IbNetDevice::PacketTracedCallback")
            .AddTraceSource("Rx",
                            "A packet arrived from the peer.",
                            MakeTraceSourceAccessor(&IbNetDevice::m_rxTrace),
                            "ns3::IbNetDevice::PacketTracedCallback")
            .AddTraceSource("RxDrop",
                            "A packet that arrived was lost to the ReceiveErrorModel.",
                            MakeTraceSourceAccessor(&IbNetDevice::m_rxDropTrace),
                            "ns3::IbNetDevice::PacketTracedCallback")
            .AddTraceSource("CreditStall",
                            "The line sat idle for want of credits while a packet waited for "
                            "it (start, end in picoseconds): the link-level pause of a lossless "
                            "fabric.",
                            MakeTraceSourceAccessor(&IbNetDevice::m_creditStallTrace),
                            "ns3::IbNetDevice::StallTracedCallback");
    return tid;
}

IbNetDevice::IbNetDevice()
    : m_peer(nullptr),
      m_ifIndex(0),
      m_address(Mac48Address::Allocate()),
      m_owner(nullptr),
      m_ownerPort(0),
      m_psPerByte(0),
      m_delayPs(0),
      m_processingPs(0),
      m_dataEndPs(0),
      m_idlePending(false),
      m_lineFreePs(0),
      m_busyPs(0),
      m_txBytes(0),
      m_txPackets(0),
      m_starved(false),
      m_creditWakePending(false),
      m_ownerWakePending(false),
      m_stallStartPs(-1),
      m_eventPlace(0),
      m_eventSeq{0, 0, 0, 0},
      m_peerRemote(false),
      m_lastUpdateStartPs(0),
      m_lastUpdateVl(0),
      m_peerBlocks(0)
{
}

IbNetDevice::~IbNetDevice() = default;

void
IbNetDevice::Attach(Ptr<IbChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    m_channel = channel;
    channel->Attach(this);
}

void
IbNetDevice::SetOwner(IbPortOwner* owner, uint32_t port)
{
    m_owner = owner;
    m_ownerPort = port;
}

void
IbNetDevice::DoInitialize()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_UNLESS(m_channel, "IbNetDevice on node " << m_node->GetId() << ": no cable");
    Ptr<IbNetDevice> peer = m_channel->GetPeer(this);
    NS_ABORT_MSG_UNLESS(peer, "IbNetDevice on node " << m_node->GetId() << ": cable has one end");
    NS_ABORT_MSG_UNLESS(m_owner, "IbNetDevice on node " << m_node->GetId() << ": no owner");
    NS_ABORT_MSG_IF(peer->m_lanes != m_lanes,
                    "IbNetDevice on node " << m_node->GetId() << ": " << unsigned(m_lanes)
                                           << " virtual lanes, its peer has "
                                           << unsigned(peer->m_lanes));
    NS_ABORT_MSG_IF(m_vlBufferBytes < m_mtu + m_headerBytes,
                    "IbNetDevice on node " << m_node->GetId() << ": VlBufferBytes "
                                           << m_vlBufferBytes << " cannot hold one packet of "
                                           << m_mtu + m_headerBytes << " bytes");
    m_peer = PeekPointer(peer);
    m_channel->PrepareEnd(this);
    m_peerRemote = m_channel->IsRemote(peer);
    // A packet for a peer in another process is delivered there at now + delay (the
    // lookahead); it must reach the peer's owner later than that, or the other process might
    // take it after that nanosecond's other events instead of among them.
    NS_ABORT_MSG_IF(m_peerRemote && !m_channel->IsRemote(this) &&
                        (peer->m_cutThrough ? TransmissionPs(peer->m_headerBytes) +
                                                  peer->m_processingPs
                                            : TransmissionPs(m_headerBytes)) < 1000,
                    "IbNetDevice on node " << m_node->GetId()
                                           << ": this cable joins two processes, and a packet on it "
                                              "can reach the far end within a nanosecond of the "
                                              "cable's delay; partition elsewhere (a switch's "
                                              "forwarding latency of at least 1 ns allows it)");
    m_eventPlace = (static_cast<uint64_t>(m_node->GetId()) << 24) | m_ifIndex;
    m_psPerByte = 8e12 / static_cast<double>(m_rate.GetBitRate());
    m_delayPs = m_channel->GetDelay().GetPicoSeconds();
    // The peer's buffer, which this side fills, decides the credits; its own decides ours.
    m_peerBlocks = peer->GetBufferBlocks();
    m_credits.assign(m_lanes, m_peerBlocks);
    m_peerFreed.assign(m_lanes, 0);
    m_rxUsed.assign(m_lanes, 0);
    m_freed.assign(m_lanes, 0);
    m_advertised.assign(m_lanes, 0);
    NetDevice::DoInitialize();
}

void
IbNetDevice::DoDispose()
{
    m_node = nullptr;
    m_channel = nullptr;
    m_inbound.clear();
    m_peer = nullptr;
    m_owner = nullptr;
    NetDevice::DoDispose();
}

void
IbNetDevice::SetProcessingDelay(Time delay)
{
    m_processingPs = delay.GetPicoSeconds();
}

bool
IbNetDevice::IsTransmitterIdle() const
{
    return m_dataEndPs <= IbEventQueue::Get().NowPs();
}

bool
IbNetDevice::CouldSend(uint8_t vl, uint32_t wireBytes) const
{
    ApplyArrivedCredits();
    return m_credits[vl] >= Blocks(wireBytes);
}

bool
IbNetDevice::HasCredits(uint8_t vl, uint32_t wireBytes)
{
    if (CouldSend(vl, wireBytes))
    {
        return true;
    }
    m_starved = true;
    // A busy line is not stalled yet: its owner asks again once the packet on it has ended.
    if (m_stallStartPs < 0 && IsTransmitterIdle())
    {
        m_stallStartPs = IbEventQueue::Get().NowPs();
    }
    ArmCreditWake();
    return false;
}

void
IbNetDevice::ApplyArrivedCredits() const
{
    int64_t now = IbEventQueue::Get().NowPs();
    while (!m_inbound.empty() && m_inbound.front().arrivalPs <= now)
    {
        const CreditUpdate& update = m_inbound.front();
        m_credits[update.vl] += update.freedTotal - m_peerFreed[update.vl];
        m_peerFreed[update.vl] = update.freedTotal;
        m_creditsTrace(update.vl, m_credits[update.vl]);
        m_inbound.pop_front();
    }
}

void
IbNetDevice::ArmCreditWake()
{
    if (m_starved && !m_inbound.empty() && !m_creditWakePending)
    {
        m_creditWakePending = true;
        IbEventQueue::Get().Schedule(IbEventQueue::NsUntil(m_inbound.front().arrivalPs),
                                     IbEventQueue::CREDIT_WAKE,
                                     this);
    }
}

void
IbNetDevice::CreditWake()
{
    m_creditWakePending = false;
    ApplyArrivedCredits();
    m_starved = false;
    if (IsTransmitterIdle())
    {
        m_owner->PortReady(m_ownerPort); // it asks again, and re-arms if still short
    }
    else
    {
        NotifyWhenIdle();
    }
}

int64_t
IbNetDevice::Blocks(uint32_t bytes) const
{
    return (bytes + m_creditBytes - 1) / m_creditBytes;
}

int64_t
IbNetDevice::TransmissionPs(uint32_t bytes) const
{
    return static_cast<int64_t>(bytes * m_psPerByte + 0.5);
}

void
IbNetDevice::Transmit(IbPacket packet)
{
    NS_ASSERT_MSG(IsTransmitterIdle(), "IbNetDevice: Transmit while busy");
    ApplyArrivedCredits();
    int64_t blocks = Blocks(packet.wireBytes);
    NS_ASSERT_MSG(m_credits[packet.vl] >= blocks, "IbNetDevice: Transmit without credits");
    m_credits[packet.vl] -= blocks;
    m_creditsTrace(packet.vl, m_credits[packet.vl]);

    // A line that fell free less than a nanosecond ago was waiting only for its completion
    // event, which rounds up: continue from its exact end so the rate stays exact.
    int64_t now = IbEventQueue::Get().NowPs();
    int64_t start = m_lineFreePs > now - 1000 ? m_lineFreePs : now;
    int64_t serialisation = TransmissionPs(packet.wireBytes);
    // Cut-through: the packet cannot leave faster than it arrives.
    int64_t end = std::max(start + serialisation, packet.lastBitPs);
    if (m_stallStartPs >= 0)
    {
        m_creditStallTrace(m_stallStartPs, start);
        m_stallStartPs = -1;
    }
    m_busyPs += end - start;
    m_lineFreePs = end;
    m_dataEndPs = end;
    m_txBytes += packet.wireBytes;
    ++m_txPackets;
    m_txTrace(packet);

    packet.lastBitPs = end + m_delayPs;
    int64_t handOver =
        m_peer->m_cutThrough
            ? std::min(start + TransmissionPs(m_peer->m_headerBytes), end) + m_delayPs
            : packet.lastBitPs;
    handOver += m_peer->m_processingPs;
    if (m_peerRemote)
    {
        m_channel->CarryPacket(this, packet, handOver);
    }
    else
    {
        m_peer->TakePacket(packet, handOver);
    }

}

void
IbNetDevice::NotifyWhenIdle()
{
    if (!m_idlePending)
    {
        m_idlePending = true;
        IbEventQueue::Get().Schedule(IbEventQueue::NsUntil(m_dataEndPs), IbEventQueue::IDLE, this);
    }
}

void
IbNetDevice::WakeOwnerAt(int64_t ps)
{
    if (!m_ownerWakePending)
    {
        m_ownerWakePending = true;
        IbEventQueue::Get().Schedule(IbEventQueue::NsUntil(ps), IbEventQueue::OWNER_WAKE, this);
    }
}

void
IbNetDevice::OwnerWake()
{
    m_ownerWakePending = false;
    m_owner->PortReady(m_ownerPort);
}

void
IbNetDevice::TransmitComplete()
{
    m_idlePending = false;
    m_owner->PortReady(m_ownerPort);
}

void
IbNetDevice::Receive(IbPacket packet)
{
    int64_t blocks = Blocks(packet.wireBytes);
    m_rxUsed[packet.vl] += blocks;
    m_rxBufferTrace(packet.vl, m_rxUsed[packet.vl]);
    m_rxTrace(packet);
    // An error model sees a stand-in of the packet's wire size: the fabric's packets are plain
    // values, and only faulted ports pay for the ns3::Packet.
    if (m_receiveErrorModel && m_receiveErrorModel->IsCorrupt(Create<Packet>(packet.wireBytes)))
    {
        m_rxDropTrace(packet);
        ReleaseReceiveBuffer(packet.vl, packet.wireBytes);
        return;
    }
    m_owner->PortReceive(m_ownerPort, packet);
}

void
IbNetDevice::ReleaseReceiveBuffer(uint8_t vl, uint32_t wireBytes)
{
    int64_t blocks = Blocks(wireBytes);
    m_rxUsed[vl] -= blocks;
    NS_ASSERT_MSG(m_rxUsed[vl] >= 0, "IbNetDevice: released more than was received");
    m_rxBufferTrace(vl, m_rxUsed[vl]);
    m_freed[vl] += blocks;
    if (m_rxUsed[vl] == 0 || (m_freed[vl] - m_advertised[vl]) * m_creditBytes >= m_updateBytes)
    {
        SendCreditUpdates();
    }
}

void
IbNetDevice::SendCreditUpdates()
{
    // A flow-control packet goes out after the packet on the line and takes the line like any
    // other packet; a data packet offered meanwhile starts after it (m_lineFreePs). Updates
    // freed while it waits for the line ride on it (it carries the cumulative count). Its
    // arrival is known now, so the peer reads it when it next looks at its credits, and needs
    // an event only if it is waiting for them (ArmCreditWake).
    int64_t now = IbEventQueue::Get().NowPs();
    for (uint8_t vl = 0; vl < m_lanes; ++vl)
    {
        if (m_freed[vl] == m_advertised[vl])
        {
            continue;
        }
        m_advertised[vl] = m_freed[vl];
        // The last update sent can take the new count while it has not started on the line
        // (once started, it may have arrived and been applied).
        if (m_lastUpdateVl == vl && m_lastUpdateStartPs > now)
        {
            PassCredits(m_lastUpdateStartPs, 0, vl, true);
            continue;
        }
        int64_t start = std::max(now, m_lineFreePs);
        int64_t end = start + TransmissionPs(m_fcpBytes);
        m_busyPs += end - start;
        m_lineFreePs = end;
        m_txBytes += m_fcpBytes;
        m_lastUpdateVl = vl;
        m_lastUpdateStartPs = start;
        PassCredits(start, end + m_delayPs, vl, false);
    }
}

void
IbNetDevice::PassCredits(int64_t startPs, int64_t arrivalPs, uint8_t vl, bool merge)
{
    if (m_peerRemote)
    {
        m_channel->CarryCredits(this, startPs, arrivalPs, vl, m_freed[vl], merge);
    }
    else
    {
        m_peer->TakeCredits(startPs, arrivalPs, vl, m_freed[vl], merge);
    }
}

void
IbNetDevice::TakePacket(const IbPacket& packet, int64_t handOverPs)
{
    IbEventQueue::Get().Schedule(IbEventQueue::NsUntil(handOverPs),
                                 IbEventQueue::RECEIVE,
                                 this,
                                 &packet);
}

void
IbNetDevice::TakeCredits(int64_t startPs,
                         int64_t arrivalPs,
                         uint8_t vl,
                         int64_t freedTotal,
                         bool merge)
{
    if (merge)
    {
        NS_ASSERT_MSG(!m_inbound.empty() && m_inbound.back().vl == vl &&
                          m_inbound.back().startPs == startPs,
                      "IbNetDevice: a merged credit update with no update to merge into");
        m_inbound.back().freedTotal = freedTotal;
        return;
    }
    m_inbound.push_back(CreditUpdate{startPs, arrivalPs, vl, freedTotal});
    ArmCreditWake();
}

uint32_t
IbNetDevice::GetPayloadMtu() const
{
    return m_mtu;
}

uint32_t
IbNetDevice::GetHeaderBytes() const
{
    return m_headerBytes;
}

DataRate
IbNetDevice::GetDataRate() const
{
    return m_rate;
}

uint8_t
IbNetDevice::GetVirtualLanes() const
{
    return m_lanes;
}

int64_t
IbNetDevice::GetBufferBlocks() const
{
    return m_vlBufferBytes / m_creditBytes;
}

int64_t
IbNetDevice::GetCredits(uint8_t vl) const
{
    ApplyArrivedCredits();
    return m_credits.at(vl);
}

uint64_t
IbNetDevice::GetUncreditedBytes(uint8_t vl) const
{
    ApplyArrivedCredits();
    return static_cast<uint64_t>(m_peerBlocks - m_credits[vl]) * m_creditBytes;
}

int64_t
IbNetDevice::GetReceiveBufferUsed(uint8_t vl) const
{
    return m_rxUsed.at(vl);
}

uint64_t
IbNetDevice::GetTxBytes() const
{
    return m_txBytes;
}

uint64_t
IbNetDevice::GetTxPackets() const
{
    return m_txPackets;
}

Time
IbNetDevice::GetBusyTime() const
{
    return PicoSeconds(m_busyPs);
}

Ptr<IbChannel>
IbNetDevice::GetIbChannel() const
{
    return m_channel;
}

IbPortOwner*
IbNetDevice::GetOwner() const
{
    return m_owner;
}

bool
IbNetDevice::IsCutThrough() const
{
    return m_cutThrough;
}

// NetDevice bookkeeping. The port carries fabric packets only; no IP stack runs over it.

void
IbNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
IbNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
IbNetDevice::GetChannel() const
{
    return m_channel;
}

void
IbNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
IbNetDevice::GetAddress() const
{
    return m_address;
}

bool
IbNetDevice::SetMtu(const uint16_t mtu)
{
    if (mtu < 256 || mtu > 4096)
    {
        return false;
    }
    m_mtu = mtu;
    return true;
}

uint16_t
IbNetDevice::GetMtu() const
{
    return static_cast<uint16_t>(m_mtu);
}

bool
IbNetDevice::IsLinkUp() const
{
    return m_channel && m_channel->GetNDevices() == 2;
}

void
IbNetDevice::AddLinkChangeCallback(Callback<void> /* callback */)
{
    // Cables never go down in this model.
}

bool
IbNetDevice::IsBroadcast() const
{
    return false;
}

Address
IbNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
IbNetDevice::IsMulticast() const
{
    return false;
}

Address
IbNetDevice::GetMulticast(Ipv4Address /* multicastGroup */) const
{
    return Mac48Address::GetMulticast(Ipv4Address());
}

Address
IbNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
IbNetDevice::IsBridge() const
{
    return false;
}

bool
IbNetDevice::IsPointToPoint() const
{
    return true;
}

bool
IbNetDevice::Send(Ptr<Packet> /* packet */, const Address& /* dest */, uint16_t protocolNumber)
{
    NS_LOG_WARN("IbNetDevice carries RDMA traffic only; protocol " << protocolNumber
                                                                   << " packet not sent");
    return false;
}

bool
IbNetDevice::SendFrom(Ptr<Packet> packet,
                      const Address& /* source */,
                      const Address& dest,
                      uint16_t protocolNumber)
{
    return Send(packet, dest, protocolNumber);
}

Ptr<Node>
IbNetDevice::GetNode() const
{
    return m_node;
}

void
IbNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
IbNetDevice::NeedsArp() const
{
    return false;
}

void
IbNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback /* cb */)
{
}

void
IbNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback /* cb */)
{
}

bool
IbNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
