/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-all-gather.h"

#include "collective-registry.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingAllGather");

NS_OBJECT_ENSURE_REGISTERED(RingAllGather);
NS_COLLECTIVE_ALGORITHM_REGISTER(RingAllGather, "all_gather", "ring");

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
    : RingCollective("ring all-gather")
{
    NS_LOG_FUNCTION(this);
}

RingAllGather::~RingAllGather()
{
    NS_LOG_FUNCTION(this);
}

double
RingAllGather::GetBusBandwidthFactor() const
{
    return static_cast<double>(GetN() - 1) / GetN();
}

uint32_t
RingAllGather::GetStepCount() const
{
    return GetN() - 1;
}

uint64_t
RingAllGather::GetStepBytes(uint32_t index, uint32_t step) const
{
    uint32_t n = GetN();
    // Step t forwards the chunk that arrived in step t - 1; step 0 sends the participant's own.
    return GetChunkBytes(GetBytes(), n, (index + n - step) % n);
}

} // namespace ns3
