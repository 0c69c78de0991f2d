/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-fabric-helper.h"

#include "ns3/abort.h"
#include "ns3/ib-channel.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>
#include <queue>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbFabricHelper");

IbFabricHelper::IbFabricHelper()
    : m_nEndpoints(0),
      m_nSwitches(0),
      m_installed(false),
      m_partitions(1),
      m_cutCables(0)
{
    m_deviceFactory.SetTypeId("ns3::IbNetDevice");
    m_channelFactory.SetTypeId("ns3::IbChannel");
    m_switchFactory.SetTypeId("ns3::IbSwitch");
    m_transportFactory.SetTypeId("ns3::RdmaMessageTransport");
    m_classes.push_back(LinkClass{DataRate(0), Time(0)});
}

void
IbFabricHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
IbFabricHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

void
IbFabricHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

void
IbFabricHelper::SetTransportAttribute(const std::string& name, const AttributeValue& value)
{
    m_transportFactory.Set(name, value);
}

uint32_t
IbFabricHelper::AddLinkClass(DataRate rate, Time delay)
{
    m_classes.push_back(LinkClass{rate, delay});
    return static_cast<uint32_t>(m_classes.size() - 1);
}

IbFabricHelper::Vertex
IbFabricHelper::AddEndpoint()
{
    NS_ABORT_MSG_IF(m_installed, "IbFabricHelper: the fabric is already installed");
    return Vertex{false, m_nEndpoints++};
}

IbFabricHelper::Vertex
IbFabricHelper::AddSwitch(const std::string& name)
{
    NS_ABORT_MSG_IF(m_installed, "IbFabricHelper: the fabric is already installed");
    m_switchNames.push_back(name.empty() ? "switch" + std::to_string(m_nSwitches) : name);
    m_switchSpread.emplace_back(0, 1);
    return Vertex{true, m_nSwitches++};
}

void
IbFabricHelper::Connect(Vertex a, Vertex b, uint32_t linkClass)
{
    NS_ABORT_MSG_IF(m_installed, "IbFabricHelper: the fabric is already installed");
    NS_ABORT_MSG_UNLESS(linkClass < m_classes.size(),
                        "IbFabricHelper: no link class " << linkClass);
    m_edges.push_back(Edge{a, b, linkClass});
}

void
IbFabricHelper::Star(uint32_t n)
{
    NS_ABORT_MSG_IF(n == 0, "IbFabricHelper::Star: no endpoints");
    Vertex hub = AddSwitch("hub");
    for (uint32_t i = 0; i < n; ++i)
    {
        Connect(AddEndpoint(), hub);
    }
}

void
IbFabricHelper::LeafSpine(uint32_t leaves, uint32_t spines, uint32_t endpointsPerLeaf)
{
    NS_ABORT_MSG_IF(leaves == 0 || endpointsPerLeaf == 0,
                    "IbFabricHelper::LeafSpine: needs leaves and endpoints");
    NS_ABORT_MSG_IF(leaves > 1 && spines == 0,
                    "IbFabricHelper::LeafSpine: " << leaves << " leaves need a spine");
    std::vector<Vertex> spine;
    for (uint32_t s = 0; s < spines; ++s)
    {
        spine.push_back(AddSwitch("spine" + std::to_string(s)));
        Spread(spine.back(), s, spines);
    }
    for (uint32_t l = 0; l < leaves; ++l)
    {
        Vertex leaf = AddSwitch("leaf" + std::to_string(l));
        Spread(leaf, l, leaves);
        for (uint32_t e = 0; e < endpointsPerLeaf; ++e)
        {
            Connect(AddEndpoint(), leaf);
        }
        for (const Vertex& s : spine)
        {
            Connect(leaf, s);
        }
    }
}

void
IbFabricHelper::FatTree(uint32_t k)
{
    NS_ABORT_MSG_IF(k < 2 || k % 2 != 0,
                    "IbFabricHelper::FatTree: k must be even and at least 2, not " << k);
    uint32_t half = k / 2;
    std::vector<Vertex> core;
    for (uint32_t c = 0; c < half * half; ++c)
    {
        core.push_back(AddSwitch("core" + std::to_string(c)));
        Spread(core.back(), c, half * half);
    }
    for (uint32_t pod = 0; pod < k; ++pod)
    {
        std::vector<Vertex> aggregation;
        for (uint32_t a = 0; a < half; ++a)
        {
            aggregation.push_back(
                AddSwitch("pod" + std::to_string(pod) + "-agg" + std::to_string(a)));
            Spread(aggregation.back(), pod, k);
            // Aggregation switch a of every pod reaches the same group of half cores.
            for (uint32_t j = 0; j < half; ++j)
            {
                Connect(aggregation.back(), core[a * half + j]);
            }
        }
        for (uint32_t e = 0; e < half; ++e)
        {
            Vertex edge = AddSwitch("pod" + std::to_string(pod) + "-edge" + std::to_string(e));
            Spread(edge, pod, k);
            for (uint32_t h = 0; h < half; ++h)
            {
                Connect(AddEndpoint(), edge);
            }
            for (const Vertex& a : aggregation)
            {
                Connect(edge, a);
            }
        }
    }
}

void
IbFabricHelper::RailOptimised(uint32_t servers,
                              uint32_t gpusPerServer,
                              uint32_t spines,
                              uint32_t intraClass)
{
    NS_ABORT_MSG_IF(servers == 0 || gpusPerServer == 0,
                    "IbFabricHelper::RailOptimised: needs servers and GPUs");
    NS_ABORT_MSG_IF(gpusPerServer > 1 && servers > 1 && spines == 0,
                    "IbFabricHelper::RailOptimised: rails need a spine to reach each other");
    std::vector<Vertex> rails;
    for (uint32_t g = 0; g < gpusPerServer; ++g)
    {
        rails.push_back(AddSwitch("rail" + std::to_string(g)));
        Spread(rails.back(), g, gpusPerServer);
    }
    for (uint32_t s = 0; s < spines; ++s)
    {
        Vertex spine = AddSwitch("spine" + std::to_string(s));
        Spread(spine, s, spines);
        for (const Vertex& rail : rails)
        {
            Connect(rail, spine);
        }
    }
    for (uint32_t server = 0; server < servers; ++server)
    {
        Vertex inside = AddSwitch("server" + std::to_string(server));
        Spread(inside, server, servers);
        for (uint32_t g = 0; g < gpusPerServer; ++g)
        {
            Vertex gpu = AddEndpoint();
            Connect(gpu, inside, intraClass);
            Connect(gpu, rails[g]);
        }
    }
}

void
IbFabricHelper::TwoTier(uint32_t servers,
                        uint32_t gpusPerServer,
                        uint32_t tierSwitches,
                        uint32_t intraClass)
{
    NS_ABORT_MSG_IF(servers == 0 || gpusPerServer == 0,
                    "IbFabricHelper::TwoTier: needs servers and GPUs");
    NS_ABORT_MSG_IF(servers > 1 && tierSwitches == 0,
                    "IbFabricHelper::TwoTier: servers need a tier switch to reach each other");
    std::vector<Vertex> tier;
    for (uint32_t t = 0; t < tierSwitches; ++t)
    {
        tier.push_back(AddSwitch("tier" + std::to_string(t)));
        Spread(tier.back(), t, tierSwitches);
    }
    for (uint32_t server = 0; server < servers; ++server)
    {
        Vertex inside = AddSwitch("server" + std::to_string(server));
        Spread(inside, server, servers);
        for (uint32_t g = 0; g < gpusPerServer; ++g)
        {
            Connect(AddEndpoint(), inside, intraClass);
        }
        for (const Vertex& t : tier)
        {
            Connect(inside, t);
        }
    }
}

void
IbFabricHelper::SetPlacement(const std::vector<uint32_t>& placement)
{
    m_placement = placement;
}

void
IbFabricHelper::SetPartitions(uint32_t processes)
{
    NS_ABORT_MSG_IF(m_installed, "IbFabricHelper: the fabric is already installed");
    NS_ABORT_MSG_IF(processes == 0, "IbFabricHelper::SetPartitions: at least one process");
    m_partitions = processes;
}

void
IbFabricHelper::SetSwitchPartition(Vertex sw, uint32_t process)
{
    NS_ABORT_MSG_UNLESS(sw.isSwitch && sw.index < m_nSwitches,
                        "IbFabricHelper::SetSwitchPartition: not a switch");
    m_switchSpread[sw.index] = {process, 0};
}

void
IbFabricHelper::Spread(Vertex sw, uint32_t index, uint32_t of)
{
    m_switchSpread[sw.index] = {index, of};
}

uint32_t
IbFabricHelper::PartitionOf(const Vertex& v) const
{
    NS_ASSERT(v.isSwitch);
    const auto& [index, of] = m_switchSpread[v.index];
    if (of == 0)
    {
        NS_ABORT_MSG_UNLESS(index < m_partitions,
                            "IbFabricHelper: switch " << m_switchNames[v.index] << " pinned to process "
                                                      << index << " of " << m_partitions);
        return index;
    }
    // Tier member `index` of `of` goes to the process that holds the same share of the tier.
    return static_cast<uint32_t>(uint64_t(index) * m_partitions / of);
}

uint32_t
IbFabricHelper::GetEndpointPartition(uint32_t id) const
{
    NS_ABORT_MSG_UNLESS(m_installed, "IbFabricHelper: not installed yet");
    return m_endpointPartition.at(id);
}

uint32_t
IbFabricHelper::GetNCutCables() const
{
    return m_cutCables;
}

void
IbFabricHelper::Install()
{
    NS_ABORT_MSG_IF(m_installed, "IbFabricHelper: Install runs once");
    NS_ABORT_MSG_IF(m_nEndpoints == 0, "IbFabricHelper: no endpoints");
    m_installed = true;

    // Endpoint ids: the placement first, then the rest in order.
    const uint32_t unset = std::numeric_limits<uint32_t>::max();
    m_idOfEndpoint.assign(m_nEndpoints, unset);
    for (uint32_t id = 0; id < m_placement.size(); ++id)
    {
        uint32_t endpoint = m_placement[id];
        NS_ABORT_MSG_UNLESS(endpoint < m_nEndpoints,
                            "IbFabricHelper: placement puts id " << id << " on endpoint " << endpoint
                                                                 << " of " << m_nEndpoints);
        NS_ABORT_MSG_UNLESS(m_idOfEndpoint[endpoint] == unset,
                            "IbFabricHelper: placement puts two ids on endpoint " << endpoint);
        m_idOfEndpoint[endpoint] = id;
    }
    uint32_t nextId = static_cast<uint32_t>(m_placement.size());
    for (uint32_t& id : m_idOfEndpoint)
    {
        if (id == unset)
        {
            id = nextId++;
        }
    }

    // An endpoint runs in the process of the switch its first cable ends on.
    std::vector<uint32_t> endpointProcess(m_nEndpoints, unset);
    for (const Edge& edge : m_edges)
    {
        for (const auto& [end, other] : {std::pair(edge.a, edge.b), std::pair(edge.b, edge.a)})
        {
            if (!end.isSwitch && other.isSwitch && end.index < m_nEndpoints &&
                endpointProcess[end.index] == unset)
            {
                endpointProcess[end.index] = PartitionOf(other);
            }
        }
    }
    m_endpointPartition.assign(m_nEndpoints, 0);
    for (uint32_t e = 0; e < m_nEndpoints; ++e)
    {
        endpointProcess[e] = endpointProcess[e] == unset ? 0 : endpointProcess[e];
        m_endpointPartition[m_idOfEndpoint[e]] = endpointProcess[e];
    }
    ObjectFactory remoteChannels = m_channelFactory;
    if (m_partitions > 1)
    {
        TypeId remote;
        NS_ABORT_MSG_UNLESS(TypeId::LookupByNameFailSafe("ns3::IbRemoteChannel", &remote),
                            "IbFabricHelper: a fabric cut across "
                                << m_partitions
                                << " processes needs ns-3's mpi module, and this build of the "
                                   "module has none (ns3::IbRemoteChannel)");
        remoteChannels.SetTypeId(remote);
    }

    for (uint32_t e = 0; e < m_nEndpoints; ++e)
    {
        Ptr<Node> node = CreateObject<Node>(endpointProcess[e]);
        Ptr<RdmaMessageTransport> transport = m_transportFactory.Create<RdmaMessageTransport>();
        transport->SetEndpointId(m_idOfEndpoint[e]);
        transport->SetStartTime(Seconds(0));
        node->AddApplication(transport);
        m_endpointNodes.push_back(node);
        m_transports.push_back(transport);
    }
    std::vector<Ptr<Node>> switchNodes;
    for (uint32_t s = 0; s < m_nSwitches; ++s)
    {
        Ptr<Node> node = CreateObject<Node>(PartitionOf(Vertex{true, s}));
        Ptr<IbSwitch> sw = m_switchFactory.Create<IbSwitch>();
        // Each switch salts the flow hash differently (HashSeed + its index), or every tier
        // would make the same choice and ECMP would polarise.
        UintegerValue seed;
        sw->GetAttribute("HashSeed", seed);
        sw->SetAttribute("HashSeed", UintegerValue(static_cast<uint32_t>(seed.Get() + s)));
        node->AggregateObject(sw);
        switchNodes.push_back(node);
        m_switches.push_back(sw);
    }

    // Vertices for routing: endpoints 0..E-1, then switches.
    uint32_t vertices = m_nEndpoints + m_nSwitches;
    auto vertexOf = [this](const Vertex& v) { return v.isSwitch ? m_nEndpoints + v.index : v.index; };
    // adjacency[v]: (neighbour, edge).
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> adjacency(vertices);
    std::vector<int64_t> edgeCost;
    m_edgePorts.clear();
    for (uint32_t i = 0; i < m_edges.size(); ++i)
    {
        const Edge& edge = m_edges[i];
        NS_ABORT_MSG_IF(!edge.a.isSwitch && edge.a.index >= m_nEndpoints,
                        "IbFabricHelper: no endpoint " << edge.a.index);
        NS_ABORT_MSG_IF(!edge.b.isSwitch && edge.b.index >= m_nEndpoints,
                        "IbFabricHelper: no endpoint " << edge.b.index);
        NS_ABORT_MSG_IF(edge.a.isSwitch && edge.a.index >= m_nSwitches,
                        "IbFabricHelper: no switch " << edge.a.index);
        NS_ABORT_MSG_IF(edge.b.isSwitch && edge.b.index >= m_nSwitches,
                        "IbFabricHelper: no switch " << edge.b.index);
        Ptr<Node> nodeA = edge.a.isSwitch ? switchNodes[edge.a.index] : m_endpointNodes[edge.a.index];
        Ptr<Node> nodeB = edge.b.isSwitch ? switchNodes[edge.b.index] : m_endpointNodes[edge.b.index];
        const bool cut = nodeA->GetSystemId() != nodeB->GetSystemId();
        m_cutCables += cut ? 1 : 0;
        Ptr<IbChannel> channel = (cut ? remoteChannels : m_channelFactory).Create<IbChannel>();
        const LinkClass& cls = m_classes[edge.linkClass];
        if (edge.linkClass != 0)
        {
            channel->SetAttribute("Delay", TimeValue(cls.delay));
        }
        uint32_t ports[2];
        Ptr<IbNetDevice> first;
        const Vertex* ends[2] = {&edge.a, &edge.b};
        for (int end = 0; end < 2; ++end)
        {
            const Vertex& v = *ends[end];
            Ptr<IbNetDevice> device = m_deviceFactory.Create<IbNetDevice>();
            if (edge.linkClass != 0)
            {
                device->SetAttribute("DataRate", DataRateValue(cls.rate));
            }
            Ptr<Node> node = v.isSwitch ? switchNodes[v.index] : m_endpointNodes[v.index];
            node->AddDevice(device);
            device->Attach(channel);
            ports[end] = v.isSwitch ? m_switches[v.index]->AddPort(device)
                                    : m_transports[v.index]->AddPort(device);
            m_ports.push_back(device);
            first = first ? first : device;
        }
        // A hop costs its delay and one full packet's serialisation: with it, a faster cable
        // wins a tie in hop count (NVLink inside a server over the NIC and a leaf).
        int64_t cost = channel->GetDelay().GetPicoSeconds() +
                       static_cast<int64_t>(8e12 * (first->GetPayloadMtu() + first->GetHeaderBytes()) /
                                            static_cast<double>(first->GetDataRate().GetBitRate()));
        edgeCost.push_back(std::max<int64_t>(cost, 1));
        adjacency[vertexOf(edge.a)].emplace_back(vertexOf(edge.b), i);
        adjacency[vertexOf(edge.b)].emplace_back(vertexOf(edge.a), i);
        m_edgePorts.push_back({ports[0], ports[1]});
    }
    ComputeRoutes(adjacency, edgeCost);
}

void
IbFabricHelper::ComputeRoutes(
    const std::vector<std::vector<std::pair<uint32_t, uint32_t>>>& adjacency,
    const std::vector<int64_t>& edgeCost)
{
    const int64_t infinity = std::numeric_limits<int64_t>::max();
    uint32_t vertices = static_cast<uint32_t>(adjacency.size());
    std::vector<int64_t> dist(vertices);
    // The port an edge has at one of its ends.
    auto portAt = [this](uint32_t edge, uint32_t vertex) {
        const Edge& e = m_edges[edge];
        uint32_t a = e.a.isSwitch ? m_nEndpoints + e.a.index : e.a.index;
        return a == vertex ? m_edgePorts[edge].first : m_edgePorts[edge].second;
    };
    for (uint32_t d = 0; d < m_nEndpoints; ++d)
    {
        // Shortest paths towards endpoint d; endpoints do not forward.
        std::fill(dist.begin(), dist.end(), infinity);
        dist[d] = 0;
        using Item = std::pair<int64_t, uint32_t>;
        std::priority_queue<Item, std::vector<Item>, std::greater<Item>> frontier;
        frontier.emplace(0, d);
        while (!frontier.empty())
        {
            auto [cost, v] = frontier.top();
            frontier.pop();
            if (cost != dist[v] || (v < m_nEndpoints && v != d))
            {
                continue;
            }
            for (const auto& [u, edge] : adjacency[v])
            {
                int64_t through = cost + edgeCost[edge];
                if (through < dist[u])
                {
                    dist[u] = through;
                    frontier.emplace(through, u);
                }
            }
        }
        uint32_t id = m_idOfEndpoint[d];
        for (uint32_t v = 0; v < vertices; ++v)
        {
            if (v == d)
            {
                continue;
            }
            NS_ABORT_MSG_IF(dist[v] == infinity && v < m_nEndpoints,
                            "IbFabricHelper: endpoint " << v << " cannot reach endpoint " << d);
            if (dist[v] == infinity)
            {
                continue;
            }
            std::vector<uint32_t> next;
            for (const auto& [u, edge] : adjacency[v])
            {
                bool canForward = u >= m_nEndpoints || u == d;
                if (canForward && dist[u] != infinity && dist[u] + edgeCost[edge] == dist[v])
                {
                    next.push_back(portAt(edge, v));
                }
            }
            if (v >= m_nEndpoints)
            {
                m_switches[v - m_nEndpoints]->SetRoute(id, next);
            }
            else if (m_transports[v]->GetNPorts() > 1)
            {
                m_transports[v]->SetRoute(id, next.front());
            }
        }
    }
}

uint32_t
IbFabricHelper::GetNEndpoints() const
{
    return m_nEndpoints;
}

uint32_t
IbFabricHelper::GetNSwitches() const
{
    return m_nSwitches;
}

Ptr<RdmaMessageTransport>
IbFabricHelper::GetTransport(uint32_t id) const
{
    for (uint32_t e = 0; e < m_transports.size(); ++e)
    {
        if (m_idOfEndpoint[e] == id)
        {
            return m_transports[e];
        }
    }
    NS_ABORT_MSG("IbFabricHelper: no endpoint id " << id);
    return nullptr;
}

std::vector<Ptr<MessageTransport>>
IbFabricHelper::GetTransports() const
{
    std::vector<Ptr<MessageTransport>> byId(m_transports.size());
    for (uint32_t e = 0; e < m_transports.size(); ++e)
    {
        byId[m_idOfEndpoint[e]] = m_transports[e];
    }
    return byId;
}

Ptr<Node>
IbFabricHelper::GetEndpointNode(uint32_t id) const
{
    return GetTransport(id)->GetNode();
}

Ptr<IbSwitch>
IbFabricHelper::GetSwitch(uint32_t i) const
{
    return m_switches.at(i);
}

std::string
IbFabricHelper::GetSwitchName(uint32_t i) const
{
    return m_switchNames.at(i);
}

std::vector<Ptr<IbNetDevice>>
IbFabricHelper::GetPorts() const
{
    return m_ports;
}

int64_t
IbFabricHelper::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    for (auto& sw : m_switches)
    {
        used += sw->AssignStreams(stream + used);
    }
    return used;
}

} // namespace ns3
