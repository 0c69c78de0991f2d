/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "direct-collectives.h"

#include "collective-registry.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <functional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DirectCollective");

NS_OBJECT_ENSURE_REGISTERED(DirectAllReduce);
NS_OBJECT_ENSURE_REGISTERED(DirectReduceScatter);
NS_OBJECT_ENSURE_REGISTERED(DirectAllGather);
NS_OBJECT_ENSURE_REGISTERED(DirectAllToAll);
NS_OBJECT_ENSURE_REGISTERED(PairwiseAllToAll);
NS_OBJECT_ENSURE_REGISTERED(DirectBroadcast);
NS_OBJECT_ENSURE_REGISTERED(DirectReduce);
NS_OBJECT_ENSURE_REGISTERED(DirectGather);
NS_OBJECT_ENSURE_REGISTERED(DirectScatter);
NS_COLLECTIVE_ALGORITHM_REGISTER(DirectAllReduce, "all_reduce", "direct");
NS_COLLECTIVE_ALGORITHM_REGISTER(DirectReduceScatter, "reduce_scatter", "direct");
NS_COLLECTIVE_ALGORITHM_REGISTER(DirectAllGather, "all_gather", "direct");
NS_COLLECTIVE_ALGORITHM_REGISTER(DirectAllToAll, "all_to_all", "direct");
NS_COLLECTIVE_ALGORITHM_REGISTER(PairwiseAllToAll, "all_to_all", "pairwise");
NS_COLLECTIVE_ALGORITHM_REGISTER(DirectBroadcast, "broadcast", "direct");
NS_COLLECTIVE_ALGORITHM_REGISTER(DirectReduce, "reduce", "direct");
NS_COLLECTIVE_ALGORITHM_REGISTER(DirectGather, "gather", "direct");
NS_COLLECTIVE_ALGORITHM_REGISTER(DirectScatter, "scatter", "direct");

using Step = CollectiveProgram::Step;
using Region = CollectiveProgram::Region;

namespace
{
/**
 * Send a region to every other participant, to index + 1 first, with at most window sends in
 * flight.
 * \param program the program
 * \param index the sender
 * \param n the group size
 * \param window sends in flight; 0 for no limit
 * \param region what goes to each participant
 * \return the send steps
 */
std::vector<Step>
AddSends(CollectiveProgram& program,
         uint32_t index,
         uint32_t n,
         uint32_t window,
         const std::function<Region(uint32_t)>& region)
{
    std::vector<Step> mine;
    for (uint32_t k = 1; k < n; ++k)
    {
        uint32_t j = (index + k) % n;
        std::vector<Step> after;
        if (window != 0 && mine.size() >= window)
        {
            after.push_back(mine[mine.size() - window]);
        }
        mine.push_back(program.Send(j, region(j), after));
    }
    return mine;
}

/**
 * Receive a region from every other participant, from index + 1 first (in the order the
 * senders' AddSends reach this participant's turn).
 * \param program the program
 * \param index the receiver
 * \param n the group size
 * \param region where each participant's message goes
 * \return the receive steps
 */
std::vector<Step>
AddReceives(CollectiveProgram& program,
            uint32_t index,
            uint32_t n,
            const std::function<Region(uint32_t)>& region)
{
    std::vector<Step> receives;
    for (uint32_t k = 1; k < n; ++k)
    {
        uint32_t j = (index + k) % n;
        receives.push_back(program.Recv(j, region(j), CollectiveProgram::COPY));
    }
    return receives;
}

/// Appends b to a.
void
Append(std::vector<Step>& a, const std::vector<Step>& b)
{
    a.insert(a.end(), b.begin(), b.end());
}

} // namespace

TypeId
DirectCollective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DirectCollective")
            .SetParent<ScheduledCollective>()
            .SetGroupName("Uniference")
            .AddAttribute("Window",
                          "Largest number of a participant's sends in flight at once (those not "
                          "yet taken by its transport); 0 posts them all at once.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DirectCollective::m_window),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

DirectCollective::DirectCollective(std::string operation)
    : ScheduledCollective(std::move(operation)),
      m_window(0)
{
}

uint32_t
DirectCollective::GetWindow() const
{
    return m_window;
}

std::vector<Region>
DirectCollective::AddSlots(CollectiveProgram& program, uint64_t count) const
{
    std::vector<Region> slots;
    for (uint32_t j = 0; j < GetN(); ++j)
    {
        slots.push_back(Region{CollectiveProgram::SCRATCH, j * count, count});
    }
    program.UseScratch(GetN() * count);
    return slots;
}

Step
DirectCollective::AddOrderedSum(CollectiveProgram& program,
                                const Region& into,
                                const std::vector<Region>& slot,
                                const std::vector<Step>& after)
{
    Step last = program.Local(into, slot[0], CollectiveProgram::COPY, after);
    for (uint32_t j = 1; j < slot.size(); ++j)
    {
        last = program.Local(into, slot[j], CollectiveProgram::REDUCE, {last});
    }
    return last;
}

TypeId
DirectAllReduce::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DirectAllReduce")
                            .SetParent<DirectCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<DirectAllReduce>();
    return tid;
}

DirectAllReduce::DirectAllReduce()
    : DirectCollective("all_reduce")
{
}

double
DirectAllReduce::AlphaBetaSeconds(uint64_t bytes, uint32_t n, const AlphaBeta& link)
{
    // one round; a participant's link carries n - 1 copies of S.
    const double s = double(bytes);
    const double m = n - 1.0;
    return link.alpha + m * s * link.beta;
}

void
DirectAllReduce::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    uint32_t n = GetN();
    uint64_t count = GetCount();
    Region whole{CollectiveProgram::OUTPUT, 0, count};
    std::vector<Region> slot = AddSlots(program, count);
    std::vector<Step> all{program.Local(slot[index], whole, CollectiveProgram::COPY)};
    Append(all, AddSends(program, index, n, GetWindow(), [&](uint32_t) { return whole; }));
    Append(all, AddReceives(program, index, n, [&](uint32_t j) { return slot[j]; }));
    AddOrderedSum(program, whole, slot, all);
}

TypeId
DirectReduceScatter::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DirectReduceScatter")
                            .SetParent<DirectCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<DirectReduceScatter>();
    return tid;
}

DirectReduceScatter::DirectReduceScatter()
    : DirectCollective("reduce_scatter")
{
}

double
DirectReduceScatter::AlphaBetaSeconds(uint64_t bytes, uint32_t n, const AlphaBeta& link)
{
    // one round; a participant's link carries n - 1 blocks of S / n.
    const double s = double(bytes);
    const double m = n - 1.0;
    return link.alpha + m * s / n * link.beta;
}

void
DirectReduceScatter::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    uint32_t n = GetN();
    Region input{CollectiveProgram::INPUT, 0, GetCount()};
    Region mine = CollectiveProgram::Part(input, n, index);
    std::vector<Region> slot = AddSlots(program, mine.count);
    std::vector<Step> all{program.Local(slot[index], mine, CollectiveProgram::COPY)};
    Append(all, AddSends(program, index, n, GetWindow(), [&](uint32_t j) { return CollectiveProgram::Part(input, n, j); }));
    Append(all, AddReceives(program, index, n, [&](uint32_t j) { return slot[j]; }));
    AddOrderedSum(program, Region{CollectiveProgram::OUTPUT, 0, mine.count}, slot, all);
}

TypeId
DirectAllGather::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DirectAllGather")
                            .SetParent<DirectCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<DirectAllGather>();
    return tid;
}

DirectAllGather::DirectAllGather()
    : DirectCollective("all_gather")
{
}

double
DirectAllGather::AlphaBetaSeconds(uint64_t bytes, uint32_t n, const AlphaBeta& link)
{
    // one round; a participant's link carries n - 1 blocks of S / n.
    const double s = double(bytes);
    const double m = n - 1.0;
    return link.alpha + m * s / n * link.beta;
}

void
DirectAllGather::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    uint32_t n = GetN();
    Region output{CollectiveProgram::OUTPUT, 0, GetCount()};
    Region mine = CollectiveProgram::Part(output, n, index);
    Region input{CollectiveProgram::INPUT, 0, mine.count};
    program.Local(mine, input, CollectiveProgram::COPY);
    AddSends(program, index, n, GetWindow(), [&](uint32_t) { return input; });
    AddReceives(program, index, n, [&](uint32_t j) { return CollectiveProgram::Part(output, n, j); });
}

TypeId
DirectAllToAll::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DirectAllToAll")
                            .SetParent<DirectCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<DirectAllToAll>();
    return tid;
}

DirectAllToAll::DirectAllToAll()
    : DirectCollective("all_to_all")
{
}

double
DirectAllToAll::AlphaBetaSeconds(uint64_t bytes, uint32_t n, const AlphaBeta& link)
{
    // one round; a participant's link carries n - 1 blocks of S / n.
    const double s = double(bytes);
    const double m = n - 1.0;
    return link.alpha + m * s / n * link.beta;
}

void
DirectAllToAll::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    uint32_t n = GetN();
    std::vector<Region> out = Blocks(CollectiveProgram::INPUT, GetSendCounts(index));
    std::vector<Region> in = Blocks(CollectiveProgram::OUTPUT, GetRecvCounts(index));
    program.Local(in[index], out[index], CollectiveProgram::COPY);
    AddSends(program, index, n, GetWindow(), [&](uint32_t j) { return out[j]; });
    AddReceives(program, index, n, [&](uint32_t j) { return in[j]; });
}

TypeId
PairwiseAllToAll::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PairwiseAllToAll")
                            .SetParent<DirectCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<PairwiseAllToAll>();
    return tid;
}

PairwiseAllToAll::PairwiseAllToAll()
    : DirectCollective("all_to_all")
{
}

double
PairwiseAllToAll::AlphaBetaSeconds(uint64_t bytes, uint32_t n, const AlphaBeta& link)
{
    // n - 1 steps one after the other, each a block of S / n.
    const double s = double(bytes);
    const double m = n - 1.0;
    return m * (link.alpha + s / n * link.beta);
}

void
PairwiseAllToAll::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    uint32_t n = GetN();
    std::vector<Region> out = Blocks(CollectiveProgram::INPUT, GetSendCounts(index));
    std::vector<Region> in = Blocks(CollectiveProgram::OUTPUT, GetRecvCounts(index));
    std::vector<Step> previous{program.Local(in[index], out[index], CollectiveProgram::COPY)};
    for (uint32_t k = 1; k < n; ++k)
    {
        uint32_t to = (index + k) % n;
        uint32_t from = (index + n - k) % n;
        Step sent = program.Send(to, out[to], previous);
        Step received = program.Recv(from, in[from], CollectiveProgram::COPY, previous);
        previous = {sent, received};
    }
}

TypeId
DirectBroadcast::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DirectBroadcast")
                            .SetParent<DirectCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<DirectBroadcast>();
    return tid;
}

DirectBroadcast::DirectBroadcast()
    : DirectCollective("broadcast")
{
}

double
DirectBroadcast::AlphaBetaSeconds(uint64_t bytes, uint32_t n, const AlphaBeta& link)
{
    // one round; the root's link carries n - 1 copies of S.
    const double s = double(bytes);
    const double m = n - 1.0;
    return link.alpha + m * s * link.beta;
}

void
DirectBroadcast::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    uint32_t n = GetN();
    Region whole{CollectiveProgram::OUTPUT, 0, GetCount()};
    if (index == GetRoot())
    {
        AddSends(program, index, n, GetWindow(), [&](uint32_t) { return whole; });
    }
    else
    {
        program.Recv(GetRoot(), whole, CollectiveProgram::COPY);
    }
}

TypeId
DirectReduce::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DirectReduce")
                            .SetParent<DirectCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<DirectReduce>();
    return tid;
}

DirectReduce::DirectReduce()
    : DirectCollective("reduce")
{
}

double
DirectReduce::AlphaBetaSeconds(uint64_t bytes, uint32_t n, const AlphaBeta& link)
{
    // one round; the root's link carries n - 1 copies of S.
    const double s = double(bytes);
    const double m = n - 1.0;
    return link.alpha + m * s * link.beta;
}

void
DirectReduce::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    uint32_t n = GetN();
    uint64_t count = GetCount();
    Region whole{CollectiveProgram::OUTPUT, 0, count};
    if (index != GetRoot())
    {
        program.Send(GetRoot(), whole);
        return;
    }
    std::vector<Region> slot = AddSlots(program, count);
    std::vector<Step> all{program.Local(slot[index], whole, CollectiveProgram::COPY)};
    Append(all, AddReceives(program, index, n, [&](uint32_t j) { return slot[j]; }));
    AddOrderedSum(program, whole, slot, all);
}

TypeId
DirectGather::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DirectGather")
                            .SetParent<DirectCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<DirectGather>();
    return tid;
}

DirectGather::DirectGather()
    : DirectCollective("gather")
{
}

void
DirectGather::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    uint32_t n = GetN();
    Region output{CollectiveProgram::OUTPUT, 0, GetCount()};
    Region mine = CollectiveProgram::Part(output, n, index);
    Region input{CollectiveProgram::INPUT, 0, mine.count};
    if (index != GetRoot())
    {
        program.Send(GetRoot(), input);
        return;
    }
    program.Local(mine, input, CollectiveProgram::COPY);
    AddReceives(program, index, n, [&](uint32_t j) { return CollectiveProgram::Part(output, n, j); });
}

TypeId
DirectScatter::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DirectScatter")
                            .SetParent<DirectCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<DirectScatter>();
    return tid;
}

DirectScatter::DirectScatter()
    : DirectCollective("scatter")
{
}

void
DirectScatter::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    uint32_t n = GetN();
    Region input{CollectiveProgram::INPUT, 0, GetCount()};
    Region mine = CollectiveProgram::Part(input, n, index);
    Region output{CollectiveProgram::OUTPUT, 0, mine.count};
    if (index != GetRoot())
    {
        program.Recv(GetRoot(), output, CollectiveProgram::COPY);
        return;
    }
    program.Local(output, mine, CollectiveProgram::COPY);
    AddSends(program, index, n, GetWindow(), [&](uint32_t j) { return CollectiveProgram::Part(input, n, j); });
}

NS_OBJECT_ENSURE_REGISTERED(DirectGatherV);
NS_COLLECTIVE_ALGORITHM_REGISTER(DirectGatherV, "gather_v", "direct");
NS_COLLECTIVE_OPERATION_REGISTER("gather_v", CollectiveRegistry::SHARE);

TypeId
DirectGatherV::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DirectGatherV")
                            .SetParent<DirectCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<DirectGatherV>();
    return tid;
}

DirectGatherV::DirectGatherV()
    : DirectCollective("gather_v")
{
}

void
DirectGatherV::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    // Empty blocks send nothing, and the root, which knows every count, expects nothing.
    uint64_t mine = GetSendCounts(index)[index];
    Region input{CollectiveProgram::INPUT, 0, mine};
    if (index != GetRoot())
    {
        if (mine > 0)
        {
            program.Send(GetRoot(), input);
        }
        return;
    }
    std::vector<Region> block = Blocks(CollectiveProgram::OUTPUT, GetRecvCounts(index));
    for (uint32_t j = 0; j < GetN(); ++j)
    {
        if (block[j].count == 0)
        {
            continue;
        }
        if (j == index)
        {
            program.Local(block[j], input, CollectiveProgram::COPY);
        }
        else
        {
            program.Recv(j, block[j], CollectiveProgram::COPY);
        }
    }
}

} // namespace ns3
