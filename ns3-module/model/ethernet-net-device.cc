/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ethernet-net-device.h"

#include "ethernet-channel.h"

#include "ns3/drop-tail-queue.h"
#include "ns3/error-model.h"
#include "ns3/ethernet-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EthernetNetDevice");

NS_OBJECT_ENSURE_REGISTERED(EthernetNetDevice);

TypeId
EthernetNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EthernetNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Uniference")
            .AddConstructor<EthernetNetDevice>()
            .AddAttribute("Address",
                          "The MAC address of this port.",
                          Mac48AddressValue(Mac48Address("ff:ff:ff:ff:ff:ff")),
                          MakeMac48AddressAccessor(&EthernetNetDevice::m_address),
                          MakeMac48AddressChecker())
            .AddAttribute("DataRate",
                          "Bit rate of the wire.",
                          DataRateValue(DataRate("1Gbps")),
                          MakeDataRateAccessor(&EthernetNetDevice::m_dataRate),
                          MakeDataRateChecker())
            .AddAttribute("Mtu",
                          "Largest payload of a frame (the IP packet), bytes.",
                          UintegerValue(1500),
                          MakeUintegerAccessor(&EthernetNetDevice::SetMtu,
                                               &EthernetNetDevice::GetMtu),
                          MakeUintegerChecker<uint16_t>(46))
            .AddAttribute("FcsSize",
                          "Bytes of the frame check sequence, timed on the wire.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&EthernetNetDevice::m_fcsSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PreambleSize",
                          "Bytes of preamble and start-of-frame delimiter before every frame, "
                          "timed on the wire.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&EthernetNetDevice::m_preambleSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("InterframeGap",
                          "Idle bytes the transmitter waits after every frame.",
                          UintegerValue(12),
                          MakeUintegerAccessor(&EthernetNetDevice::m_interframeGap),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TxQueue",
                          "The queue of frames waiting for the transmitter.",
                          PointerValue(),
                          MakePointerAccessor(&EthernetNetDevice::m_queue),
                          MakePointerChecker<Queue<Packet>>())
            .AddAttribute("ReceiveErrorModel",
                          "Decides which received frames are corrupt and dropped.",
                          PointerValue(),
                          MakePointerAccessor(&EthernetNetDevice::m_receiveErrorModel),
                          MakePointerChecker<ErrorModel>())
            .AddTraceSource("MacTx",
                            "A packet from above has been accepted for transmission.",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTxDrop",
                            "A packet or frame has been dropped before transmission: too "
                            "large, link down, or the queue full.",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_macTxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A packet for this host has been handed up to the node.",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacPromiscRx",
                            "A packet has been handed up to the promiscuous callback.",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_macPromiscRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxBegin",
                            "A frame starts on the wire.",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_phyTxBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxEnd",
                            "A frame and the inter-frame gap after it are over.",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_phyTxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxEnd",
                            "A frame has been received whole.",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_phyRxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxDrop",
                            "A received frame was corrupt and has been dropped.",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_phyRxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Sniffer",
                            "Frames sent and received (for pcap).",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_snifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PromiscSniffer",
                            "Every frame sent or received, as a port mirror sees it (for pcap).",
                            MakeTraceSourceAccessor(&EthernetNetDevice::m_promiscSnifferTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

EthernetNetDevice::EthernetNetDevice()
    : m_mtu(1500),
      m_fcsSize(4),
      m_preambleSize(8),
      m_interframeGap(12),
      m_ifIndex(0),
      m_linkUp(false)
{
    // A device built without a helper still has somewhere to queue (100 packets, ns-3's
    // default DropTailQueue); helpers replace it with SetQueue or the TxQueue attribute.
    m_queue = CreateObject<DropTailQueue<Packet>>();
}

EthernetNetDevice::~EthernetNetDevice() = default;

void
EthernetNetDevice::DoDispose()
{
    m_node = nullptr;
    m_channel = nullptr;
    m_queue = nullptr;
    m_receiveErrorModel = nullptr;
    m_currentFrame = nullptr;
    m_rxCallback = MakeNullCallback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t,
                                    const Address&>();
    m_promiscCallback = MakeNullCallback<bool, Ptr<NetDevice>, Ptr<const Packet>, uint16_t,
                                         const Address&, const Address&, PacketType>();
    m_frameCallback = MakeNullCallback<void, Ptr<EthernetNetDevice>, Ptr<Packet>>();
    NetDevice::DoDispose();
}

bool
EthernetNetDevice::Attach(Ptr<EthernetChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    if (!channel->Attach(this))
    {
        return false;
    }
    m_channel = channel;
    m_linkUp = true;
    m_linkChangeCallbacks();
    return true;
}

void
EthernetNetDevice::SetQueue(Ptr<Queue<Packet>> queue)
{
    m_queue = queue;
}

Ptr<Queue<Packet>>
EthernetNetDevice::GetQueue() const
{
    return m_queue;
}

void
EthernetNetDevice::SetReceiveErrorModel(Ptr<ErrorModel> em)
{
    m_receiveErrorModel = em;
}

Time
EthernetNetDevice::GetTransmitTime(uint32_t bytes) const
{
    const uint32_t wire =
        m_preambleSize + std::max(bytes, MIN_FRAME_SIZE) + m_fcsSize + m_interframeGap;
    return m_dataRate.CalculateBytesTxTime(wire);
}

Time
EthernetNetDevice::GetFrameTime(uint32_t bytes) const
{
    return m_dataRate.CalculateBytesTxTime(m_preambleSize + std::max(bytes, MIN_FRAME_SIZE) +
                                           m_fcsSize);
}

void
EthernetNetDevice::SetFrameReceiveCallback(FrameReceiveCallback cb)
{
    m_frameCallback = cb;
}

bool
EthernetNetDevice::SendFrame(Ptr<Packet> frame)
{
    return Enqueue(frame);
}

bool
EthernetNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return SendFrom(packet, m_address, dest, protocolNumber);
}

bool
EthernetNetDevice::SendFrom(Ptr<Packet> packet,
                            const Address& source,
                            const Address& dest,
                            uint16_t protocolNumber)
{
    if (!m_linkUp || packet->GetSize() > m_mtu)
    {
        m_macTxDropTrace(packet);
        return false;
    }
    m_macTxTrace(packet);
    EthernetHeader header(false);
    header.SetSource(Mac48Address::ConvertFrom(source));
    header.SetDestination(Mac48Address::ConvertFrom(dest));
    header.SetLengthType(protocolNumber);
    packet->AddHeader(header);
    return Enqueue(packet);
}

bool
EthernetNetDevice::Enqueue(Ptr<Packet> frame)
{
    if (!m_queue->Enqueue(frame))
    {
        m_macTxDropTrace(frame);
        return false;
    }
    if (!m_currentFrame)
    {
        TransmitNext();
    }
    return true;
}

void
EthernetNetDevice::TransmitNext()
{
    m_currentFrame = m_queue->Dequeue();
    if (!m_currentFrame)
    {
        return;
    }
    m_snifferTrace(m_currentFrame);
    m_promiscSnifferTrace(m_currentFrame);
    m_phyTxBeginTrace(m_currentFrame);
    // The far end has the frame once its FCS is in; the transmitter is free after the gap.
    const Time arrival = GetFrameTime(m_currentFrame->GetSize());
    const Time busy = arrival + m_dataRate.CalculateBytesTxTime(m_interframeGap);
    Simulator::Schedule(busy, &EthernetNetDevice::TransmitComplete, this);
    m_channel->Transmit(m_currentFrame, this, arrival);
}

void
EthernetNetDevice::TransmitComplete()
{
    m_phyTxEndTrace(m_currentFrame);
    TransmitNext();
}

void
EthernetNetDevice::Receive(Ptr<Packet> frame)
{
    if (m_receiveErrorModel && m_receiveErrorModel->IsCorrupt(frame))
    {
        m_phyRxDropTrace(frame);
        return;
    }
    m_phyRxEndTrace(frame);
    m_promiscSnifferTrace(frame);
    if (!m_frameCallback.IsNull())
    {
        m_frameCallback(this, frame);
        return;
    }
    // The sender may still hold the frame for its PhyTxEnd trace; the layers above strip
    // headers in place, so they get their own copy.
    Ptr<Packet> packet = frame->Copy();
    EthernetHeader header(false);
    packet->RemoveHeader(header);
    const Mac48Address destination = header.GetDestination();
    const uint16_t protocol = header.GetLengthType();
    PacketType type;
    if (destination == m_address)
    {
        type = PACKET_HOST;
    }
    else if (destination.IsBroadcast())
    {
        type = PACKET_BROADCAST;
    }
    else if (destination.IsGroup())
    {
        type = PACKET_MULTICAST;
    }
    else
    {
        type = PACKET_OTHERHOST;
    }
    if (type != PACKET_OTHERHOST)
    {
        m_snifferTrace(frame);
    }
    if (!m_promiscCallback.IsNull())
    {
        m_macPromiscRxTrace(packet);
        m_promiscCallback(this, packet, protocol, header.GetSource(), destination, type);
    }
    if (type != PACKET_OTHERHOST)
    {
        m_macRxTrace(packet);
        m_rxCallback(this, packet, protocol, header.GetSource());
    }
}

void
EthernetNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
EthernetNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
EthernetNetDevice::GetChannel() const
{
    return m_channel;
}

void
EthernetNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
EthernetNetDevice::GetAddress() const
{
    return m_address;
}

bool
EthernetNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
EthernetNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
EthernetNetDevice::IsLinkUp() const
{
    return m_linkUp;
}

void
EthernetNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
EthernetNetDevice::IsBroadcast() const
{
    return true;
}

Address
EthernetNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
EthernetNetDevice::IsMulticast() const
{
    return true;
}

Address
EthernetNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
EthernetNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
EthernetNetDevice::IsPointToPoint() const
{
    // One cable, but Ethernet: frames are addressed and ARP resolves the addresses, and the
    // device belongs to its switch's broadcast domain. Only a cable between processes says
    // otherwise: ns-3's distributed engines take their lookahead from the cables of
    // point-to-point devices, and such a cable is known to reach one neighbour.
    return m_channel && m_channel->CrossesProcesses();
}

bool
EthernetNetDevice::IsBridge() const
{
    return false;
}

Ptr<Node>
EthernetNetDevice::GetNode() const
{
    return m_node;
}

void
EthernetNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
EthernetNetDevice::NeedsArp() const
{
    return true;
}

void
EthernetNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
EthernetNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

bool
EthernetNetDevice::SupportsSendFrom() const
{
    return true;
}

} // namespace ns3
