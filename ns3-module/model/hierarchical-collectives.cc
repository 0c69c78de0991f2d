/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hierarchical-collectives.h"

#include "collective-registry.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HierarchicalCollectives");

NS_OBJECT_ENSURE_REGISTERED(HierarchicalAllReduce);
NS_OBJECT_ENSURE_REGISTERED(HierarchicalAllToAll);
NS_COLLECTIVE_ALGORITHM_REGISTER(HierarchicalAllReduce, "all_reduce", "hierarchical");
NS_COLLECTIVE_ALGORITHM_REGISTER(HierarchicalAllToAll, "all_to_all", "hierarchical");

using Step = CollectiveProgram::Step;
using Region = CollectiveProgram::Region;

namespace
{
const char* const LOCAL_SIZE_HELP =
    "Participants per server: participant i is on server i / LocalSize; the group size must be "
    "a multiple of it.";

/**
 * Check the group divides into servers.
 * \param name the algorithm, for the message
 * \param n the group size
 * \param localSize participants per server
 */
void
CheckServers(const std::string& name, uint32_t n, uint32_t localSize)
{
    NS_ABORT_MSG_UNLESS(n % localSize == 0,
                        name << ": a group of " << n << " is not a whole number of servers of "
                             << "LocalSize " << localSize);
}
} // namespace

TypeId
HierarchicalAllReduce::GetTypeId()
{
    static TypeId tid = TypeId("ns3::HierarchicalAllReduce")
                            .SetParent<RingCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<HierarchicalAllReduce>()
                            .AddAttribute("LocalSize",
                                          LOCAL_SIZE_HELP,
                                          UintegerValue(8),
                                          MakeUintegerAccessor(&HierarchicalAllReduce::m_localSize),
                                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

HierarchicalAllReduce::HierarchicalAllReduce()
    : RingCollective("all_reduce"),
      m_localSize(8)
{
}

void
HierarchicalAllReduce::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    uint32_t n = GetN();
    uint32_t local = std::min(m_localSize, n);
    CheckServers("hierarchical all-reduce", n, local);
    uint32_t servers = n / local;
    uint32_t server = index / local;
    uint32_t position = index % local;
    NS_LOG_LOGIC("participant " << index << ": position " << position << " of " << local
                                << " on server " << server << " of " << servers);
    Ring inside;
    for (uint32_t l = 0; l < local; ++l)
    {
        inside.push_back(server * local + l);
    }
    Ring across;
    for (uint32_t s = 0; s < servers; ++s)
    {
        across.push_back(s * local + position);
    }
    for (uint32_t c = 0; c < GetChannels(); ++c)
    {
        Region part = ChannelPart(Region{CollectiveProgram::OUTPUT, 0, GetCount()}, c);
        std::vector<Region> blocks;
        for (uint32_t b = 0; b < local; ++b)
        {
            blocks.push_back(CollectiveProgram::Part(part, local, b));
        }
        ReduceScatterSteps reduced = AddReduceScatter(program, inside, position, blocks, {});
        uint32_t owned = (position + 1) % local;
        // The owned block, reduced over the server, is all-reduced over the servers.
        std::vector<Region> slices;
        for (uint32_t s = 0; s < servers; ++s)
        {
            slices.push_back(CollectiveProgram::Part(blocks[owned], servers, s));
        }
        Step serverSum = program.Join(reduced.owned);
        ReduceScatterSteps across_reduced =
            AddReduceScatter(program, across, server, slices, {serverSum});
        std::vector<Step> gathered = AddAllGather(program,
                                                  across,
                                                  server,
                                                  slices,
                                                  (server + 1) % servers,
                                                  {serverSum},
                                                  across_reduced.owned,
                                                  across_reduced.sends);
        gathered.insert(gathered.end(), across_reduced.owned.begin(), across_reduced.owned.end());
        gathered.push_back(serverSum);
        AddAllGather(program, inside, position, blocks, owned, {program.Join(gathered)}, {}, reduced.sends);
    }
}

TypeId
HierarchicalAllToAll::GetTypeId()
{
    static TypeId tid = TypeId("ns3::HierarchicalAllToAll")
                            .SetParent<ScheduledCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<HierarchicalAllToAll>()
                            .AddAttribute("LocalSize",
                                          LOCAL_SIZE_HELP,
                                          UintegerValue(8),
                                          MakeUintegerAccessor(&HierarchicalAllToAll::m_localSize),
                                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

HierarchicalAllToAll::HierarchicalAllToAll()
    : ScheduledCollective("all_to_all"),
      m_localSize(8)
{
}

bool
HierarchicalAllToAll::TakesUnevenSplits() const
{
    return false;
}

void
HierarchicalAllToAll::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    uint32_t n = GetN();
    uint32_t local = std::min(m_localSize, n);
    CheckServers("hierarchical all-to-all", n, local);
    uint32_t servers = n / local;
    uint32_t server = index / local;
    uint32_t position = index % local;
    uint64_t block = GetCount() / n;
    for (uint64_t count : GetSendCounts(index))
    {
        NS_ABORT_MSG_UNLESS(count == block, "hierarchical all-to-all: equal blocks only");
    }
    auto at = [block](CollectiveProgram::Buffer buffer, uint64_t first, uint64_t blocks) {
        return Region{buffer, first * block, blocks * block};
    };
    // SCRATCH holds three areas of n blocks: packed (by local destination, then server), received
    // (by local source, then server) and regrouped (by server, then local source).
    program.UseScratch(3 * n * block);
    auto packed = [&](uint32_t l, uint32_t s) { return at(CollectiveProgram::SCRATCH, l * servers + s, 1); };
    auto received = [&](uint32_t l, uint32_t s) { return at(CollectiveProgram::SCRATCH, n + l * servers + s, 1); };
    auto regrouped = [&](uint32_t s, uint32_t l) { return at(CollectiveProgram::SCRATCH, 2 * n + s * local + l, 1); };

    // Hop 1, inside the server: local peer l gets what goes to local index l on every server.
    std::vector<Step> hop1;
    for (uint32_t k = 0; k < local; ++k)
    {
        uint32_t l = (position + k) % local;
        std::vector<Step> packing;
        for (uint32_t s = 0; s < servers; ++s)
        {
            packing.push_back(program.Local(packed(l, s),
                                            at(CollectiveProgram::INPUT, s * local + l, 1),
                                            CollectiveProgram::COPY));
        }
        Region bundle = at(CollectiveProgram::SCRATCH, l * servers, servers);
        Region into = at(CollectiveProgram::SCRATCH, n + position * servers, servers);
        if (l == position)
        {
            hop1.push_back(program.Local(into, bundle, CollectiveProgram::COPY, packing));
        }
        else
        {
            program.Send(server * local + l, bundle, packing);
        }
    }
    for (uint32_t k = 1; k < local; ++k)
    {
        uint32_t l = (position + local - k) % local;
        hop1.push_back(program.Recv(server * local + l,
                                    at(CollectiveProgram::SCRATCH, n + l * servers, servers),
                                    CollectiveProgram::COPY));
    }
    // Regroup by destination server, then hop 2 across servers to the counterpart there.
    Step arrived = program.Join(hop1);
    for (uint32_t k = 0; k < servers; ++k)
    {
        uint32_t s = (server + k) % servers;
        std::vector<Step> grouping;
        for (uint32_t l = 0; l < local; ++l)
        {
            grouping.push_back(program.Local(regrouped(s, l), received(l, s), CollectiveProgram::COPY, {arrived}));
        }
        Region bundle = at(CollectiveProgram::SCRATCH, 2 * n + s * local, local);
        if (s == server)
        {
            program.Local(at(CollectiveProgram::OUTPUT, server * local, local), bundle, CollectiveProgram::COPY, grouping);
        }
        else
        {
            program.Send(s * local + position, bundle, grouping);
        }
    }
    for (uint32_t k = 1; k < servers; ++k)
    {
        uint32_t s = (server + servers - k) % servers;
        program.Recv(s * local + position, at(CollectiveProgram::OUTPUT, s * local, local), CollectiveProgram::COPY);
    }
}

} // namespace ns3
