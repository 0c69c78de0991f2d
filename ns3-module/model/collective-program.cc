/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-program.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveProgram");

namespace
{
const char*
BufferName(CollectiveProgram::Buffer buffer)
{
    switch (buffer)
    {
    case CollectiveProgram::INPUT:
        return "input";
    case CollectiveProgram::OUTPUT:
        return "output";
    case CollectiveProgram::SCRATCH:
        return "scratch";
    }
    return "?";
}

std::string
RegionText(const CollectiveProgram::Region& region)
{
    std::ostringstream out;
    out << BufferName(region.buffer) << "[" << region.offset << ", "
        << region.offset + region.count << ")";
    return out.str();
}

/// Counts per peer grow as peers appear, so a program needs no group size.
uint32_t
NextSequence(std::vector<uint32_t>& counts, uint32_t peer)
{
    if (peer >= counts.size())
    {
        counts.resize(peer + 1, 0);
    }
    return counts[peer]++;
}
} // namespace

CollectiveProgram::CollectiveProgram(uint32_t participant)
    : m_participant(participant),
      m_scratch(0)
{
    NS_LOG_FUNCTION(this << participant);
}

CollectiveProgram::Region
CollectiveProgram::Part(const Region& region, uint32_t parts, uint32_t k)
{
    NS_ASSERT(parts > 0 && k < parts);
    uint64_t base = region.count / parts;
    uint64_t larger = region.count % parts;
    return Region{region.buffer,
                  region.offset + k * base + std::min<uint64_t>(k, larger),
                  base + (k < larger ? 1 : 0)};
}

std::vector<CollectiveProgram::Region>
CollectiveProgram::Slice(const Region& region, uint64_t maxCount)
{
    if (maxCount == 0 || region.count <= maxCount)
    {
        return {region};
    }
    std::vector<Region> pieces;
    for (uint64_t at = 0; at < region.count; at += maxCount)
    {
        pieces.push_back(
            Region{region.buffer, region.offset + at, std::min(maxCount, region.count - at)});
    }
    return pieces;
}

CollectiveProgram::Step
CollectiveProgram::Add(Op op, const std::vector<Step>& after)
{
    Step self = m_ops.size();
    op.firstDependency = m_dependencies.size();
    op.dependencyCount = 0;
    for (Step dependency : after)
    {
        if (dependency == NONE)
        {
            continue;
        }
        // Dependencies on earlier steps only: a program cannot wait for itself in a cycle.
        NS_ABORT_MSG_UNLESS(dependency < self,
                            "collective program of participant "
                                << m_participant << ": step " << self << " waits for step "
                                << dependency << ", which is not an earlier step");
        m_dependencies.push_back(dependency);
        ++op.dependencyCount;
    }
    m_ops.push_back(op);
    NS_LOG_LOGIC(Describe(self) << ", after " << op.dependencyCount << " earlier steps");
    return self;
}

CollectiveProgram::Step
CollectiveProgram::Send(uint32_t to,
                        Region region,
                        const std::vector<Step>& after,
                        uint64_t extraBytes)
{
    NS_ABORT_MSG_IF(to == m_participant,
                    "collective program of participant " << m_participant << ": send to itself");
    Op op{};
    op.kind = SEND;
    op.peer = to;
    op.sequence = NextSequence(m_sendsTo, to);
    op.region = region;
    op.extraBytes = extraBytes;
    return Add(op, after);
}

CollectiveProgram::Step
CollectiveProgram::Recv(uint32_t from,
                        Region region,
                        Action action,
                        const std::vector<Step>& after,
                        uint64_t extraBytes)
{
    NS_ABORT_MSG_IF(from == m_participant,
                    "collective program of participant " << m_participant
                                                          << ": receive from itself");
    Op op{};
    op.kind = RECV;
    op.action = action;
    op.peer = from;
    op.sequence = NextSequence(m_recvsFrom, from);
    op.region = region;
    op.extraBytes = extraBytes;
    return Add(op, after);
}

CollectiveProgram::Step
CollectiveProgram::Local(Region into, Region from, Action action, const std::vector<Step>& after)
{
    NS_ABORT_MSG_UNLESS(into.count == from.count,
                        "collective program of participant "
                            << m_participant << ": local step from " << RegionText(from)
                            << " into " << RegionText(into) << " of another size");
    Op op{};
    op.kind = LOCAL;
    op.action = action;
    op.region = into;
    op.source = from;
    return Add(op, after);
}

CollectiveProgram::Step
CollectiveProgram::Join(const std::vector<Step>& after)
{
    Region nothing{OUTPUT, 0, 0};
    return Local(nothing, nothing, COPY, after);
}

void
CollectiveProgram::UseScratch(uint64_t count)
{
    m_scratch = std::max(m_scratch, count);
}

uint32_t
CollectiveProgram::GetParticipant() const
{
    return m_participant;
}

const std::vector<CollectiveProgram::Op>&
CollectiveProgram::GetOps() const
{
    return m_ops;
}

const std::vector<CollectiveProgram::Step>&
CollectiveProgram::GetDependencies() const
{
    return m_dependencies;
}

uint64_t
CollectiveProgram::GetScratchCount() const
{
    return m_scratch;
}

std::string
CollectiveProgram::Describe(Step step) const
{
    const Op& op = m_ops.at(step);
    std::ostringstream out;
    out << "step " << step << " of participant " << m_participant << ": ";
    switch (op.kind)
    {
    case SEND:
        out << "send #" << op.sequence << " of " << RegionText(op.region) << " to " << op.peer;
        break;
    case RECV:
        out << (op.action == REDUCE ? "reduce" : "receive") << " #" << op.sequence << " from "
            << op.peer << " into " << RegionText(op.region);
        break;
    case LOCAL:
        out << (op.action == REDUCE ? "reduce " : "copy ") << RegionText(op.source) << " into "
            << RegionText(op.region);
        break;
    }
    return out.str();
}

} // namespace ns3
