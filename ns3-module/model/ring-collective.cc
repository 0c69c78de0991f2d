/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-collective.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingCollective");

NS_OBJECT_ENSURE_REGISTERED(RingCollective);

TypeId
RingCollective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RingCollective").SetParent<Collective>().SetGroupName("Uniference");
    return tid;
}

RingCollective::RingCollective(std::string name)
    : m_name(std::move(name)),
      m_steps(0)
{
    NS_LOG_FUNCTION(this << m_name);
}

RingCollective::~RingCollective()
{
    NS_LOG_FUNCTION(this);
}

void
RingCollective::DoSetup()
{
    m_steps = GetStepCount();
    m_sent.assign(GetN(), 0);
    m_received.assign(GetN(), 0);
}

void
RingCollective::DoEnter(uint32_t index)
{
    Advance(index);
}

void
RingCollective::DoReceive(uint32_t index, uint32_t from, uint64_t cookie, uint64_t bytes)
{
    uint32_t n = GetN();
    uint32_t previous = (index + n - 1) % n;
    NS_ABORT_MSG_UNLESS(from == previous && cookie == m_received[index] &&
                            bytes == GetStepBytes(previous, m_received[index]),
                        m_name << " on channel " << GetChannel() << ": participant " << index
                               << " expected step " << m_received[index] << " from " << previous
                               << ", got step " << cookie << " (" << bytes << " bytes) from "
                               << from);
    ++m_received[index];
    Advance(index);
}

void
RingCollective::Advance(uint32_t index)
{
    if (!HasEntered(index) || IsComplete(index))
    {
        return;
    }
    uint32_t next = (index + 1) % GetN();
    // Step s + 1 forwards what arrived in step s; step 0 needs nothing.
    while (m_sent[index] < m_steps && m_sent[index] <= m_received[index])
    {
        SendTo(index, next, m_sent[index], GetStepBytes(index, m_sent[index]));
        ++m_sent[index];
    }
    if (m_received[index] == m_steps)
    {
        Complete(index);
    }
}

} // namespace ns3
