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
            .AddAttribute("VirtualOutputQueues",
                          "Queue packets per output inside each input buffer; false keeps one "
                          "FIFO per input lane, where a blocked head blocks the packets behind.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&IbSwitch::m_voq),
                          MakeBooleanChecker())
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
                            "A leaving packet was marked congested (output port, packet).",
                            MakeTraceSourceAccessor(&IbSwitch::m_markTrace),
                            "ns3::IbSwitch::MarkTracedCallback");
    return tid;
}

IbSwitch::IbSwitch()
    : m_voq(true),
      m_vls(0),
      m_routing(ECMP),
      m_hashSeed(0),
      m_markMin(0),
      m_markMax(0),
      m_markProbability(1.0),
      m_marking(false),
      m_marks(0),
      m_spray(0),
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
    std::size_t lanes = m_ports.size() * m_vls;
    m_queues.assign(m_voq ? lanes * m_ports.size() : lanes, Queue{NONE, NONE});
    Object::DoInitialize();
}

void
IbSwitch::DoDispose()
{
    m_ports.clear();
    m_pool.clear();
    m_queues.clear();
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
    if (m_routing == ADAPTIVE)
    {
        // The candidate with the least load: bytes waiting here for it, plus bytes it has
        // sent downstream whose credits have not come back (the next hop's backlog). Ties
        // rotate, so that an idle fabric sprays packets over every path.
        std::size_t start = m_spray++ % candidates.size();
        std::size_t pick = start;
        uint64_t best = UINT64_MAX;
        for (std::size_t i = 0; i < candidates.size(); ++i)
        {
            std::size_t c = (start + i) % candidates.size();
            uint32_t port = candidates[c];
            uint64_t load = m_backlog[port] + m_ports[port]->GetUncreditedBytes(packet.vl);
            if (load < best)
            {
                best = load;
                pick = c;
            }
        }
        return candidates[pick];
    }
    return SelectEcmpPort(packet.flowHash, packet.dst);
}

uint32_t
IbSwitch::SelectEcmpPort(uint32_t flowHash, uint32_t dst) const
{
    NS_ABORT_MSG_IF(dst >= m_routes.size() || m_routes[dst].empty(),
                    "IbSwitch on node " << m_ports[0]->GetNode()->GetId()
                                        << ": no route to endpoint " << dst);
    const std::vector<uint32_t>& candidates = m_routes[dst];
    // A multiplicative mix of the flow hash and this switch's seed: switches in one tier
    // must not all pick the same index, or ECMP would polarise onto a few paths.
    uint32_t h = (flowHash ^ m_hashSeed) * 0x9E3779B1u;
    h ^= h >> 16;
    return candidates[h % candidates.size()];
}

IbSwitch::Routing
IbSwitch::GetRouting() const
{
    return m_routing;
}

Time
IbSwitch::GetForwardingLatency() const
{
    return m_latency;
}

void
IbSwitch::PortReceive(uint32_t port, const IbPacket& packet)
{
    uint32_t output = ChooseOutput(packet);
    uint32_t lane = port * m_vls + packet.vl;
    uint32_t q = m_voq ? lane * static_cast<uint32_t>(m_ports.size()) + output : lane;
    uint32_t slot;
    if (m_freeSlots.empty())
    {
        slot = static_cast<uint32_t>(m_pool.size());
        m_pool.push_back(Held{packet, output, NONE});
    }
    else
    {
        slot = m_freeSlots.back();
        m_freeSlots.pop_back();
        m_pool[slot] = Held{packet, output, NONE};
    }
    Queue& queue = m_queues[q];
    bool wasEmpty = queue.head == NONE;
    if (wasEmpty)
    {
        queue.head = slot;
    }
    else
    {
        m_pool[queue.tail].next = slot;
    }
    queue.tail = slot;
    m_backlog[output] += packet.wireBytes;
    m_backlogTrace(output, m_backlog[output]);
    if (wasEmpty)
    {
        Enqueue(q);
    }
}

void
IbSwitch::Enqueue(uint32_t q)
{
    uint32_t output = m_pool[m_queues[q].head].output;
    m_waiting[output].push_back(q);
    if (m_ports[output]->IsTransmitterIdle())
    {
        ServeOutput(output);
    }
    else
    {
        m_ports[output]->NotifyWhenIdle();
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
    if (waiting.empty())
    {
        return;
    }
    if (!port->IsTransmitterIdle())
    {
        port->NotifyWhenIdle();
        return;
    }
    std::size_t n = waiting.size();
    std::size_t first = m_next[output] % n;
    for (std::size_t i = 0; i < n; ++i)
    {
        std::size_t slot = (first + i) % n;
        uint32_t q = waiting[slot];
        Queue& queue = m_queues[q];
        uint32_t held = queue.head;
        if (!port->HasCredits(m_pool[held].packet.vl, m_pool[held].packet.wireBytes))
        {
            continue;
        }
        IbPacket packet = m_pool[held].packet;
        queue.head = m_pool[held].next;
        if (queue.head == NONE)
        {
            queue.tail = NONE;
        }
        m_freeSlots.push_back(held);
        waiting.erase(waiting.begin() + static_cast<std::ptrdiff_t>(slot));
        m_next[output] = static_cast<uint32_t>(slot); // the queue after it is now at slot
        m_backlog[output] -= packet.wireBytes;
        m_backlogTrace(output, m_backlog[output]);
        // Only the root of congestion marks: a port that waits for credits is a victim of
        // congestion further on, and marking there would throttle innocent flows (InfiniBand
        // switches tell root from victim ports the same way).
        bool root = port->CouldSend(packet.vl, 2 * packet.wireBytes);
        if (m_marking && root && ShouldMark(output))
        {
            packet.marked = true;
            ++m_marks;
            m_markTrace(output, packet);
        }
        port->Transmit(packet);
        // The packet has left the input buffer: its credits go back upstream.
        uint32_t lane = m_voq ? q / static_cast<uint32_t>(m_ports.size()) : q;
        m_ports[lane / m_vls]->ReleaseReceiveBuffer(packet.vl, packet.wireBytes);
        if (queue.head != NONE)
        {
            Enqueue(q);
        }
        if (!waiting.empty())
        {
            port->NotifyWhenIdle();
        }
        return;
    }
}

} // namespace ns3
