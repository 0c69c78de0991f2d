/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Collective");

NS_OBJECT_ENSURE_REGISTERED(Collective);

uint64_t Collective::s_nextChannel = Collective::FIRST_CHANNEL;

TypeId
Collective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Collective")
            .SetParent<Object>()
            .SetGroupName("Uniference")
            .AddTraceSource("Entered",
                            "A participant entered the operation (its index in the group).",
                            MakeTraceSourceAccessor(&Collective::m_enteredTrace),
                            "ns3::Collective::ParticipantTracedCallback")
            .AddTraceSource("Completed",
                            "A participant's part of the operation completed (its index).",
                            MakeTraceSourceAccessor(&Collective::m_completedTrace),
                            "ns3::Collective::ParticipantTracedCallback");
    return tid;
}

Collective::Collective()
    : m_channel(s_nextChannel++),
      m_bytes(0),
      m_setup(false),
      m_listening(false),
      m_completeCount(0)
{
    NS_LOG_FUNCTION(this << m_channel);
    // The hello frame's channel ends the range; reaching it would take 2^63 collectives.
    NS_ABORT_MSG_IF(m_channel == MessageTransport::HELLO_CHANNEL, "collective channels exhausted");
}

Collective::~Collective()
{
    NS_LOG_FUNCTION(this);
}

void
Collective::DoDispose()
{
    NS_LOG_FUNCTION(this);
    if (m_listening)
    {
        for (auto& transport : m_participants)
        {
            transport->Unlisten(m_channel);
        }
        m_listening = false;
    }
    m_participants.clear();
    m_completionCallback = MakeNullCallback<void, uint32_t>();
    Object::DoDispose();
}

uint64_t
Collective::GetChunkBytes(uint64_t total, uint32_t parts, uint32_t k)
{
    NS_ASSERT(parts > 0 && k < parts);
    return total / parts + (k < total % parts ? 1 : 0);
}

void
Collective::Setup(std::vector<Ptr<MessageTransport>> participants, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << participants.size() << bytes);
    NS_ABORT_MSG_IF(m_setup,
                    GetInstanceTypeId().GetName()
                        << " on channel " << m_channel << ": Setup called twice");
    NS_ABORT_MSG_IF(participants.empty(),
                    GetInstanceTypeId().GetName() << ": Setup with no participants");
    m_participants = std::move(participants);
    m_bytes = bytes;
    uint32_t n = m_participants.size();
    for (uint32_t i = 0; i < n; ++i)
    {
        NS_ABORT_MSG_IF(!m_participants[i],
                        GetInstanceTypeId().GetName()
                            << ": participant " << i << " has no transport");
        bool inserted = m_indexOfEndpoint.emplace(m_participants[i]->GetEndpointId(), i).second;
        NS_ABORT_MSG_UNLESS(inserted,
                            GetInstanceTypeId().GetName()
                                << ": participants share endpoint "
                                << m_participants[i]->GetEndpointId() << " (index " << i << ")");
    }
    m_entered.assign(n, false);
    m_complete.assign(n, false);
    m_enterTime.assign(n, Time());
    m_completionTime.assign(n, Time());
    m_setup = true;
    // Holding a reference from each listener keeps an unfinished operation alive even when its
    // creator lets go of it; the references go with the listeners once every participant is
    // complete.
    for (uint32_t i = 0; i < n; ++i)
    {
        m_participants[i]->Listen(
            m_channel,
            MakeCallback(&Collective::HandleReceive, Ptr<Collective>(this), i));
    }
    m_listening = true;
    DoSetup();
}

void
Collective::Enter(uint32_t index)
{
    NS_LOG_FUNCTION(this << index);
    NS_ABORT_MSG_UNLESS(m_setup,
                        GetInstanceTypeId().GetName() << ": Enter(" << index << ") before Setup");
    NS_ABORT_MSG_UNLESS(index < GetN(),
                        GetInstanceTypeId().GetName()
                            << ": Enter(" << index << ") in a group of " << GetN());
    NS_ABORT_MSG_IF(m_entered[index],
                    GetInstanceTypeId().GetName()
                        << " on channel " << m_channel << " at " << Simulator::Now().As(Time::US)
                        << ": participant " << index << " entered twice");
    m_entered[index] = true;
    m_enterTime[index] = Simulator::Now();
    m_enteredTrace(index);
    DoEnter(index);
}

void
Collective::SetCompletionCallback(Callback<void, uint32_t> cb)
{
    m_completionCallback = cb;
}

bool
Collective::IsFinished() const
{
    return m_setup && m_completeCount == GetN();
}

uint32_t
Collective::GetN() const
{
    return m_participants.size();
}

uint64_t
Collective::GetBytes() const
{
    return m_bytes;
}

void
Collective::SetChannel(uint64_t channel)
{
    NS_ABORT_MSG_IF(m_setup,
                    GetInstanceTypeId().GetName() << " on channel " << m_channel
                                                  << ": SetChannel after Setup");
    NS_ABORT_MSG_UNLESS(channel < FIRST_CHANNEL,
                        "Collective::SetChannel: channel " << channel
                                                           << " is in the range the module draws from");
    m_channel = channel;
}

uint64_t
Collective::GetChannel() const
{
    return m_channel;
}

Ptr<MessageTransport>
Collective::GetParticipant(uint32_t index) const
{
    return m_participants.at(index);
}

bool
Collective::HasEntered(uint32_t index) const
{
    return m_entered.at(index);
}

bool
Collective::IsComplete(uint32_t index) const
{
    return m_complete.at(index);
}

Time
Collective::GetEnterTime(uint32_t index) const
{
    return m_enterTime.at(index);
}

Time
Collective::GetCompletionTime(uint32_t index) const
{
    return m_completionTime.at(index);
}

void
Collective::SendTo(uint32_t from,
                   uint32_t to,
                   uint64_t cookie,
                   uint64_t bytes,
                   Callback<void> onSent)
{
    NS_LOG_LOGIC(GetInstanceTypeId().GetName() << " channel " << m_channel << ": " << from << " -> "
                                               << to << " cookie " << cookie << " bytes " << bytes);
    m_participants[from]->Send(m_participants[to]->GetEndpointId(),
                               m_channel,
                               cookie,
                               bytes,
                               onSent);
}

void
Collective::Complete(uint32_t index)
{
    NS_LOG_FUNCTION(this << index);
    NS_ASSERT(m_entered[index] && !m_complete[index]);
    m_complete[index] = true;
    m_completionTime[index] = Simulator::Now();
    ++m_completeCount;
    Ptr<Collective> self = this; // the listeners' references may be the last ones
    if (m_completeCount == GetN() && m_listening)
    {
        for (auto& transport : m_participants)
        {
            transport->Unlisten(m_channel);
        }
        m_listening = false;
    }
    m_completedTrace(index);
    if (!m_completionCallback.IsNull())
    {
        m_completionCallback(index);
    }
}

void
Collective::HandleReceive(uint32_t index, uint32_t sourceEndpoint, uint64_t cookie, uint64_t bytes)
{
    auto it = m_indexOfEndpoint.find(sourceEndpoint);
    NS_ABORT_MSG_IF(it == m_indexOfEndpoint.end(),
                    GetInstanceTypeId().GetName()
                        << " on channel " << m_channel << ": participant " << index
                        << " got a message from endpoint " << sourceEndpoint
                        << ", which is not in the group");
    NS_ABORT_MSG_IF(m_complete[index],
                    GetInstanceTypeId().GetName()
                        << " on channel " << m_channel << ": message for participant " << index
                        << ", which is already complete");
    DoReceive(index, it->second, cookie, bytes);
}

} // namespace ns3
