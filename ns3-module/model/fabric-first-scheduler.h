/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FABRIC_FIRST_SCHEDULER_H
#define FABRIC_FIRST_SCHEDULER_H

#include "ns3/event-id.h"
#include "ns3/scheduler.h"

#include <map>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief ns-3's map scheduler, except that among the events of one time step the
 * InfiniBand-like fabric's (IbEventQueue's) comes first.
 *
 * ns-3 orders the events of one time by when they were scheduled. The fabric keeps one ns-3
 * event at its earliest entry and moves it whenever that entry changes, so when it was
 * scheduled depends on every port the process runs; in a simulation cut across processes each
 * process runs only some. Taking the fabric's event first makes its place among the other
 * events of a nanosecond the same in one process and in many, and so their results. Install
 * it with Simulator::SetScheduler (ObjectFactory ("ns3::FabricFirstScheduler")); without it
 * the fabric's event takes ns-3's usual place.
 */
class FabricFirstScheduler : public Scheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FabricFirstScheduler();
    ~FabricFirstScheduler() override;

    /**
     * \brief Put an event scheduled just now first among the events of its time, in the
     * simulation's FabricFirstScheduler; nothing where the simulation has another scheduler.
     * \param event the event
     */
    static void Promote(const EventId& event);

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

  private:
    /// An event's place: time, then promoted before not, then the order of scheduling.
    struct Place
    {
        EventKey key; //!< ns-3's key
        bool first;   //!< Promoted
    };

    /// The order of places.
    struct Order
    {
        /// \param a a place \param b another \return whether a comes before b
        bool operator()(const Place& a, const Place& b) const
        {
            if (a.key.m_ts != b.key.m_ts)
            {
                return a.key.m_ts < b.key.m_ts;
            }
            if (a.first != b.first)
            {
                return a.first;
            }
            return a.key.m_uid < b.key.m_uid;
        }
    };

    std::map<Place, EventImpl*, Order> m_list; //!< The events, in order
};

} // namespace ns3

#endif /* FABRIC_FIRST_SCHEDULER_H */
