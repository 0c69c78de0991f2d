/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-collective.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingCollective");

NS_OBJECT_ENSURE_REGISTERED(RingCollective);

TypeId
RingCollective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RingCollective")
            .SetParent<Collective>()
            .SetGroupName("Uniference")
            .AddAttribute("ChunkBytes",
                          "Largest message (bytes) a step is cut into, each forwarded as soon as "
                          "it has arrived, so that the steps pipeline; 0 sends every step as one "
                          "message.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RingCollective::m_chunkBytes),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

RingCollective::RingCollective(std::string name)
    : m_name(std::move(name)),
      m_chunkBytes(0),
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
    m_sent.assign(GetN(), Position());
    m_received.assign(GetN(), Position());
}

uint64_t
RingCollective::GetPieceCount(uint64_t stepBytes) const
{
    // An empty step is still one (empty) message: the next step waits for it.
    return m_chunkBytes == 0 || stepBytes == 0 ? 1 : (stepBytes + m_chunkBytes - 1) / m_chunkBytes;
}

uint64_t
RingCollective::GetPieceBytes(uint64_t stepBytes, uint64_t piece) const
{
    return m_chunkBytes == 0 ? stepBytes : std::min(m_chunkBytes, stepBytes - piece * m_chunkBytes);
}

void
RingCollective::Next(Position& position, uint64_t stepBytes) const
{
    ++position.messages;
    if (++position.piece == GetPieceCount(stepBytes))
    {
        position.piece = 0;
        ++position.step;
    }
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
    Position& expected = m_received[index];
    NS_ABORT_MSG_UNLESS(expected.step < m_steps,
                        m_name << " on channel " << GetChannel() << ": participant " << index
                               << " got message " << cookie << " from " << from
                               << " after the last step");
    uint64_t stepBytes = GetStepBytes(previous, expected.step);
    NS_ABORT_MSG_UNLESS(from == previous && cookie == expected.messages &&
                            bytes == GetPieceBytes(stepBytes, expected.piece),
                        m_name << " on channel " << GetChannel() << ": participant " << index
                               << " expected message " << expected.messages << " (step "
                               << expected.step << ", " << GetPieceBytes(stepBytes, expected.piece)
                               << " bytes) from " << previous << ", got message " << cookie << " ("
                               << bytes << " bytes) from " << from);
    Next(expected, stepBytes);
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
    Position& sent = m_sent[index];
    const Position& received = m_received[index];
    // Piece k of step s + 1 forwards piece k of step s; step 0 needs nothing.
    while (sent.step < m_steps && (sent.step == 0 || received.step >= sent.step ||
                                   (received.step == sent.step - 1 && received.piece > sent.piece)))
    {
        uint64_t stepBytes = GetStepBytes(index, sent.step);
        SendTo(index, next, sent.messages, GetPieceBytes(stepBytes, sent.piece));
        Next(sent, stepBytes);
    }
    if (received.step == m_steps)
    {
        Complete(index);
    }
}

} // namespace ns3
