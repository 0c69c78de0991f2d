/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chain-collectives.h"

#include "collective-registry.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChainCollectives");

NS_OBJECT_ENSURE_REGISTERED(RingBroadcast);
NS_OBJECT_ENSURE_REGISTERED(RingReduce);
NS_COLLECTIVE_ALGORITHM_REGISTER(RingBroadcast, "broadcast", "ring");
NS_COLLECTIVE_ALGORITHM_REGISTER(RingReduce, "reduce", "ring");

using Step = CollectiveProgram::Step;
using Region = CollectiveProgram::Region;

TypeId
RingBroadcast::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingBroadcast")
                            .SetParent<ScheduledCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<RingBroadcast>()
            .AddAttribute("ChunkBytes",
                          "Largest message (bytes) the data is cut into; smaller chunks pipeline better and cost more headers.",
                          UintegerValue(1 << 20),
                          MakeUintegerAccessor(&RingBroadcast::m_chunkBytes),
                          MakeUintegerChecker<uint64_t>(1));
    return tid;
}

RingBroadcast::RingBroadcast()
    : ScheduledCollective("broadcast"),
      m_chunkBytes(1 << 20)
{
}

double
RingBroadcast::AlphaBetaSeconds(uint64_t bytes, uint32_t n, const AlphaBeta& link)
{
    // A pipelined chain of 1 MiB pieces: S once through, plus n - 1 hops of the first piece.
    const double s = double(bytes);
    const double m = n - 1.0;
    const double piece = std::min(s, double(1 << 20));
    return s * link.beta + m * (link.alpha + piece * link.beta);
}

void
RingBroadcast::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    uint32_t n = GetN();
    uint32_t next = (index + 1) % n;
    bool last = next == GetRoot();
    Region whole{CollectiveProgram::OUTPUT, 0, GetCount()};
    for (const Region& piece : Pieces(whole, m_chunkBytes))
    {
        std::vector<Step> here;
        if (index != GetRoot())
        {
            here.push_back(program.Recv((index + n - 1) % n, piece, CollectiveProgram::COPY));
        }
        if (!last && n > 1)
        {
            program.Send(next, piece, here);
        }
    }
}

TypeId
RingReduce::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingReduce")
                            .SetParent<ScheduledCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<RingReduce>()
            .AddAttribute("ChunkBytes",
                          "Largest message (bytes) the data is cut into; smaller chunks pipeline better and cost more headers.",
                          UintegerValue(1 << 20),
                          MakeUintegerAccessor(&RingReduce::m_chunkBytes),
                          MakeUintegerChecker<uint64_t>(1));
    return tid;
}

RingReduce::RingReduce()
    : ScheduledCollective("reduce"),
      m_chunkBytes(1 << 20)
{
}

double
RingReduce::AlphaBetaSeconds(uint64_t bytes, uint32_t n, const AlphaBeta& link)
{
    // The broadcast's chain, run towards the root.
    return RingBroadcast::AlphaBetaSeconds(bytes, n, link);
}

void
RingReduce::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    uint32_t n = GetN();
    if (n == 1)
    {
        return;
    }
    uint32_t previous = (index + n - 1) % n;
    bool first = previous == GetRoot();
    bool root = index == GetRoot();
    Region whole{CollectiveProgram::OUTPUT, 0, GetCount()};
    // Between the first and the root, partial sums go to a scratch copy: c10d leaves a non-root's
    // buffer as it was.
    Region sums = whole;
    std::vector<Step> copied;
    if (!first && !root)
    {
        sums.buffer = CollectiveProgram::SCRATCH;
        program.UseScratch(GetCount());
        copied.push_back(program.Local(sums, whole, CollectiveProgram::COPY));
    }
    for (const Region& piece : Pieces(sums, m_chunkBytes))
    {
        std::vector<Step> here = copied;
        if (!first)
        {
            here = {program.Recv(previous, piece, CollectiveProgram::REDUCE, copied)};
        }
        if (!root)
        {
            program.Send((index + 1) % n, piece, here);
        }
    }
}

} // namespace ns3
