/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tree-collectives.h"

#include "collective-registry.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TreeCollective");

NS_OBJECT_ENSURE_REGISTERED(TreeAllReduce);
NS_OBJECT_ENSURE_REGISTERED(TreeBroadcast);
NS_OBJECT_ENSURE_REGISTERED(TreeReduce);
NS_COLLECTIVE_ALGORITHM_REGISTER(TreeAllReduce, "all_reduce", "tree");
NS_COLLECTIVE_ALGORITHM_REGISTER(TreeBroadcast, "broadcast", "tree");
NS_COLLECTIVE_ALGORITHM_REGISTER(TreeReduce, "reduce", "tree");

using Step = CollectiveProgram::Step;
using Region = CollectiveProgram::Region;

namespace
{
/**
 * \param n a group size
 * \return the depth of a binary tree over it: ceil(log2 n), at least 1
 */
double
LogN(uint32_t n)
{
    return std::ceil(std::log2(std::max<uint32_t>(n, 2)));
}
} // namespace

TypeId
TreeCollective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TreeCollective")
            .SetParent<ScheduledCollective>()
            .SetGroupName("Uniference")
            .AddAttribute("ChunkBytes",
                          "Largest message (bytes) the data is cut into, each moving on through "
                          "the tree as soon as it may; 0 moves the buffer whole.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TreeCollective::m_chunkBytes),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

TreeCollective::TreeCollective(std::string operation)
    : ScheduledCollective(std::move(operation)),
      m_chunkBytes(0)
{
}

std::vector<Region>
TreeCollective::Pieces(const Region& region) const
{
    return ScheduledCollective::Pieces(region, m_chunkBytes);
}

TreeCollective::Node
TreeCollective::GetBinomialNode(uint32_t n, uint32_t root, uint32_t index)
{
    uint32_t v = (index + n - root) % n;
    Node node{index, {}};
    uint32_t mask = 1;
    while (mask < n && (v & mask) == 0)
    {
        mask <<= 1;
    }
    if (v != 0)
    {
        node.parent = (v - mask + root) % n;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
    {
        if (v + mask < n)
        {
            node.children.push_back((v + mask + root) % n);
        }
    }
    return node;
}

TreeCollective::Node
TreeCollective::GetInOrderNode(uint32_t n, uint32_t position)
{
    uint32_t lo = 0;
    uint32_t hi = n;
    uint32_t parent = position;
    while (true)
    {
        uint32_t middle = lo + (hi - lo) / 2;
        if (middle == position)
        {
            Node node{parent, {}};
            if (lo < middle)
            {
                node.children.push_back(lo + (middle - lo) / 2);
            }
            if (middle + 1 < hi)
            {
                node.children.push_back(middle + 1 + (hi - middle - 1) / 2);
            }
            return node;
        }
        parent = middle;
        if (position < middle)
        {
            hi = middle;
        }
        else
        {
            lo = middle + 1;
        }
    }
}

TypeId
TreeAllReduce::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TreeAllReduce")
                            .SetParent<TreeCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<TreeAllReduce>();
    return tid;
}

TreeAllReduce::TreeAllReduce()
    : TreeCollective("all_reduce")
{
}

double
TreeAllReduce::AlphaBetaSeconds(uint64_t bytes, uint32_t n, const AlphaBeta& link)
{
    // up and down a binary tree of depth log n in halves of S, pipelined.
    const double s = double(bytes);
    return 2 * LogN(n) * (link.alpha + s / 2 * link.beta) + s / 2 * link.beta;
}

void
TreeAllReduce::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    uint32_t n = GetN();
    Region whole{CollectiveProgram::OUTPUT, 0, GetCount()};
    for (uint32_t tree = 0; tree < 2; ++tree)
    {
        // Tree 1 runs on mirrored positions.
        auto position = [&](uint32_t i) { return tree == 0 ? i : n - 1 - i; };
        Node node = GetInOrderNode(n, position(index));
        uint32_t parent = position(node.parent); // mirroring is its own inverse
        bool root = node.parent == position(index);
        NS_LOG_LOGIC("tree " << tree << ": participant " << index << ", parent "
                             << (root ? index : parent) << ", " << node.children.size()
                             << " children");
        for (const Region& piece : Pieces(CollectiveProgram::Part(whole, 2, tree)))
        {
            // Up: the children's partial sums into this buffer (its final value comes down
            // later), then on to the parent.
            std::vector<Step> reduced;
            for (uint32_t child : node.children)
            {
                reduced.push_back(program.Recv(position(child), piece, CollectiveProgram::REDUCE));
            }
            std::vector<Step> full = reduced;
            if (!root)
            {
                Step up = program.Send(parent, piece, reduced);
                full = {program.Recv(parent, piece, CollectiveProgram::COPY, {up})};
            }
            for (uint32_t child : node.children)
            {
                program.Send(position(child), piece, full);
            }
        }
    }
}

TypeId
TreeBroadcast::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TreeBroadcast")
                            .SetParent<TreeCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<TreeBroadcast>();
    return tid;
}

TreeBroadcast::TreeBroadcast()
    : TreeCollective("broadcast")
{
}

double
TreeBroadcast::AlphaBetaSeconds(uint64_t bytes, uint32_t n, const AlphaBeta& link)
{
    // log n levels, each the whole of S.
    const double s = double(bytes);
    return LogN(n) * (link.alpha + s * link.beta);
}

void
TreeBroadcast::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    Node node = GetBinomialNode(GetN(), GetRoot(), index);
    NS_LOG_LOGIC("participant " << index << ", parent " << node.parent << ", "
                                << node.children.size() << " children");
    for (const Region& piece : Pieces(Region{CollectiveProgram::OUTPUT, 0, GetCount()}))
    {
        std::vector<Step> here;
        if (index != GetRoot())
        {
            here.push_back(program.Recv(node.parent, piece, CollectiveProgram::COPY));
        }
        for (uint32_t child : node.children)
        {
            program.Send(child, piece, here);
        }
    }
}

TypeId
TreeReduce::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TreeReduce")
                            .SetParent<TreeCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<TreeReduce>();
    return tid;
}

TreeReduce::TreeReduce()
    : TreeCollective("reduce")
{
}

double
TreeReduce::AlphaBetaSeconds(uint64_t bytes, uint32_t n, const AlphaBeta& link)
{
    // log n levels, each the whole of S.
    const double s = double(bytes);
    return LogN(n) * (link.alpha + s * link.beta);
}

void
TreeReduce::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    Node node = GetBinomialNode(GetN(), GetRoot(), index);
    NS_LOG_LOGIC("participant " << index << ", parent " << node.parent << ", "
                                << node.children.size() << " children");
    Region whole{CollectiveProgram::OUTPUT, 0, GetCount()};
    bool root = index == GetRoot();
    // Below the root, partial sums go to a scratch copy: c10d leaves a non-root's buffer as it was.
    Region sums = whole;
    std::vector<Step> copied;
    if (!root && !node.children.empty())
    {
        sums.buffer = CollectiveProgram::SCRATCH;
        program.UseScratch(GetCount());
        copied.push_back(program.Local(sums, whole, CollectiveProgram::COPY));
    }
    std::vector<Region> pieces = Pieces(sums);
    for (const Region& piece : pieces)
    {
        std::vector<Step> reduced = copied;
        // Children in increasing order of subtree size, the same order at every run.
        for (auto child = node.children.rbegin(); child != node.children.rend(); ++child)
        {
            reduced = {program.Recv(*child, piece, CollectiveProgram::REDUCE, reduced)};
        }
        if (!root)
        {
            program.Send(node.parent, piece, reduced);
        }
    }
}

} // namespace ns3
