/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-collectives.h"

#include "collective-registry.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingCollective");

NS_OBJECT_ENSURE_REGISTERED(RingCollective);
NS_OBJECT_ENSURE_REGISTERED(RingAllReduce);
NS_OBJECT_ENSURE_REGISTERED(RingReduceScatter);
NS_OBJECT_ENSURE_REGISTERED(RingAllGather);
NS_COLLECTIVE_ALGORITHM_REGISTER(RingAllReduce, "all_reduce", "ring");
NS_COLLECTIVE_ALGORITHM_REGISTER(RingReduceScatter, "reduce_scatter", "ring");
NS_COLLECTIVE_ALGORITHM_REGISTER(RingAllGather, "all_gather", "ring");

using Step = CollectiveProgram::Step;
using Region = CollectiveProgram::Region;

TypeId
RingCollective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RingCollective")
            .SetParent<ScheduledCollective>()
            .SetGroupName("Uniference")
            .AddAttribute("ChunkBytes",
                          "Largest message (bytes) a step is cut into, each forwarded as soon as "
                          "it has arrived, so that the steps pipeline; 0 sends every step as one "
                          "message.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RingCollective::m_chunkBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Channels",
                          "Rings running at once, each over its own part of the buffer.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RingCollective::m_channels),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

RingCollective::RingCollective(std::string operation)
    : ScheduledCollective(std::move(operation)),
      m_chunkBytes(0),
      m_channels(1)
{
}

std::vector<Region>
RingCollective::Pieces(const Region& block) const
{
    return ScheduledCollective::Pieces(block, m_chunkBytes);
}

uint32_t
RingCollective::GetChannels() const
{
    return m_channels;
}

Region
RingCollective::ChannelPart(const Region& whole, uint32_t channel) const
{
    return CollectiveProgram::Part(whole, m_channels, channel);
}

RingCollective::Ring
RingCollective::GetWholeRing() const
{
    Ring ring(GetN());
    for (uint32_t i = 0; i < GetN(); ++i)
    {
        ring[i] = i;
    }
    return ring;
}

RingCollective::ReduceScatterSteps
RingCollective::AddReduceScatter(CollectiveProgram& program,
                                 const Ring& ring,
                                 uint32_t position,
                                 const std::vector<Region>& blocks,
                                 const std::vector<Step>& start) const
{
    uint32_t m = ring.size();
    uint32_t next = ring[(position + 1) % m];
    uint32_t previous = ring[(position + m - 1) % m];
    ReduceScatterSteps result;
    std::vector<Step> arrived; // per piece of the block reduced in the step before
    for (uint32_t s = 0; s + 1 < m; ++s)
    {
        // Step s sends block p - s (its own at first, then the one it just reduced) and
        // reduces block p - s - 1 into its own; offsets by m keep the arithmetic unsigned.
        std::vector<Region> out = Pieces(blocks[(position + m - s) % m]);
        std::vector<Region> in = Pieces(blocks[(position + 2 * m - s - 1) % m]);
        std::vector<Step> sends;
        for (uint32_t k = 0; k < out.size(); ++k)
        {
            sends.push_back(program.Send(next, out[k], s == 0 ? start : std::vector<Step>{arrived[k]}));
        }
        std::vector<Step> reduced;
        for (const Region& piece : in)
        {
            reduced.push_back(program.Recv(previous, piece, CollectiveProgram::REDUCE, start));
        }
        result.sends.push_back(std::move(sends));
        arrived = std::move(reduced);
    }
    result.owned = std::move(arrived);
    return result;
}

std::vector<Step>
RingCollective::AddAllGather(CollectiveProgram& program,
                             const Ring& ring,
                             uint32_t position,
                             const std::vector<Region>& blocks,
                             uint32_t owned,
                             const std::vector<Step>& start,
                             const std::vector<Step>& ownedReady,
                             const std::vector<std::vector<Step>>& overwrites) const
{
    uint32_t m = ring.size();
    uint32_t next = ring[(position + 1) % m];
    uint32_t previous = ring[(position + m - 1) % m];
    std::vector<Step> arrived = ownedReady;
    std::vector<Step> received;
    for (uint32_t t = 0; t + 1 < m; ++t)
    {
        // Step t forwards block owned - t (its own at first) and receives block owned - t - 1.
        std::vector<Region> out = Pieces(blocks[(owned + m - t) % m]);
        std::vector<Region> in = Pieces(blocks[(owned + 2 * m - t - 1) % m]);
        for (uint32_t k = 0; k < out.size(); ++k)
        {
            std::vector<Step> after = start;
            if (k < arrived.size())
            {
                after.push_back(arrived[k]);
            }
            program.Send(next, out[k], after);
        }
        std::vector<Step> copied;
        for (uint32_t k = 0; k < in.size(); ++k)
        {
            std::vector<Step> after = start;
            if (t < overwrites.size() && k < overwrites[t].size())
            {
                after.push_back(overwrites[t][k]);
            }
            copied.push_back(program.Recv(previous, in[k], CollectiveProgram::COPY, after));
        }
        received.insert(received.end(), copied.begin(), copied.end());
        arrived = std::move(copied);
    }
    return received;
}

TypeId
RingAllReduce::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingAllReduce")
                            .SetParent<RingCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<RingAllReduce>();
    return tid;
}

RingAllReduce::RingAllReduce()
    : RingCollective("all_reduce")
{
}

double
RingAllReduce::AlphaBetaSeconds(uint64_t bytes, uint32_t n, const AlphaBeta& link)
{
    // 2 (n - 1) steps, each a block of S / n.
    const double s = double(bytes);
    const double m = n - 1.0;
    return 2 * m * (link.alpha + s / n * link.beta);
}

void
RingAllReduce::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    uint32_t n = GetN();
    Ring ring = GetWholeRing();
    for (uint32_t c = 0; c < GetChannels(); ++c)
    {
        Region part = ChannelPart(Region{CollectiveProgram::OUTPUT, 0, GetCount()}, c);
        std::vector<Region> blocks;
        for (uint32_t b = 0; b < n; ++b)
        {
            blocks.push_back(CollectiveProgram::Part(part, n, b));
        }
        ReduceScatterSteps reduced = AddReduceScatter(program, ring, index, blocks, {});
        // The all-gather's step t overwrites block p - t, which the reduce-scatter's step t sent.
        AddAllGather(program, ring, index, blocks, (index + 1) % n, {}, reduced.owned, reduced.sends);
    }
}

TypeId
RingReduceScatter::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingReduceScatter")
                            .SetParent<RingCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<RingReduceScatter>();
    return tid;
}

RingReduceScatter::RingReduceScatter()
    : RingCollective("reduce_scatter")
{
}

double
RingReduceScatter::AlphaBetaSeconds(uint64_t bytes, uint32_t n, const AlphaBeta& link)
{
    // n - 1 steps, each a block of S / n.
    const double s = double(bytes);
    const double m = n - 1.0;
    return m * (link.alpha + s / n * link.beta);
}

void
RingReduceScatter::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    uint32_t n = GetN();
    Region whole{CollectiveProgram::SCRATCH, 0, GetCount()};
    // Partial sums go to a copy of the input, which c10d leaves untouched.
    program.UseScratch(GetCount());
    Step copy = program.Local(whole, Region{CollectiveProgram::INPUT, 0, GetCount()}, CollectiveProgram::COPY);
    Ring ring = GetWholeRing();
    std::vector<Step> done{copy};
    for (uint32_t c = 0; c < GetChannels(); ++c)
    {
        // Position p ends up owning the block of position p + 1, so block b of the ring is
        // participant b - 1's: each participant reduces its own.
        std::vector<Region> blocks;
        for (uint32_t b = 0; b < n; ++b)
        {
            blocks.push_back(ChannelPart(CollectiveProgram::Part(whole, n, (b + n - 1) % n), c));
        }
        ReduceScatterSteps reduced = AddReduceScatter(program, ring, index, blocks, {copy});
        done.insert(done.end(), reduced.owned.begin(), reduced.owned.end());
    }
    Region mine = CollectiveProgram::Part(whole, n, index);
    program.Local(Region{CollectiveProgram::OUTPUT, 0, mine.count}, mine, CollectiveProgram::COPY, done);
}

TypeId
RingAllGather::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingAllGather")
                            .SetParent<RingCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<RingAllGather>();
    return tid;
}

RingAllGather::RingAllGather()
    : RingCollective("all_gather")
{
}

double
RingAllGather::AlphaBetaSeconds(uint64_t bytes, uint32_t n, const AlphaBeta& link)
{
    // n - 1 steps, each a block of S / n.
    const double s = double(bytes);
    const double m = n - 1.0;
    return m * (link.alpha + s / n * link.beta);
}

void
RingAllGather::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    uint32_t n = GetN();
    Region whole{CollectiveProgram::OUTPUT, 0, GetCount()};
    Region mine = CollectiveProgram::Part(whole, n, index);
    Step own = program.Local(mine, Region{CollectiveProgram::INPUT, 0, mine.count}, CollectiveProgram::COPY);
    Ring ring = GetWholeRing();
    for (uint32_t c = 0; c < GetChannels(); ++c)
    {
        std::vector<Region> blocks;
        for (uint32_t b = 0; b < n; ++b)
        {
            blocks.push_back(ChannelPart(CollectiveProgram::Part(whole, n, b), c));
        }
        AddAllGather(program, ring, index, blocks, index, {own});
    }
}

} // namespace ns3
