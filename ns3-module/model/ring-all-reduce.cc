/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-all-reduce.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingAllReduce");

NS_OBJECT_ENSURE_REGISTERED(RingAllReduce);

TypeId
RingAllReduce::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingAllReduce")
                            .SetParent<Collective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<RingAllReduce>();
    return tid;
}

RingAllReduce::RingAllReduce()
    : m_steps(0)
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

void
RingAllReduce::DoSetup()
{
    m_steps = 2 * (GetN() - 1);
    m_sent.assign(GetN(), 0);
    m_received.assign(GetN(), 0);
}

uint64_t
RingAllReduce::StepBytes(uint32_t index, uint32_t step) const
{
    uint32_t n = GetN();
    // Reduce-scatter step s sends chunk (i - s); all-gather step t sends chunk (i + 1 - t),
    // the one i finished reducing. Offsets by n keep the arithmetic unsigned.
    uint32_t chunk = step < n - 1 ? (index + n - step) % n : (index + 1 + n - (step - (n - 1))) % n;
    return GetChunkBytes(GetBytes(), n, chunk);
}

void
RingAllReduce::DoEnter(uint32_t index)
{
    Advance(index);
}

void
RingAllReduce::DoReceive(uint32_t index, uint32_t from, uint64_t cookie, uint64_t bytes)
{
    uint32_t n = GetN();
    uint32_t previous = (index + n - 1) % n;
    NS_ABORT_MSG_UNLESS(from == previous && cookie == m_received[index] &&
                            bytes == StepBytes(previous, m_received[index]),
                        "ring all-reduce on channel "
                            << GetChannel() << ": participant " << index << " expected step "
                            << m_received[index] << " from " << previous << ", got step " << cookie
                            << " (" << bytes << " bytes) from " << from);
    ++m_received[index];
    Advance(index);
}

void
RingAllReduce::Advance(uint32_t index)
{
    if (!HasEntered(index) || IsComplete(index))
    {
        return;
    }
    uint32_t next = (index + 1) % GetN();
    // Step s + 1 forwards what arrived in step s; step 0 needs nothing.
    while (m_sent[index] < m_steps && m_sent[index] <= m_received[index])
    {
        SendTo(index, next, m_sent[index], StepBytes(index, m_sent[index]));
        ++m_sent[index];
    }
    if (m_received[index] == m_steps)
    {
        Complete(index);
    }
}

} // namespace ns3
