/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-switch.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbSwitch");

NS_OBJECT_ENSURE_REGISTERED(IbSwitch);

TypeId
IbSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IbSwitch")
            .SetParent<Object>()
            .SetGroupName("Uniference")
            .AddConstructor<IbSwitch>()
            .AddAttribute("Routing",
                          "How to choose among equal-cost output ports: per flow by hash "
                          "(ECMP) or per packet, least backlog first (Adaptive).",
                          EnumValue(IbSwitch::ECMP),
                          MakeEnumAccessor(&IbSwitch::m_routing),
                          MakeEnumChecker(IbSwitch::ECMP, "ECMP", IbSwitch::ADAPTIVE, "Adaptive"))
            .AddAttribute("HashSeed",
                          "Salts the flow hash, so that switches of one tier spread flows "
                          "independently.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&IbSwitch::m_hashSeed),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ForwardingLatency",
                          "From a packet's header arriving to the packet being able to leave.",
                          TimeValue(NanoSeconds(100)),
                          MakeTimeAccessor(&IbSwitch::m_latency),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Marking",
                          "Mark packets leaving congested outputs (FECN / ECN).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&IbSwitch::m_marking),
                          MakeBooleanChecker())
            .AddAttribute("MarkingMinBytes",
                          "Backlog of an output above which its packets may be marked.",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&IbSwitch::m_markMin),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("MarkingMaxBytes",
                          "Backlog above which every packet is marked.",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&IbSwitch::m_markMax),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("MarkingProbability",
                          "Marking probability at MarkingMaxBytes (linear from 0 at "
                          "MarkingMinBytes).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&IbSwitch::m_markProbability),
                          MakeDoubleChecker<double>(0, 1))
            .AddTraceSource("Backlog",
                            "Bytes waiting for an output port changed (port, bytes).",
                            MakeTraceSourceAccessor(&IbSwitch::m_backlogTrace),
                            "ns3::IbSwitch::BacklogTracedCallback")
            .AddTraceSource("Mark",
                            "A leaving packet was marked congested.",
                            MakeTraceSourceAccessor(&IbSwitch::m_markTrace),
                            "ns3::IbNetDevice::PacketTracedCallback");
    return tid;
}

IbSwitch::IbSwitch()
    : m_vls(0),
      m_routing(ECMP),
      m_hashSeed(0),
      m_markMin(0),
      m_markMax(0),
      m_markProbability(1.0),
      m_marking(false),
      m_marks(0),
      m_random(CreateObject<UniformRandomVariable>())
{
}

IbSwitch::~IbSwitch() = default;

void
IbSwitch::DoInitialize()
{
    // ForwardingLatency may have been set after the ports were added.
    for (auto& port : m_ports)
    {
        port->SetProcessingDelay(m_latency);
    }
    Object::DoInitialize();
}

void
IbSwitch::DoDispose()
{
    m_ports.clear();
    m_lanes.clear();
    m_random = nullptr;
    Object::DoDispose();
}

uint32_t
IbSwitch::AddPort(Ptr<IbNetDevice> port)
{
    NS_LOG_FUNCTION(this << port);
    if (m_ports.empty())
    {
        m_vls = port->GetVirtualLanes();
    }
    NS_ABORT_MSG_IF(port->GetVirtualLanes() != m_vls,
                    "IbSwitch: every port of a switch has the same number of virtual lanes");
    auto index = static_cast<uint32_t>(m_ports.size());
    port->SetAttribute("CutThrough", BooleanValue(true));
    port->SetProcessingDelay(m_latency);
    port->SetOwner(this, index);
    m_ports.push_back(port);
    m_lanes.resize(m_ports.size() * m_vls);
    m_waiting.resize(m_ports.size());
    m_next.resize(m_ports.size(), 0);
    m_backlog.resize(m_ports.size(), 0);
    return index;
}

void
IbSwitch::SetRoute(uint32_t dst, const std::vector<uint32_t>& ports)
{
    NS_ABORT_MSG_IF(ports.empty(), "IbSwitch: a route to endpoint " << dst << " needs a port");
    for (uint32_t p : ports)
    {
        NS_ABORT_MSG_UNLESS(p < m_ports.size(), "IbSwitch: no port " << p);
    }
    if (dst >= m_routes.size())
    {
        m_routes.resize(dst + 1);
    }
    m_routes[dst] = ports;
}

const std::vector<uint32_t>&
IbSwitch::GetRoute(uint32_t dst) const
{
    static const std::vector<uint32_t> none;
    return dst < m_routes.size() ? m_routes[dst] : none;
}

uint32_t
IbSwitch::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<IbNetDevice>
IbSwitch::GetPort(uint32_t i) const
{
    return m_ports.at(i);
}

uint64_t
IbSwitch::GetBacklog(uint32_t port) const
{
    return m_backlog.at(port);
}

uint64_t
IbSwitch::GetMarks() const
{
    return m_marks;
}

int64_t
IbSwitch::AssignStreams(int64_t stream)
{
    m_random->SetStream(stream);
    return 1;
}

uint32_t
IbSwitch::ChooseOutput(const IbPacket& packet)
{
    NS_ABORT_MSG_IF(packet.dst >= m_routes.size() || m_routes[packet.dst].empty(),
                    "IbSwitch on node " << m_ports[0]->GetNode()->GetId()
                                        << ": no route to endpoint " << packet.dst);
    const std::vector<uint32_t>& candidates = m_routes[packet.dst];
    if (candidates.size() == 1)
    {
        return candidates[0];
    }
    // A multiplicative mix of the flow hash and this switch's seed: switches in one tier
    // must not all pick the same index, or ECMP would polarise onto a few paths.
    uint32_t h = (packet.flowHash ^ m_hashSeed) * 0x9E3779B1u;
    h ^= h >> 16;
    std::size_t pick = h % candidates.size();
    if (m_routing == ADAPTIVE)
    {
        for (std::size_t i = 1; i < candidates.size(); ++i)
        {
            std::size_t c = (pick + i) % candidates.size();
            if (m_backlog[candidates[c]] < m_backlog[candidates[pick]])
            {
                pick = c;
            }
        }
    }
    return candidates[pick];
}

void
IbSwitch::PortReceive(uint32_t port, const IbPacket& packet)
{
    uint32_t output = ChooseOutput(packet);
    uint32_t lane = port * m_vls + packet.vl;
    m_lanes[lane].push_back(Held{packet, output});
    m_backlog[output] += packet.wireBytes;
    m_backlogTrace(output, m_backlog[output]);
    if (m_lanes[lane].size() == 1)
    {
        Enqueue(lane);
    }
}

void
IbSwitch::Enqueue(uint32_t lane)
{
    uint32_t output = m_lanes[lane].front().output;
    m_waiting[output].push_back(lane);
    if (m_ports[output]->IsTransmitterIdle())
    {
        ServeOutput(output);
    }
}

void
IbSwitch::PortReady(uint32_t port)
{
    ServeOutput(port);
}

bool
IbSwitch::ShouldMark(uint32_t output)
{
    uint64_t backlog = m_backlog[output];
    if (backlog <= m_markMin)
    {
        return false;
    }
    if (backlog > m_markMax)
    {
        return true;
    }
    double p = m_markProbability * static_cast<double>(backlog - m_markMin) /
               static_cast<double>(m_markMax - m_markMin);
    return m_random->GetValue() < p;
}

void
IbSwitch::ServeOutput(uint32_t output)
{
    IbNetDevice* port = PeekPointer(m_ports[output]);
    std::vector<uint32_t>& waiting = m_waiting[output];
    if (!port->IsTransmitterIdle() || waiting.empty())
    {
        return;
    }
    std::size_t n = waiting.size();
    std::size_t first = m_next[output] % n;
    for (std::size_t i = 0; i < n; ++i)
    {
        std::size_t slot = (first + i) % n;
        uint32_t lane = waiting[slot];
        std::deque<Held>& fifo = m_lanes[lane];
        IbPacket packet = fifo.front().packet;
        if (!port->HasCredits(packet.vl, packet.wireBytes))
        {
            continue;
        }
        fifo.pop_front();
        waiting.erase(waiting.begin() + static_cast<std::ptrdiff_t>(slot));
        m_next[output] = static_cast<uint32_t>(slot); // the lane after it is now at slot
        m_backlog[output] -= packet.wireBytes;
        m_backlogTrace(output, m_backlog[output]);
        if (m_marking && ShouldMark(output))
        {
            packet.marked = true;
            ++m_marks;
            m_markTrace(packet);
        }
        port->Transmit(packet);
        // The packet has left the input buffer: its credits go back upstream.
        m_ports[lane / m_vls]->ReleaseReceiveBuffer(packet.vl, packet.wireBytes);
        if (!fifo.empty())
        {
            Enqueue(lane);
        }
        return;
    }
}

} // namespace ns3
