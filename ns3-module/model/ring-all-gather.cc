/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-all-gather.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingAllGather");

NS_OBJECT_ENSURE_REGISTERED(RingAllGather);

TypeId
RingAllGather::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingAllGather")
                            .SetParent<Collective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<RingAllGather>();
    return tid;
}

RingAllGather::RingAllGather()
    : m_steps(0)
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

void
RingAllGather::DoSetup()
{
    m_steps = GetN() - 1;
    m_sent.assign(GetN(), 0);
    m_received.assign(GetN(), 0);
}

uint64_t
RingAllGather::StepBytes(uint32_t index, uint32_t step) const
{
    uint32_t n = GetN();
    return GetChunkBytes(GetBytes(), n, (index + n - step) % n);
}

void
RingAllGather::DoEnter(uint32_t index)
{
    Advance(index);
}

void
RingAllGather::DoReceive(uint32_t index, uint32_t from, uint64_t cookie, uint64_t bytes)
{
    uint32_t n = GetN();
    uint32_t previous = (index + n - 1) % n;
    NS_ABORT_MSG_UNLESS(from == previous && cookie == m_received[index] &&
                            bytes == StepBytes(previous, m_received[index]),
                        "ring all-gather on channel "
                            << GetChannel() << ": participant " << index << " expected step "
                            << m_received[index] << " from " << previous << ", got step " << cookie
                            << " (" << bytes << " bytes) from " << from);
    ++m_received[index];
    Advance(index);
}

void
RingAllGather::Advance(uint32_t index)
{
    if (!HasEntered(index) || IsComplete(index))
    {
        return;
    }
    uint32_t next = (index + 1) % GetN();
    // Step t + 1 forwards the chunk that arrived in step t; step 0 sends the participant's own.
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
