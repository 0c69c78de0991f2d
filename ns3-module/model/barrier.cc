/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "barrier.h"

#include "collective-registry.h"

#include "ns3/abort.h"
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
                            .SetParent<Collective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<Barrier>();
    return tid;
}

Barrier::Barrier()
    : m_rounds(0)
{
    NS_LOG_FUNCTION(this);
}

Barrier::~Barrier()
{
    NS_LOG_FUNCTION(this);
}

double
Barrier::GetBusBandwidthFactor() const
{
    return 0.0;
}

uint32_t
Barrier::GetRounds() const
{
    return m_rounds;
}

void
Barrier::DoSetup()
{
    m_rounds = 0;
    while ((uint64_t(1) << m_rounds) < GetN())
    {
        ++m_rounds;
    }
    m_sent.assign(GetN(), 0);
    m_received.assign(GetN(), std::vector<bool>(m_rounds, false));
}

void
Barrier::DoEnter(uint32_t index)
{
    Advance(index);
}

void
Barrier::DoReceive(uint32_t index, uint32_t from, uint64_t cookie, uint64_t bytes)
{
    uint32_t n = GetN();
    NS_ABORT_MSG_UNLESS(cookie < m_rounds && !m_received[index][cookie] &&
                            from == (index + n - (uint32_t(1) << cookie) % n) % n && bytes == 0,
                        "barrier on channel " << GetChannel() << ": participant " << index
                                              << " got an unexpected message for round " << cookie
                                              << " (" << bytes << " bytes) from " << from);
    m_received[index][cookie] = true;
    Advance(index);
}

void
Barrier::Advance(uint32_t index)
{
    if (!HasEntered(index) || IsComplete(index))
    {
        return;
    }
    uint32_t n = GetN();
    // Round k + 1 may only start once round k's message has arrived.
    while (m_sent[index] < m_rounds && (m_sent[index] == 0 || m_received[index][m_sent[index] - 1]))
    {
        uint32_t round = m_sent[index]++;
        SendTo(index, (index + (uint32_t(1) << round)) % n, round, 0);
    }
    if (m_sent[index] == m_rounds && (m_rounds == 0 || m_received[index][m_rounds - 1]))
    {
        Complete(index);
    }
}

} // namespace ns3
