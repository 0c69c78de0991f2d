/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "barrier.h"

#include "collective-registry.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Barrier");

NS_OBJECT_ENSURE_REGISTERED(Barrier);
NS_COLLECTIVE_ALGORITHM_REGISTER(Barrier, "barrier", "dissemination");

TypeId
Barrier::GetTypeId()
{
    static TypeId tid = TypeId("ns3::Barrier")
                            .SetParent<ScheduledCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<Barrier>();
    return tid;
}

Barrier::Barrier()
    : ScheduledCollective("barrier")
{
}

uint32_t
Barrier::GetRounds() const
{
    uint32_t rounds = 0;
    while ((uint64_t(1) << rounds) < GetN())
    {
        ++rounds;
    }
    return rounds;
}

void
Barrier::BuildProgram(uint32_t index, CollectiveProgram& program) const
{
    NS_LOG_FUNCTION(this << index);
    uint32_t n = GetN();
    CollectiveProgram::Region nothing{CollectiveProgram::OUTPUT, 0, 0};
    std::vector<CollectiveProgram::Step> heard;
    for (uint32_t k = 0; k < GetRounds(); ++k)
    {
        uint32_t distance = uint32_t(1) << k;
        // Round k + 1 starts once round k's message has arrived (and, through round k's send,
        // every earlier round's).
        CollectiveProgram::Step sent = program.Send((index + distance) % n, nothing, heard);
        heard = {sent, program.Recv((index + n - distance) % n, nothing, CollectiveProgram::COPY)};
    }
}

} // namespace ns3
