/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FABRIC_FIRST_SCHEDULER_H
#define FABRIC_FIRST_SCHEDULER_H

#include "ns3/scheduler.h"

#include <map>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief ns-3's map scheduler, except that among the events of one time step the network's
 * own link-level events come first, in an order of their own: the InfiniBand-like fabric's
 * (IbEventQueue's) event, then Ethernet frames' arrivals by receiving port.
 *
 * ns-3 orders the events of one time by when they were scheduled. The fabric keeps one ns-3
 * event at its earliest entry and moves it whenever that entry changes, so when it was
 * scheduled depends on every port the process runs; and in a simulation cut across processes a
 * frame from another process is scheduled when its message arrives, not when the frame left.
 * Taking these events first, ordered by a rank that depends on the port alone, makes their
 * place among the other events of a nanosecond the same in one process and in many, and so
 * their results. Install it with Simulator::SetScheduler (ObjectFactory
 * ("ns3::FabricFirstScheduler")); without it these events take ns-3's usual place.
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
     * \brief Put the next event this process schedules (call Simulator::Schedule or
     * ScheduleWithContext right after) before the ordinary events of its time, among the
     * promoted ones by rank (lower first), in the simulation's FabricFirstScheduler; nothing
     * where the simulation has another scheduler.
     * \param rank its place among the promoted events of its time: 0 for the fabric's event,
     * a port's key for a frame's arrival (EthernetChannel); equal ranks go in scheduling order
     */
    static void PromoteNext(uint64_t rank);

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

  private:
    /// The rank of an event not promoted: after every promoted one.
    static constexpr uint64_t ORDINARY = ~uint64_t(0);

    /// An event's place: time, then rank (promoted before not), then the order of scheduling.
    struct Place
    {
        EventKey key;  //!< ns-3's key
        uint64_t rank; //!< PromoteNext's rank, or ORDINARY
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
            if (a.rank != b.rank)
            {
                return a.rank < b.rank;
            }
            return a.key.m_uid < b.key.m_uid;
        }
    };

    std::map<Place, EventImpl*, Order> m_list; //!< The events, in order
    uint64_t m_nextRank;                       //!< The next inserted event's rank
};

} // namespace ns3

#endif /* FABRIC_FIRST_SCHEDULER_H */
