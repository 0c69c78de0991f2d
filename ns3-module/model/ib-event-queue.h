/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_EVENT_QUEUE_H
#define IB_EVENT_QUEUE_H

#include "ib-packet.h"

#include "ns3/event-id.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class IbNetDevice;

/**
 * \ingroup uniference
 *
 * \brief The fabric's own event list: packet arrivals and port wake-ups, kept apart from
 * ns-3's scheduler and driven by one ns-3 event at a time.
 *
 * A hop of a packet costs two events, and each ns-3 event costs an allocation, a scheduler
 * insertion and removal, and the log-level checks that Debian's ns-3 (built with logging)
 * makes inside Simulator::Schedule; together they were about half of the fabric's time. This
 * queue keeps fabric events as plain entries in a binary heap (packets in a pool, no
 * allocation once warm) and keeps one ns-3 event scheduled at its earliest entry; when that
 * event fires, every fabric event due by then runs (in the order Later gives). So ns-3
 * time stays the one clock, and fabric events interleave with all other ns-3 events by time;
 * among events at the same nanosecond, the fabric's run together when the queue's ns-3 event
 * comes up (deterministically).
 *
 * One queue serves the whole simulation; Simulator::Destroy empties it.
 */
class IbEventQueue
{
  public:
    /// What an entry does.
    enum Kind : uint8_t
    {
        RECEIVE,     //!< hand a packet to a port
        IDLE,        //!< a port's transmitter fell idle
        CREDIT_WAKE, //!< credits arrived at a port that waits for them
        OWNER_WAKE,  //!< the port's owner asked to be woken (a paced queue pair's turn)
    };

    /// \return the simulation's queue
    static IbEventQueue& Get();

    /**
     * \brief Schedule a fabric event.
     * \param delayNs nanoseconds from now
     * \param kind what to do
     * \param device the port it concerns
     * \param packet for RECEIVE, the packet
     */
    void Schedule(int64_t delayNs, Kind kind, IbNetDevice* device, const IbPacket* packet = nullptr);

    /// \return fabric events run so far in this simulation
    uint64_t GetEventCount() const;

    /**
     * Fabric events fall on whole nanoseconds (ns-3's default resolution) while lines keep
     * exact picoseconds, so rounding an event up never slows a line down.
     * \param ps an absolute time in ps
     * \return nanoseconds from now to the first nanosecond at or after it
     */
    static int64_t NsUntil(int64_t ps)
    {
        int64_t ahead = ps - Get().NowPs();
        return ahead > 0 ? (ahead + 999) / 1000 : 0;
    }

    /// \return the simulation time in ps, read once per batch of fabric events
    int64_t NowPs() const
    {
        return m_running ? m_nowPs : Simulator::Now().GetPicoSeconds();
    }

  private:
    IbEventQueue();

    /// A scheduled fabric event.
    struct Entry
    {
        int64_t timeNs;      //!< When
        uint64_t place;      //!< Order among equal times: kind, then port (see Later)
        uint64_t seq;        //!< Order among equal times, kind and port: the port's count
        IbNetDevice* device; //!< The port
        uint32_t slot;       //!< The packet's pool slot (RECEIVE)
        Kind kind;           //!< What
    };

    /**
     * Heap order: earliest first; among equal nanoseconds, by kind, then by port (node id,
     * interface), then in the order that port's events of that kind were scheduled. Not the
     * global order of scheduling: a key that depends only on the port's own history gives the
     * same order whether the fabric runs in one process or is cut across several (a packet
     * from another process is scheduled when it arrives there, not when it left).
     */
    struct Later
    {
        /// \param a an entry \param b another \return whether a runs after b
        bool operator()(const Entry& a, const Entry& b) const
        {
            if (a.timeNs != b.timeNs)
            {
                return a.timeNs > b.timeNs;
            }
            return a.place != b.place ? a.place > b.place : a.seq > b.seq;
        }
    };

    /// The ns-3 event: run every entry due by now, then wait for the next.
    void Run();
    /// Keep the ns-3 event at the earliest entry.
    void Arm();
    /// Forget everything (Simulator::Destroy).
    static void Reset();

    std::vector<Entry> m_heap;          //!< Pending entries, a binary heap
    std::vector<IbPacket> m_packets;    //!< Pool of packets in flight
    std::vector<uint32_t> m_free;       //!< Free pool slots
    uint64_t m_count;                   //!< Entries run
    EventId m_event;                    //!< The ns-3 event
    int64_t m_armedNs;                  //!< Its time, while pending
    bool m_running;                     //!< Run is taking entries
    int64_t m_nowPs;                    //!< The time, while Run is taking entries
    bool m_destroyHooked;               //!< Reset is registered with Simulator::Destroy
};

} // namespace ns3

#endif /* IB_EVENT_QUEUE_H */
