/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-broadcast.h"

#include "collective-registry.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingBroadcast");

NS_OBJECT_ENSURE_REGISTERED(RingBroadcast);
NS_COLLECTIVE_ALGORITHM_REGISTER(RingBroadcast, "broadcast", "ring");

TypeId
RingBroadcast::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingBroadcast")
                            .SetParent<Collective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<RingBroadcast>()
                            .AddAttribute("Root",
                                          "Index in the group of the participant that holds the "
                                          "data.",
                                          UintegerValue(0),
                                          MakeUintegerAccessor(&RingBroadcast::m_root),
                                          MakeUintegerChecker<uint32_t>())
                            .AddAttribute("ChunkBytes",
                                          "Largest message (bytes) the data is cut into; "
                                          "smaller chunks pipeline better and cost more headers.",
                                          UintegerValue(1 << 20),
                                          MakeUintegerAccessor(&RingBroadcast::m_chunkBytes),
                                          MakeUintegerChecker<uint64_t>(1));
    return tid;
}

RingBroadcast::RingBroadcast()
    : m_root(0),
      m_chunkBytes(1 << 20),
      m_messages(0)
{
    NS_LOG_FUNCTION(this);
}

RingBroadcast::~RingBroadcast()
{
    NS_LOG_FUNCTION(this);
}

double
RingBroadcast::GetBusBandwidthFactor() const
{
    return 1.0;
}

uint64_t
RingBroadcast::GetMessageCount() const
{
    return m_messages;
}

void
RingBroadcast::DoSetup()
{
    NS_ABORT_MSG_UNLESS(m_root < GetN(),
                        "ring broadcast: Root " << m_root << " in a group of " << GetN());
    // An empty broadcast still orders every participant after the root.
    m_messages = GetBytes() == 0 ? 1 : (GetBytes() + m_chunkBytes - 1) / m_chunkBytes;
    m_received.assign(GetN(), 0);
    m_forwarded.assign(GetN(), 0);
}

uint64_t
RingBroadcast::ChunkSize(uint64_t chunk) const
{
    return std::min(m_chunkBytes, GetBytes() - chunk * m_chunkBytes);
}

uint32_t
RingBroadcast::Position(uint32_t index) const
{
    return (index + GetN() - m_root) % GetN();
}

void
RingBroadcast::DoEnter(uint32_t index)
{
    if (GetN() == 1)
    {
        Complete(index);
        return;
    }
    if (index == m_root)
    {
        uint32_t next = (index + 1) % GetN();
        for (uint64_t chunk = 0; chunk < m_messages; ++chunk)
        {
            SendTo(index,
                   next,
                   chunk,
                   ChunkSize(chunk),
                   chunk + 1 == m_messages
                       ? MakeCallback(&RingBroadcast::HandleLastSent, this, index)
                       : MakeNullCallback<void>());
        }
        m_forwarded[index] = m_messages;
        return;
    }
    Advance(index);
}

void
RingBroadcast::DoReceive(uint32_t index, uint32_t from, uint64_t cookie, uint64_t bytes)
{
    uint32_t previous = (index + GetN() - 1) % GetN();
    NS_ABORT_MSG_UNLESS(index != m_root && from == previous && cookie == m_received[index] &&
                            bytes == ChunkSize(cookie),
                        "ring broadcast on channel "
                            << GetChannel() << ": participant " << index << " expected chunk "
                            << m_received[index] << " from " << previous << ", got chunk " << cookie
                            << " (" << bytes << " bytes) from " << from);
    ++m_received[index];
    Advance(index);
}

void
RingBroadcast::Advance(uint32_t index)
{
    if (!HasEntered(index) || IsComplete(index))
    {
        return;
    }
    if (Position(index) == GetN() - 1)
    {
        if (m_received[index] == m_messages)
        {
            Complete(index);
        }
        return;
    }
    uint32_t next = (index + 1) % GetN();
    while (m_forwarded[index] < m_received[index])
    {
        uint64_t chunk = m_forwarded[index]++;
        SendTo(index,
               next,
               chunk,
               ChunkSize(chunk),
               chunk + 1 == m_messages ? MakeCallback(&RingBroadcast::HandleLastSent, this, index)
                                       : MakeNullCallback<void>());
    }
}

void
RingBroadcast::HandleLastSent(uint32_t index)
{
    Complete(index);
}

} // namespace ns3
