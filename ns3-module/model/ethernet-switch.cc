/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ethernet-switch.h"

#include "ethernet-net-device.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/trace-source-accessor.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EthernetSwitch");

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
    : m_learning(true)
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
    return index;
}

void
EthernetSwitch::AddEntry(Mac48Address address, uint32_t port)
{
    NS_ABORT_MSG_UNLESS(port < m_ports.size(), "EthernetSwitch: no port " << port);
    NS_ABORT_MSG_IF(address.IsGroup(), "EthernetSwitch: " << address << " is not unicast");
    m_table[Key(address)] = Entry{port, true};
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
        Entry& entry = m_table.try_emplace(Key(addresses + 6), Entry{in, false}).first->second;
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
            if (entry->second.port != in)
            {
                Output(entry->second.port, frame);
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
    if (!m_ports[out]->SendFrame(frame))
    {
        m_dropTrace(frame, out);
    }
}

} // namespace ns3
