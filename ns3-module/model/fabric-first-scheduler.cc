/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-first-scheduler.h"

#include "ns3/abort.h"
#include "ns3/event-impl.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricFirstScheduler");

NS_OBJECT_ENSURE_REGISTERED(FabricFirstScheduler);

namespace
{
/// The scheduler of the simulation now running, if it is one of these (one per process).
FabricFirstScheduler* g_current = nullptr;
} // namespace

TypeId
FabricFirstScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FabricFirstScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Uniference")
                            .AddConstructor<FabricFirstScheduler>();
    return tid;
}

FabricFirstScheduler::FabricFirstScheduler()
{
    g_current = this;
}

FabricFirstScheduler::~FabricFirstScheduler()
{
    if (g_current == this)
    {
        g_current = nullptr;
    }
}

void
FabricFirstScheduler::Promote(const EventId& event)
{
    if (!g_current)
    {
        return;
    }
    EventKey key;
    key.m_ts = event.GetTs();
    key.m_uid = event.GetUid();
    key.m_context = event.GetContext();
    auto found = g_current->m_list.find(Place{key, false});
    if (found == g_current->m_list.end())
    {
        return; // not in this scheduler (already promoted, or scheduled elsewhere)
    }
    EventImpl* impl = found->second;
    g_current->m_list.erase(found);
    g_current->m_list.emplace(Place{key, true}, impl);
}

void
FabricFirstScheduler::Insert(const Event& ev)
{
    const bool inserted = m_list.emplace(Place{ev.key, false}, ev.impl).second;
    NS_ABORT_MSG_UNLESS(inserted, "FabricFirstScheduler: an event scheduled twice");
}

bool
FabricFirstScheduler::IsEmpty() const
{
    return m_list.empty();
}

Scheduler::Event
FabricFirstScheduler::PeekNext() const
{
    auto first = m_list.begin();
    NS_ASSERT(first != m_list.end());
    return Event{first->second, first->first.key};
}

Scheduler::Event
FabricFirstScheduler::RemoveNext()
{
    auto first = m_list.begin();
    NS_ASSERT(first != m_list.end());
    Event ev{first->second, first->first.key};
    m_list.erase(first);
    return ev;
}

void
FabricFirstScheduler::Remove(const Event& ev)
{
    auto found = m_list.find(Place{ev.key, false});
    if (found == m_list.end())
    {
        found = m_list.find(Place{ev.key, true});
    }
    NS_ASSERT(found != m_list.end() && found->second == ev.impl);
    m_list.erase(found);
}

} // namespace ns3
