/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "halving-doubling-all-reduce.h"

#include "collective-registry.h"

#include "ns3/log.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HalvingDoublingAllReduce");

NS_OBJECT_ENSURE_REGISTERED(HalvingDoublingAllReduce);
NS_COLLECTIVE_ALGORITHM_REGISTER(HalvingDoublingAllReduce, "all_reduce", "halving_doubling");

using Step = CollectiveProgram::Step;
using Region = CollectiveProgram::Region;

TypeId
HalvingDoublingAllReduce::GetTypeId()
{
    static TypeId tid = TypeId("ns3::HalvingDoublingAllReduce")
                            .SetParent<ScheduledCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<HalvingDoublingAllReduce>();
    return tid;
}

HalvingDoublingAllReduce::HalvingDoublingAllReduce()
    : ScheduledCollective("all_reduce")
{
}

double
HalvingDoublingAllReduce::AlphaBetaSeconds(uint64_t bytes, uint32_t n, const AlphaBeta& link)
{
    // Participants beyond the largest power of two p fold in first and out last (two messages
    // of S); then log p halving and log p doubling steps move 2 (p - 1) / p of S.
    const double s = double(bytes);
    const double p = std::exp2(std::floor(std::log2(n)));
    const double fold = p == n ? 0 : 2 * (link.alpha + s * link.beta);
    return fold + 2 * std::log2(p) * link.alpha + 2 * (p - 1) / p * s * link.beta;
}

void
HalvingDoublingAllReduce::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    uint32_t n = GetN();
    uint32_t p = 1;
    while (p * 2 <= n)
    {
        p *= 2;
    }
    uint32_t extra = n - p;
    Region whole{CollectiveProgram::OUTPUT, 0, GetCount()};
    // Among the first 2 * extra participants, the even ones fold into their odd neighbour.
    if (index < 2 * extra && index % 2 == 0)
    {
        NS_LOG_LOGIC("participant " << index << ": beyond the largest power of two (" << p
                                    << ") in " << n << "; folds into " << index + 1);
        Step handed = program.Send(index + 1, whole);
        program.Recv(index + 1, whole, CollectiveProgram::COPY, {handed});
        return;
    }
    auto participant = [&](uint32_t v) { return v < extra ? 2 * v + 1 : v + extra; };
    uint32_t v = index < 2 * extra ? index / 2 : index - extra;
    std::vector<Step> previous;
    if (index < 2 * extra)
    {
        previous.push_back(program.Recv(index - 1, whole, CollectiveProgram::REDUCE));
    }
    // Halving: at each level keep the half of the current range on this side of the partner,
    // send the other half.
    struct Level
    {
        uint32_t partner;
        Region kept;
        Region sent;
        Step send;
    };
    std::vector<Level> levels;
    Region range = whole;
    for (uint32_t mask = p / 2; mask > 0; mask /= 2)
    {
        uint32_t partner = participant(v ^ mask);
        Region lower = CollectiveProgram::Part(range, 2, 0);
        Region upper = CollectiveProgram::Part(range, 2, 1);
        bool keepLower = (v & mask) == 0;
        Region kept = keepLower ? lower : upper;
        Region sent = keepLower ? upper : lower;
        Step send = program.Send(partner, sent, previous);
        previous = {program.Recv(partner, kept, CollectiveProgram::REDUCE, previous)};
        levels.push_back(Level{partner, kept, sent, send});
        range = kept;
    }
    // Doubling: the same partners in reverse, each returning the half it reduced.
    for (auto level = levels.rbegin(); level != levels.rend(); ++level)
    {
        Step send = program.Send(level->partner, level->kept, previous);
        previous = {send,
                    program.Recv(level->partner,
                                 level->sent,
                                 CollectiveProgram::COPY,
                                 {previous.back(), level->send})};
    }
    if (index < 2 * extra)
    {
        program.Send(index - 1, whole, previous);
    }
}

} // namespace ns3
