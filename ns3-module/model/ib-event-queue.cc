/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-event-queue.h"

#include "fabric-first-scheduler.h"

#include "ib-net-device.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbEventQueue");

IbEventQueue&
IbEventQueue::Get()
{
    static IbEventQueue queue;
    return queue;
}

IbEventQueue::IbEventQueue()
    : m_count(0),
      m_armedNs(-1),
      m_running(false),
      m_nowPs(0),
      m_destroyHooked(false)
{
}

void
IbEventQueue::Schedule(int64_t delayNs, Kind kind, IbNetDevice* device, const IbPacket* packet)
{
    if (!m_destroyHooked)
    {
        NS_LOG_LOGIC("the run's first fabric event; the queue empties at Simulator::Destroy");
        m_destroyHooked = true;
        Simulator::ScheduleDestroy(&IbEventQueue::Reset);
    }
    uint32_t slot = 0;
    if (packet)
    {
        if (m_free.empty())
        {
            slot = static_cast<uint32_t>(m_packets.size());
            m_packets.push_back(*packet);
        }
        else
        {
            slot = m_free.back();
            m_free.pop_back();
            m_packets[slot] = *packet;
        }
    }
    int64_t now = NowPs() / 1000;
    m_heap.push_back(Entry{now + delayNs,
                           device->EventPlace(kind),
                           device->NextEventSeq(kind),
                           device,
                           slot,
                           kind});
    std::push_heap(m_heap.begin(), m_heap.end(), Later());
    Arm();
}

void
IbEventQueue::Arm()
{
    if (m_running || m_heap.empty())
    {
        return;
    }
    int64_t next = m_heap.front().timeNs;
    if (m_armedNs >= 0 && m_armedNs <= next)
    {
        return; // the pending ns-3 event comes first and re-arms after running
    }
    m_event.Cancel();
    m_armedNs = next;
    FabricFirstScheduler::PromoteNext(0);
    m_event = Simulator::Schedule(NanoSeconds(next - Simulator::Now().GetNanoSeconds()),
                                  &IbEventQueue::Run,
                                  this);
}

void
IbEventQueue::Run()
{
    m_armedNs = -1;
    m_running = true; // entries scheduled meanwhile are taken by this loop or the Arm after it
    int64_t now = Simulator::Now().GetNanoSeconds();
    m_nowPs = now * 1000;
    while (!m_heap.empty() && m_heap.front().timeNs <= now)
    {
        std::pop_heap(m_heap.begin(), m_heap.end(), Later());
        Entry entry = m_heap.back();
        m_heap.pop_back();
        ++m_count;
        switch (entry.kind)
        {
        case RECEIVE: {
            IbPacket packet = m_packets[entry.slot];
            m_free.push_back(entry.slot);
            entry.device->Receive(packet);
            break;
        }
        case IDLE:
            entry.device->TransmitComplete();
            break;
        case CREDIT_WAKE:
            entry.device->CreditWake();
            break;
        case OWNER_WAKE:
            entry.device->OwnerWake();
            break;
        }
    }
    m_running = false;
    Arm();
}

uint64_t
IbEventQueue::GetEventCount() const
{
    return m_count;
}

void
IbEventQueue::Reset()
{
    NS_LOG_FUNCTION_NOARGS();
    IbEventQueue& queue = Get();
    NS_LOG_LOGIC(queue.m_count << " fabric events run");
    queue.m_heap.clear();
    queue.m_packets.clear();
    queue.m_free.clear();
    queue.m_count = 0;
    queue.m_event = EventId();
    queue.m_armedNs = -1;
    queue.m_running = false;
    queue.m_destroyHooked = false;
}

} // namespace ns3
