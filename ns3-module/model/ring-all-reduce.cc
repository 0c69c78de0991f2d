/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-all-reduce.h"

#include "collective-registry.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingAllReduce");

NS_OBJECT_ENSURE_REGISTERED(RingAllReduce);
NS_COLLECTIVE_ALGORITHM_REGISTER(RingAllReduce, "all_reduce", "ring");

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
    : RingCollective("ring all-reduce")
{
    NS_LOG_FUNCTION(this);
}

RingAllReduce::~RingAllReduce()
{
    NS_LOG_FUNCTION(this);
}

double
RingAllReduce::GetBusBandwidthFactor() const
{
    return 2.0 * (GetN() - 1) / GetN();
}

uint32_t
RingAllReduce::GetStepCount() const
{
    return 2 * (GetN() - 1);
}

uint64_t
RingAllReduce::GetStepBytes(uint32_t index, uint32_t step) const
{
    uint32_t n = GetN();
    // Reduce-scatter step s sends chunk (i - s); all-gather step t sends chunk (i + 1 - t),
    // the one i finished reducing. Offsets by n keep the arithmetic unsigned.
    uint32_t chunk = step < n - 1 ? (index + n - step) % n : (index + 1 + n - (step - (n - 1))) % n;
    return GetChunkBytes(GetBytes(), n, chunk);
}

} // namespace ns3
