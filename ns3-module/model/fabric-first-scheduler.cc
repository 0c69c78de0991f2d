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
    : m_nextRank(ORDINARY)
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
FabricFirstScheduler::PromoteNext(uint64_t rank)
{
    if (g_current)
    {
        g_current->m_nextRank = rank;
    }
}

void
FabricFirstScheduler::Insert(const Event& ev)
{
    const bool inserted = m_list.emplace(Place{ev.key, m_nextRank}, ev.impl).second;
    m_nextRank = ORDINARY;
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
    auto found = m_list.find(Place{ev.key, ORDINARY});
    if (found == m_list.end())
    {
        // Promoted, at some rank: among the few events of its time.
        EventKey start = ev.key;
        start.m_uid = 0;
        found = m_list.lower_bound(Place{start, 0});
        while (found != m_list.end() && found->first.key.m_ts == ev.key.m_ts &&
               found->second != ev.impl)
        {
            ++found;
        }
    }
    NS_ABORT_MSG_UNLESS(found != m_list.end() && found->second == ev.impl,
                        "FabricFirstScheduler: removing an event it does not hold");
    m_list.erase(found);
}

} // namespace ns3
