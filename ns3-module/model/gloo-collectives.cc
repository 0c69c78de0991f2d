/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Gloo's own schedules, read from Debian's libgloo (git 5b14351), the version PyTorch 1.13's
// ProcessGroupGloo runs here; docs/collectives-backends.md cites each choice.

#include "gloo-collectives.h"

#include "collective-registry.h"
#include "tree-collectives.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <functional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GlooCollectives");

NS_OBJECT_ENSURE_REGISTERED(GlooAllReduce);
NS_OBJECT_ENSURE_REGISTERED(GlooAllGather);
NS_OBJECT_ENSURE_REGISTERED(GlooBroadcast);
NS_OBJECT_ENSURE_REGISTERED(GlooAllToAll);
NS_COLLECTIVE_ALGORITHM_REGISTER(GlooAllReduce, "all_reduce", "gloo");
NS_COLLECTIVE_ALGORITHM_REGISTER(GlooAllGather, "all_gather", "gloo");
NS_COLLECTIVE_ALGORITHM_REGISTER(GlooBroadcast, "broadcast", "gloo");
NS_COLLECTIVE_ALGORITHM_REGISTER(GlooAllToAll, "all_to_all", "gloo");

using Step = CollectiveProgram::Step;
using Region = CollectiveProgram::Region;

namespace
{
/**
 * At most two sends and two receives in flight: the operations of iteration i wait for those of
 * iteration i - 2, as Gloo's loops wait before posting more.
 * \param sends the sends so far, one per iteration (NONE where skipped)
 * \param receives the receives so far, likewise
 * \param i the iteration
 * \param start what the first iterations wait for
 * \return what iteration i waits for
 */
std::vector<Step>
WindowOfTwo(const std::vector<Step>& sends, const std::vector<Step>& receives, uint32_t i, Step start)
{
    if (i < 2)
    {
        return {start};
    }
    return {sends[i - 2], receives[i - 2], start};
}

/**
 * GlooComm's exchange: a receive from every other participant, from index - 1 first, then a
 * send to every other participant, to index + 1 first. Steps start in the order they are
 * written, so every receive's ready notice leaves ahead of the data. Empty regions are
 * neither sent nor received.
 * \param program the program
 * \param index the participant
 * \param n the group size
 * \param incoming where participant j's message lands
 * \param outgoing what goes to participant j
 */
void
AddExchange(CollectiveProgram& program,
            uint32_t index,
            uint32_t n,
            const std::function<Region(uint32_t)>& incoming,
            const std::function<Region(uint32_t)>& outgoing)
{
    for (uint32_t k = 1; k < n; ++k)
    {
        const uint32_t from = (index + n - k) % n;
        if (Region in = incoming(from); in.count > 0)
        {
            program.Recv(from, in, CollectiveProgram::COPY);
        }
    }
    for (uint32_t k = 1; k < n; ++k)
    {
        const uint32_t to = (index + k) % n;
        if (Region out = outgoing(to); out.count > 0)
        {
            program.Send(to, out);
        }
    }
}
} // namespace

TypeId
GlooAllReduce::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GlooAllReduce")
                            .SetParent<ScheduledCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<GlooAllReduce>()
                            .AddAttribute("SegmentBytes",
                                          "Largest segment (bytes), Gloo's kMaxSegmentSize.",
                                          UintegerValue(1 << 20),
                                          MakeUintegerAccessor(&GlooAllReduce::m_segmentBytes),
                                          MakeUintegerChecker<uint64_t>(1));
    return tid;
}

GlooAllReduce::GlooAllReduce()
    : ScheduledCollective("all_reduce"),
      m_segmentBytes(1 << 20)
{
}

void
GlooAllReduce::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    const uint32_t n = GetN();
    if (n == 1)
    {
        return;
    }
    const uint64_t count = GetCount();
    const uint64_t maxSegment = std::max<uint64_t>(1, m_segmentBytes / GetElementBytes());
    uint64_t segments = std::max<uint64_t>((count + maxSegment - 1) / maxSegment, 2 * n);
    segments = (segments + n - 1) / n * n;
    const uint64_t perRank = segments / n;
    const uint64_t segment = (count + segments - 1) / segments;
    auto region = [&](uint64_t k) {
        uint64_t begin = std::min(count, k * segment);
        return Region{CollectiveProgram::OUTPUT, begin, std::min(count, begin + segment) - begin};
    };
    const uint32_t previous = (index + n - 1) % n;
    const uint32_t next = (index + 1) % n;
    const uint64_t iterations = (n - 1) * perRank;
    Step start = program.Join({});
    for (int phase = 0; phase < 2; ++phase)
    {
        // Reduce-scatter: receive segment (r + 2)P + i, send (r + 1)P + i. All-gather: receive
        // (r + 1)P + i, send rP + i. The segment sent at i >= P arrived at i - P.
        const uint64_t receiveBase = (index + (phase == 0 ? 2 : 1)) * perRank;
        const uint64_t sendBase = (index + (phase == 0 ? 1 : 0)) * perRank;
        std::vector<Step> sends;
        std::vector<Step> receives;
        for (uint64_t i = 0; i < iterations; ++i)
        {
            std::vector<Step> after = WindowOfTwo(sends, receives, i, start);
            if (i >= perRank)
            {
                after.push_back(receives[i - perRank]);
            }
            Region in = region((receiveBase + i) % segments);
            Region out = region((sendBase + i) % segments);
            // Empty segments are neither sent nor received.
            receives.push_back(in.count == 0 ? CollectiveProgram::NONE
                                             : program.Recv(next,
                                                            in,
                                                            phase == 0 ? CollectiveProgram::REDUCE
                                                                       : CollectiveProgram::COPY,
                                                            after));
            sends.push_back(out.count == 0 ? CollectiveProgram::NONE : program.Send(previous, out, after));
        }
        std::vector<Step> all = sends;
        all.insert(all.end(), receives.begin(), receives.end());
        start = program.Join(all); // the all-gather starts once the reduce-scatter has drained
    }
}

TypeId
GlooAllGather::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GlooAllGather")
            .SetParent<ScheduledCollective>()
            .SetGroupName("Uniference")
            .AddConstructor<GlooAllGather>()
            .AddAttribute("ReceiveFirst",
                          "On two participants, exchange the blocks receive first, as the "
                          "project's GlooComm does, instead of running Gloo's ring.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&GlooAllGather::m_receiveFirst),
                          MakeBooleanChecker());
    return tid;
}

GlooAllGather::GlooAllGather()
    : ScheduledCollective("all_gather"),
      m_receiveFirst(false)
{
}

void
GlooAllGather::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    const uint32_t n = GetN();
    const uint64_t block = GetCount() / n;
    auto half = [&](uint32_t b, uint32_t h) {
        uint64_t first = block / 2;
        return Region{CollectiveProgram::OUTPUT, b * block + (h == 0 ? 0 : first), h == 0 ? first : block - first};
    };
    Step start = program.Local(Region{CollectiveProgram::OUTPUT, index * block, block},
                               Region{CollectiveProgram::INPUT, 0, block},
                               CollectiveProgram::COPY);
    if (n == 2 && m_receiveFirst)
    {
        // GlooComm exchanges a pair's blocks instead of running Gloo's ring.
        AddExchange(
            program,
            index,
            n,
            [&](uint32_t j) { return Region{CollectiveProgram::OUTPUT, j * block, block}; },
            [&](uint32_t) { return Region{CollectiveProgram::INPUT, 0, block}; });
        return;
    }
    std::vector<Step> sends;
    std::vector<Step> receives;
    for (uint32_t i = 0; i + 2 < 2 * n; ++i)
    {
        // Half i % 2 of block r - i / 2 goes on; the same half of block r - i / 2 - 1 comes in.
        std::vector<Step> after = WindowOfTwo(sends, receives, i, start);
        uint32_t out = (index + n - (i / 2) % n) % n;
        uint32_t in = (index + 2 * n - i / 2 - 1) % n;
        sends.push_back(program.Send((index + 1) % n, half(out, i % 2), after));
        receives.push_back(program.Recv((index + n - 1) % n, half(in, i % 2), CollectiveProgram::COPY, after));
    }
}

TypeId
GlooBroadcast::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GlooBroadcast")
                            .SetParent<ScheduledCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<GlooBroadcast>();
    return tid;
}

GlooBroadcast::GlooBroadcast()
    : ScheduledCollective("broadcast")
{
}

void
GlooBroadcast::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    TreeCollective::Node node = TreeCollective::GetBinomialNode(GetN(), GetRoot(), index);
    Region whole{CollectiveProgram::OUTPUT, 0, GetCount()};
    std::vector<Step> here;
    if (index != GetRoot())
    {
        here.push_back(program.Recv(node.parent, whole, CollectiveProgram::COPY));
    }
    // Nearest child first, as Gloo's rounds go.
    for (auto child = node.children.rbegin(); child != node.children.rend(); ++child)
    {
        program.Send(*child, whole, here);
    }
}

TypeId
GlooAllToAll::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GlooAllToAll")
            .SetParent<ScheduledCollective>()
            .SetGroupName("Uniference")
            .AddConstructor<GlooAllToAll>()
            .AddAttribute("ReceiveFirst",
                          "Post every receive before any send, as the project's GlooComm "
                          "does, instead of Gloo's send-then-receive per peer.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&GlooAllToAll::m_receiveFirst),
                          MakeBooleanChecker());
    return tid;
}

GlooAllToAll::GlooAllToAll()
    : ScheduledCollective("all_to_all"),
      m_receiveFirst(false)
{
}

void
GlooAllToAll::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    const uint32_t n = GetN();
    std::vector<Region> out = Blocks(CollectiveProgram::INPUT, GetSendCounts(index));
    std::vector<Region> in = Blocks(CollectiveProgram::OUTPUT, GetRecvCounts(index));
    program.Local(in[index], out[index], CollectiveProgram::COPY);
    if (m_receiveFirst)
    {
        AddExchange(
            program,
            index,
            n,
            [&](uint32_t j) { return in[j]; },
            [&](uint32_t j) { return out[j]; });
        return;
    }
    // Gloo posts every operation before it waits on any; an empty block still goes, as a
    // header-only message.
    for (uint32_t k = 1; k < n; ++k)
    {
        const uint32_t to = (index + k) % n;
        const uint32_t from = (index + n - k) % n;
        program.Send(to, out[to]);
        program.Recv(from, in[from], CollectiveProgram::COPY);
    }
}

} // namespace ns3
