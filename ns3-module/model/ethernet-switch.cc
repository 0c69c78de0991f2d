/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ethernet-switch.h"

#include "ethernet-net-device.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/packet.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EthernetSwitch");

namespace
{

/**
 * A whole frame in a port's queue disc: its header is on already, and it has no ECN field. Its
 * size is what follows the Ethernet header, so that a disc on a port counts a packet as a disc
 * above IP on the other end of the link counts it; two shapers of one rate in series then keep
 * the same pace.
 */
class FrameItem : public QueueDiscItem
{
  public:
    /// \param frame the frame, Ethernet header included
    explicit FrameItem(Ptr<Packet> frame)
        : QueueDiscItem(frame, Address(), 0)
    {
    }

    uint32_t GetSize() const override
    {
        return GetPacket()->GetSize() - EthernetNetDevice::HEADER_BYTES;
    }

    void AddHeader() override
    {
    }

    bool Mark() override
    {
        return false;
    }
};

} // namespace

NS_OBJECT_ENSURE_REGISTERED(EthernetSwitch);

TypeId
EthernetSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EthernetSwitch")
            .SetParent<Object>()
            .SetGroupName("Uniference")
            .AddConstructor<EthernetSwitch>()
            .AddAttribute("PortQueueSize",
                          "Capacity of each port's output queue (drop-tail), set on the port "
                          "when it is added.",
                          QueueSizeValue(QueueSize("100p")),
                          MakeQueueSizeAccessor(&EthernetSwitch::m_portQueueSize),
                          MakeQueueSizeChecker())
            .AddAttribute("Learning",
                          "Whether the switch learns the port of every frame's source address.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&EthernetSwitch::m_learning),
                          MakeBooleanChecker())
            .AddAttribute("HashSeed",
                          "Salts the flow hash that chooses among equal-cost ports, so that "
                          "switches of one tier spread flows independently.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&EthernetSwitch::m_hashSeed),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("Drop",
                            "A frame did not fit in the output queue of a port.",
                            MakeTraceSourceAccessor(&EthernetSwitch::m_dropTrace),
                            "ns3::EthernetSwitch::PortTracedCallback")
            .AddTraceSource("Flood",
                            "A frame to a broadcast, multicast or unknown address, flooded to "
                            "every port but the one it came in on.",
                            MakeTraceSourceAccessor(&EthernetSwitch::m_floodTrace),
                            "ns3::EthernetSwitch::PortTracedCallback");
    return tid;
}

EthernetSwitch::EthernetSwitch()
    : m_learning(true),
      m_hashSeed(0)
{
}

EthernetSwitch::~EthernetSwitch() = default;

void
EthernetSwitch::DoDispose()
{
    for (const Ptr<EthernetNetDevice>& port : m_ports)
    {
        port->SetFrameReceiveCallback(
            MakeNullCallback<void, Ptr<EthernetNetDevice>, Ptr<Packet>>());
    }
    // A disc and its port's queue interface hold each other through the wake callback.
    for (const Ptr<QueueDisc>& disc : m_portDiscs)
    {
        if (disc)
        {
            disc->Dispose();
        }
    }
    m_portDiscs.clear();
    m_ports.clear();
    m_table.clear();
    Object::DoDispose();
}

uint32_t
EthernetSwitch::AddPort(Ptr<EthernetNetDevice> port)
{
    NS_LOG_FUNCTION(this << port);
    Ptr<Queue<Packet>> queue = CreateObject<DropTailQueue<Packet>>();
    queue->SetMaxSize(m_portQueueSize);
    port->SetQueue(queue);
    // Bound to the port's index, so that a frame needs no search for where it came in.
    const uint32_t index = m_ports.size();
    port->SetFrameReceiveCallback(MakeCallback(&EthernetSwitch::Receive, this).Bind(index));
    m_ports.push_back(port);
    m_portDiscs.emplace_back();
    return index;
}

void
EthernetSwitch::SetPortQueueDisc(uint32_t port, Ptr<QueueDisc> disc)
{
    NS_LOG_FUNCTION(this << port << disc);
    NS_ABORT_MSG_UNLESS(port < m_ports.size(), "EthernetSwitch: no port " << port);
    NS_ABORT_MSG_IF(m_portDiscs[port], "EthernetSwitch: port " << port << " has a queue disc");
    NS_ABORT_MSG_UNLESS(disc, "EthernetSwitch: null queue disc for port " << port);
    // Wired as ns-3's TrafficControlLayer wires a root disc to its device: the port's queue
    // stops the disc when it is full and wakes it as it drains, so the backlog stays in the disc.
    Ptr<EthernetNetDevice> device = m_ports[port];
    Ptr<NetDeviceQueueInterface> queueInterface = device->GetObject<NetDeviceQueueInterface>();
    if (!queueInterface)
    {
        queueInterface = CreateObject<NetDeviceQueueInterface>();
        device->AggregateObject(queueInterface);
    }
    Ptr<NetDeviceQueue> txQueue = queueInterface->GetTxQueue(0);
    txQueue->ConnectQueueTraces(device->GetQueue());
    txQueue->SetWakeCallback(MakeCallback(&QueueDisc::Run, disc));
    disc->SetNetDeviceQueueInterface(queueInterface);
    disc->SetSendCallback(
        [device](Ptr<QueueDiscItem> item) { device->SendFrame(item->GetPacket()); });
    disc->TraceConnectWithoutContext(
        "Drop",
        MakeCallback(&EthernetSwitch::DiscDrop, this).Bind(port));
    disc->Initialize();
    m_portDiscs[port] = disc;
}

Ptr<QueueDisc>
EthernetSwitch::GetPortQueueDisc(uint32_t port) const
{
    NS_ABORT_MSG_UNLESS(port < m_ports.size(), "EthernetSwitch: no port " << port);
    return m_portDiscs[port];
}

void
EthernetSwitch::AddEntry(Mac48Address address, uint32_t port)
{
    NS_ABORT_MSG_UNLESS(port < m_ports.size(), "EthernetSwitch: no port " << port);
    NS_ABORT_MSG_IF(address.IsGroup(), "EthernetSwitch: " << address << " is not unicast");
    m_table[Key(address)] = Entry{port, 0, 0, true};
}

void
EthernetSwitch::AddEntry(Mac48Address address, const std::vector<uint32_t>& ports)
{
    NS_ABORT_MSG_IF(ports.empty(), "EthernetSwitch: no port for " << address);
    AddEntry(address, ports.front());
    if (ports.size() > 1)
    {
        for (uint32_t port : ports)
        {
            NS_ABORT_MSG_UNLESS(port < m_ports.size(), "EthernetSwitch: no port " << port);
        }
        Entry& entry = m_table[Key(address)];
        entry.ecmpFirst = static_cast<uint32_t>(m_ecmpPorts.size());
        entry.ecmpCount = static_cast<uint32_t>(ports.size());
        m_ecmpPorts.insert(m_ecmpPorts.end(), ports.begin(), ports.end());
    }
}

uint32_t
EthernetSwitch::GetNPorts() const
{
    return m_ports.size();
}

Ptr<EthernetNetDevice>
EthernetSwitch::GetPort(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < m_ports.size(), "EthernetSwitch: no port " << i);
    return m_ports[i];
}

uint32_t
EthernetSwitch::LookupPort(Mac48Address address) const
{
    auto it = m_table.find(Key(address));
    return it == m_table.end() ? GetNPorts() : it->second.port;
}

uint32_t
EthernetSwitch::FlowHash(Ptr<const Packet> frame) const
{
    // Ethernet II (14 bytes), then an IPv4 header of IHL words and the transport's ports.
    constexpr uint32_t ip = EthernetNetDevice::HEADER_BYTES;
    uint8_t bytes[ip + 60 + 4];
    const uint32_t n = frame->CopyData(bytes, sizeof(bytes));
    const auto word = [&bytes](uint32_t at) {
        return uint32_t(bytes[at]) << 24 | uint32_t(bytes[at + 1]) << 16 |
               uint32_t(bytes[at + 2]) << 8 | bytes[at + 3];
    };
    // Each word is folded in by a multiply and a rotation, starting from this switch's seed,
    // and the result avalanched (every input bit flips each output bit with probability about
    // one half): two switches of different seeds then choose among their ports as two
    // unrelated draws, and ECMP does not polarise. Without the avalanche, the low bits that
    // pick the port came out alike for seeds 0 and 1 on every flow.
    uint32_t h = m_hashSeed;
    const auto mix = [&h](uint32_t w) {
        h = (h ^ w) * 0x9E3779B1u;
        h = h << 13 | h >> 19;
    };
    const auto avalanche = [&h]() {
        h ^= h >> 16;
        h *= 0x85EBCA6Bu;
        h ^= h >> 13;
        h *= 0xC2B2AE35u;
        h ^= h >> 16;
        return h;
    };
    const bool ipv4 = n >= ip + 20 && bytes[12] == 0x08 && bytes[13] == 0x00;
    if (!ipv4)
    {
        for (uint32_t at = 0; at + 4 <= std::min<uint32_t>(n, 12); at += 4)
        {
            mix(word(at));
        }
        return avalanche();
    }
    const uint8_t protocol = bytes[ip + 9];
    mix(word(ip + 12)); // source
    mix(word(ip + 16)); // destination
    mix(protocol);
    const uint32_t ports = ip + 4 * (bytes[ip] & 0x0F);
    if ((protocol == 6 || protocol == 17) && n >= ports + 4)
    {
        mix(word(ports));
    }
    return avalanche();
}

uint64_t
EthernetSwitch::Key(Mac48Address address)
{
    uint8_t bytes[6];
    address.CopyTo(bytes);
    return Key(bytes);
}

uint64_t
EthernetSwitch::Key(const uint8_t* bytes)
{
    uint64_t key = 0;
    for (int i = 0; i < 6; ++i)
    {
        key = key << 8 | bytes[i];
    }
    return key;
}

void
EthernetSwitch::Receive(uint32_t in, Ptr<EthernetNetDevice> port, Ptr<Packet> frame)
{
    // Per frame: no logging, no header object; the addresses are the frame's first 12 bytes.
    uint8_t addresses[12];
    if (frame->CopyData(addresses, sizeof(addresses)) < sizeof(addresses))
    {
        return; // a runt: not a frame a switch forwards
    }
    const bool groupSource = addresses[6] & 1;
    if (m_learning && !groupSource)
    {
        Entry& entry = m_table.try_emplace(Key(addresses + 6), Entry{in, 0, 0, false}).first->second;
        if (!entry.fixed)
        {
            entry.port = in;
        }
    }

    const bool groupDestination = addresses[0] & 1;
    if (!groupDestination)
    {
        auto entry = m_table.find(Key(addresses));
        if (entry != m_table.end())
        {
            const Entry& e = entry->second;
            const uint32_t out =
                e.ecmpCount > 1 ? m_ecmpPorts[e.ecmpFirst + FlowHash(frame) % e.ecmpCount] : e.port;
            if (out != in)
            {
                Output(out, frame);
            }
            return;
        }
    }
    m_floodTrace(frame, in);
    for (uint32_t out = 0; out < m_ports.size(); ++out)
    {
        if (out != in)
        {
            Output(out, frame->Copy());
        }
    }
}

void
EthernetSwitch::Output(uint32_t out, Ptr<Packet> frame)
{
    if (const Ptr<QueueDisc>& disc = m_portDiscs[out])
    {
        // A frame has no network protocol for the disc; a drop comes back through DiscDrop.
        disc->Enqueue(Create<FrameItem>(frame));
        disc->Run();
        return;
    }
    if (!m_ports[out]->SendFrame(frame))
    {
        m_dropTrace(frame, out);
    }
}

void
EthernetSwitch::DiscDrop(uint32_t port, Ptr<const QueueDiscItem> item)
{
    m_dropTrace(item->GetPacket(), port);
}

} // namespace ns3
