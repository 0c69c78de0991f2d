/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-application.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveApplication");

NS_OBJECT_ENSURE_REGISTERED(CollectiveApplication);

TypeId
CollectiveApplication::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectiveApplication")
            .SetParent<Application>()
            .SetGroupName("Uniference")
            .AddConstructor<CollectiveApplication>()
            .AddTraceSource("Completed",
                            "This participant's part of the collective completed (when it "
                            "entered, when it completed).",
                            MakeTraceSourceAccessor(&CollectiveApplication::m_completedTrace),
                            "ns3::CollectiveApplication::CompletedTracedCallback");
    return tid;
}

CollectiveApplication::CollectiveApplication()
    : m_index(0)
{
    NS_LOG_FUNCTION(this);
}

CollectiveApplication::~CollectiveApplication()
{
    NS_LOG_FUNCTION(this);
}

void
CollectiveApplication::DoDispose()
{
    m_collective = nullptr;
    Application::DoDispose();
}

void
CollectiveApplication::SetCollective(Ptr<Collective> collective, uint32_t index)
{
    NS_ABORT_MSG_UNLESS(collective && index < collective->GetN(),
                        "CollectiveApplication: participant " << index << " of a collective of "
                                                              << (collective ? collective->GetN() : 0));
    m_collective = collective;
    m_index = index;
    m_collective->TraceConnectWithoutContext(
        "Completed",
        MakeCallback(&CollectiveApplication::HandleCompleted, this));
}

uint32_t
CollectiveApplication::GetIndex() const
{
    return m_index;
}

bool
CollectiveApplication::IsComplete() const
{
    return m_collective && m_collective->IsComplete(m_index);
}

void
CollectiveApplication::StartApplication()
{
    NS_LOG_FUNCTION(this << m_index);
    NS_ABORT_MSG_UNLESS(m_collective, "CollectiveApplication started without a collective");
    m_collective->Enter(m_index);
}

void
CollectiveApplication::StopApplication()
{
    NS_LOG_FUNCTION(this);
}

void
CollectiveApplication::HandleCompleted(uint32_t index)
{
    if (index == m_index)
    {
        m_completedTrace(m_collective->GetEnterTime(index), m_collective->GetCompletionTime(index));
    }
}

} // namespace ns3
