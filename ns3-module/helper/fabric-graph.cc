/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-graph.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>
#include <queue>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricGraph");

FabricGraph::FabricGraph(std::string helperName, std::string remoteChannel)
    : m_helperName(std::move(helperName)),
      m_remoteChannel(std::move(remoteChannel)),
      m_nEndpoints(0),
      m_nSwitches(0),
      m_installed(false),
      m_partitions(1),
      m_cutCables(0)
{
    m_classes.push_back(LinkClass{DataRate(0), Time(0)});
}

uint32_t
FabricGraph::AddLinkClass(DataRate rate, Time delay)
{
    m_classes.push_back(LinkClass{rate, delay});
    return static_cast<uint32_t>(m_classes.size() - 1);
}

FabricGraph::Vertex
FabricGraph::AddEndpoint()
{
    NS_ABORT_MSG_IF(m_installed, m_helperName << ": the fabric is already installed");
    return Vertex{false, m_nEndpoints++};
}

FabricGraph::Vertex
FabricGraph::AddSwitch(const std::string& name)
{
    NS_ABORT_MSG_IF(m_installed, m_helperName << ": the fabric is already installed");
    m_switchNames.push_back(name.empty() ? "switch" + std::to_string(m_nSwitches) : name);
    m_switchSpread.emplace_back(0, 1);
    return Vertex{true, m_nSwitches++};
}

void
FabricGraph::Connect(Vertex a, Vertex b, uint32_t linkClass)
{
    NS_ABORT_MSG_IF(m_installed, m_helperName << ": the fabric is already installed");
    NS_ABORT_MSG_UNLESS(linkClass < m_classes.size(),
                        m_helperName << ": no link class " << linkClass);
    m_edges.push_back(Edge{a, b, linkClass});
}

void
FabricGraph::Star(uint32_t n)
{
    NS_ABORT_MSG_IF(n == 0, m_helperName << "::Star: no endpoints");
    Vertex hub = AddSwitch("hub");
    for (uint32_t i = 0; i < n; ++i)
    {
        Connect(AddEndpoint(), hub);
    }
}

void
FabricGraph::LeafSpine(uint32_t leaves, uint32_t spines, uint32_t endpointsPerLeaf)
{
    NS_ABORT_MSG_IF(leaves == 0 || endpointsPerLeaf == 0,
                    m_helperName << "::LeafSpine: needs leaves and endpoints");
    NS_ABORT_MSG_IF(leaves > 1 && spines == 0,
                    m_helperName << "::LeafSpine: " << leaves << " leaves need a spine");
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
FabricGraph::FatTree(uint32_t k)
{
    NS_ABORT_MSG_IF(k < 2 || k % 2 != 0,
                    m_helperName << "::FatTree: k must be even and at least 2, not " << k);
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
FabricGraph::RailOptimised(uint32_t servers,
                              uint32_t gpusPerServer,
                              uint32_t spines,
                              uint32_t intraClass)
{
    NS_ABORT_MSG_IF(servers == 0 || gpusPerServer == 0,
                    m_helperName << "::RailOptimised: needs servers and GPUs");
    NS_ABORT_MSG_IF(gpusPerServer > 1 && servers > 1 && spines == 0,
                    m_helperName << "::RailOptimised: rails need a spine to reach each other");
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
FabricGraph::TwoTier(uint32_t servers,
                        uint32_t gpusPerServer,
                        uint32_t tierSwitches,
                        uint32_t intraClass)
{
    NS_ABORT_MSG_IF(servers == 0 || gpusPerServer == 0,
                    m_helperName << "::TwoTier: needs servers and GPUs");
    NS_ABORT_MSG_IF(servers > 1 && tierSwitches == 0,
                    m_helperName << "::TwoTier: servers need a tier switch to reach each other");
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
FabricGraph::SetPlacement(const std::vector<uint32_t>& placement)
{
    m_placement = placement;
}

void
FabricGraph::SetPartitions(uint32_t processes)
{
    NS_ABORT_MSG_IF(m_installed, m_helperName << ": the fabric is already installed");
    NS_ABORT_MSG_IF(processes == 0, m_helperName << "::SetPartitions: at least one process");
    m_partitions = processes;
}

void
FabricGraph::SetSwitchPartition(Vertex sw, uint32_t process)
{
    NS_ABORT_MSG_UNLESS(sw.isSwitch && sw.index < m_nSwitches,
                        m_helperName << "::SetSwitchPartition: not a switch");
    m_switchSpread[sw.index] = {process, 0};
}

void
FabricGraph::Spread(Vertex sw, uint32_t index, uint32_t of)
{
    m_switchSpread[sw.index] = {index, of};
}

uint32_t
FabricGraph::PartitionOf(const Vertex& v) const
{
    NS_ASSERT(v.isSwitch);
    const auto& [index, of] = m_switchSpread[v.index];
    if (of == 0)
    {
        NS_ABORT_MSG_UNLESS(index < m_partitions,
                            m_helperName << ": switch " << m_switchNames[v.index] << " pinned to process "
                                                      << index << " of " << m_partitions);
        return index;
    }
    // Tier member `index` of `of` goes to the process that holds the same share of the tier.
    return static_cast<uint32_t>(uint64_t(index) * m_partitions / of);
}

uint32_t
FabricGraph::GetEndpointPartition(uint32_t id) const
{
    NS_ABORT_MSG_UNLESS(m_installed, m_helperName << ": not installed yet");
    return m_endpointPartition.at(id);
}

uint32_t
FabricGraph::GetNCutCables() const
{
    return m_cutCables;
}

void
FabricGraph::AssignIds()
{
    const uint32_t unset = std::numeric_limits<uint32_t>::max();
    m_idOfEndpoint.assign(m_nEndpoints, unset);
    for (uint32_t id = 0; id < m_placement.size(); ++id)
    {
        uint32_t endpoint = m_placement[id];
        NS_ABORT_MSG_UNLESS(endpoint < m_nEndpoints,
                            m_helperName << ": placement puts id " << id << " on endpoint "
                                         << endpoint << " of " << m_nEndpoints);
        NS_ABORT_MSG_UNLESS(m_idOfEndpoint[endpoint] == unset,
                            m_helperName << ": placement puts two ids on endpoint " << endpoint);
        m_idOfEndpoint[endpoint] = id;
    }
    uint32_t nextId = static_cast<uint32_t>(m_placement.size());
    m_endpointOfId.assign(m_nEndpoints, 0);
    for (uint32_t e = 0; e < m_nEndpoints; ++e)
    {
        if (m_idOfEndpoint[e] == unset)
        {
            m_idOfEndpoint[e] = nextId++;
        }
        m_endpointOfId[m_idOfEndpoint[e]] = e;
    }
}

void
FabricGraph::Install()
{
    NS_ABORT_MSG_IF(m_installed, m_helperName << ": Install runs once");
    NS_ABORT_MSG_IF(m_nEndpoints == 0, m_helperName << ": no endpoints");
    for (const Edge& edge : m_edges)
    {
        for (const Vertex& v : {edge.a, edge.b})
        {
            NS_ABORT_MSG_IF(v.index >= (v.isSwitch ? m_nSwitches : m_nEndpoints),
                            m_helperName << ": no " << (v.isSwitch ? "switch " : "endpoint ")
                                         << v.index);
        }
    }
    m_installed = true;
    AssignIds();

    // An endpoint runs in the process of the switch its first cable ends on.
    const uint32_t unset = std::numeric_limits<uint32_t>::max();
    std::vector<uint32_t> endpointProcess(m_nEndpoints, unset);
    for (const Edge& edge : m_edges)
    {
        for (const auto& [end, other] : {std::pair(edge.a, edge.b), std::pair(edge.b, edge.a)})
        {
            if (!end.isSwitch && other.isSwitch && endpointProcess[end.index] == unset)
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
    TypeId remote;
    if (m_partitions > 1)
    {
        NS_ABORT_MSG_UNLESS(TypeId::LookupByNameFailSafe(m_remoteChannel, &remote),
                            m_helperName << ": a fabric cut across " << m_partitions
                                         << " processes needs ns-3's mpi module, and this build "
                                            "of the module has none ("
                                         << m_remoteChannel << ")");
    }

    for (uint32_t e = 0; e < m_nEndpoints; ++e)
    {
        m_endpointNodes.push_back(CreateObject<Node>(endpointProcess[e]));
        InstallEndpoint(e, m_idOfEndpoint[e], m_endpointNodes.back());
    }
    for (uint32_t s = 0; s < m_nSwitches; ++s)
    {
        m_switchNodes.push_back(CreateObject<Node>(PartitionOf(Vertex{true, s})));
        InstallSwitch(s, m_switchNodes.back());
    }

    // Vertices for routing: endpoints 0..E-1, then switches.
    auto vertexOf = [this](const Vertex& v) { return v.isSwitch ? m_nEndpoints + v.index : v.index; };
    // adjacency[v]: (neighbour, edge).
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> adjacency(m_nEndpoints + m_nSwitches);
    std::vector<int64_t> edgeCost;
    for (uint32_t i = 0; i < m_edges.size(); ++i)
    {
        const Edge& edge = m_edges[i];
        Cable cable{edge.a, edge.b, NodeOf(edge.a), NodeOf(edge.b), edge.linkClass != 0,
                    m_classes[edge.linkClass].rate, m_classes[edge.linkClass].delay, TypeId()};
        if (cable.nodeA->GetSystemId() != cable.nodeB->GetSystemId())
        {
            ++m_cutCables;
            cable.remote = remote;
        }
        m_built.push_back(InstallCable(cable));
        edgeCost.push_back(std::max<int64_t>(m_built.back().cost, 1));
        adjacency[vertexOf(edge.a)].emplace_back(vertexOf(edge.b), i);
        adjacency[vertexOf(edge.b)].emplace_back(vertexOf(edge.a), i);
    }
    ComputeRoutes(adjacency, edgeCost);
    InstallDone();
}

void
FabricGraph::ComputeRoutes(
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
        return a == vertex ? m_built[edge].portA : m_built[edge].portB;
    };
    std::vector<uint32_t> next;
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
        for (uint32_t v = 0; v < vertices; ++v)
        {
            if (v == d)
            {
                continue;
            }
            NS_ABORT_MSG_IF(dist[v] == infinity && v < m_nEndpoints,
                            m_helperName << ": endpoint " << v << " cannot reach endpoint " << d);
            if (dist[v] == infinity)
            {
                continue;
            }
            next.clear();
            for (const auto& [u, edge] : adjacency[v])
            {
                bool canForward = u >= m_nEndpoints || u == d;
                if (canForward && dist[u] != infinity && dist[u] + edgeCost[edge] == dist[v])
                {
                    next.push_back(portAt(edge, v));
                }
            }
            const bool isSwitch = v >= m_nEndpoints;
            InstallRoute(Vertex{isSwitch, isSwitch ? v - m_nEndpoints : v}, d, next);
        }
    }
}

Ptr<Node>
FabricGraph::NodeOf(const Vertex& v) const
{
    return v.isSwitch ? m_switchNodes[v.index] : m_endpointNodes[v.index];
}

uint32_t
FabricGraph::IdOf(uint32_t endpoint) const
{
    return m_idOfEndpoint.at(endpoint);
}

void
FabricGraph::SaltHashSeed(Ptr<Object> sw, uint32_t index)
{
    UintegerValue seed;
    sw->GetAttribute("HashSeed", seed);
    sw->SetAttribute("HashSeed", UintegerValue(static_cast<uint32_t>(seed.Get() + index)));
}

uint32_t
FabricGraph::GetNEndpoints() const
{
    return m_nEndpoints;
}

uint32_t
FabricGraph::GetNSwitches() const
{
    return m_nSwitches;
}

Ptr<Node>
FabricGraph::GetEndpointNode(uint32_t id) const
{
    NS_ABORT_MSG_UNLESS(m_installed && id < m_nEndpoints,
                        m_helperName << ": no endpoint id " << id << " (installed: " << m_installed
                                     << ")");
    return m_endpointNodes[m_endpointOfId[id]];
}

Ptr<Node>
FabricGraph::GetSwitchNode(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < m_switchNodes.size(), m_helperName << ": no switch node " << i);
    return m_switchNodes[i];
}

std::string
FabricGraph::GetSwitchName(uint32_t i) const
{
    return m_switchNames.at(i);
}

} // namespace ns3
