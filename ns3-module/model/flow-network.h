/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_NETWORK_H
#define FLOW_NETWORK_H

#include "flow-fifo.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Links shared max-min fairly by byte streams: the flow level's network.
 *
 * A link is one direction of a cable, with its line rate. A stream carries bytes in order
 * along a path of links (one stream per ordered pair of endpoints, as a TCP connection or an
 * RDMA queue pair is); while it has bytes to carry it is active and gets a rate. The rates are
 * the max-min fair allocation (progressive filling: the link whose capacity, shared equally
 * by its unfixed streams, is the smallest fixes those streams at that share; repeat), with a
 * stream's own cap (a TCP window in slow start) acting as a link of its own.
 *
 * Rates are recomputed only when a stream starts, ends or changes its cap, once per instant
 * however many do, and only for the streams connected to the changed ones through shared
 * links (the rest keep their rates, which the change cannot move). Between changes every
 * stream advances at its rate; a callback registered for an offset (When) runs, as an ns-3
 * event, at the instant the stream has carried that many bytes.
 *
 * Bytes here are wire bytes: the transport above adds its headers before pushing them.
 */
class FlowNetwork : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FlowNetwork();
    ~FlowNetwork() override;

    /**
     * TracedCallback signature for a link's load between two rate changes.
     * \param [in] link the link
     * \param [in] start when the load began
     * \param [in] end when it changed
     * \param [in] load the fraction of the line rate in use, 0 to 1
     */
    typedef void (*LinkLoadTracedCallback)(uint32_t link, Time start, Time end, double load);

    /**
     * \brief Add one direction of a cable.
     * \param rate its line rate
     * \param transmitter the device that sends on it (for reports); may be null
     * \return the link's id
     */
    uint32_t AddLink(DataRate rate, Ptr<NetDevice> transmitter);
    /// \return the number of links
    uint32_t GetNLinks() const;
    /// \param link a link id \return its line rate
    DataRate GetLinkRate(uint32_t link) const;
    /// \param link a link id \return the device that sends on it, or null
    Ptr<NetDevice> GetLinkDevice(uint32_t link) const;
    /// \param link a link id \return the bytes carried over it so far
    uint64_t GetLinkBytes(uint32_t link) const;

    /**
     * \brief Open a stream.
     * \param path the links it crosses, in order; at least one
     * \return the stream's id
     */
    uint32_t AddStream(const std::vector<uint32_t>& path);
    /// \param stream a stream id \return its links
    std::vector<uint32_t> GetPath(uint32_t stream) const;

    /**
     * \brief Give a stream more bytes to carry, after those it has.
     * \param stream a stream id
     * \param bytes wire bytes
     * \return the offset of the last of them: the bytes pushed to the stream so far
     */
    uint64_t Push(uint32_t stream, uint64_t bytes);

    /**
     * \brief Run a callback once a stream has carried a number of bytes (at once if it has).
     *
     * Callbacks of one stream run in the order of their offsets, those of one offset in the
     * order they were registered.
     *
     * \param stream a stream id
     * \param offset bytes from the stream's start
     * \param cb the callback
     */
    void When(uint32_t stream, uint64_t offset, Callback<void> cb);

    /**
     * \brief Limit a stream's rate (beyond its fair share).
     * \param stream a stream id
     * \param bytesPerSecond the limit; 0 lifts it
     */
    void SetCap(uint32_t stream, double bytesPerSecond);

    /// \param stream a stream id \return its rate now, bytes per second (0 when idle)
    double GetRate(uint32_t stream) const;
    /// \param stream a stream id \return the bytes it has carried by now
    double GetCarried(uint32_t stream) const;

    /// \return the number of times rates were recomputed
    uint64_t GetReallocations() const;

  protected:
    void DoDispose() override;

  private:
    /// A callback waiting for a stream's offset.
    struct Mark
    {
        uint64_t offset;    //!< Bytes from the stream's start
        Callback<void> cb;  //!< What to run
    };

    /// A stream of bytes along a path: what a reallocation reads and writes of it, kept small
    /// (an all-to-all reallocates tens of thousands of streams at every change). Its links
    /// and its marks live beside it (m_pathLinks, m_marks).
    struct Stream
    {
        double carried{0};           //!< Bytes carried by `since`
        double rate{0};              //!< Bytes per second
        double cap{0};               //!< Own limit; 0: none
        int64_t since{0};            //!< When `carried` was last brought up to date (time steps)
        uint64_t pushed{0};          //!< Bytes given to carry
        uint64_t nextMark{UINT64_MAX}; //!< The first waiting mark's offset; UINT64_MAX: none
        uint32_t first{0};           //!< Its first link's index in m_pathLinks
        uint32_t hops{0};            //!< Its number of links
        uint32_t due{0};             //!< Version of its entry in the due heap; bumped to drop it
        bool active{false};          //!< Whether it has a rate (bytes left)
    };

    /// One direction of a cable.
    struct Link
    {
        double capacity;                //!< Bytes per second
        Ptr<NetDevice> device;          //!< Its transmitter, or null
        std::vector<uint32_t> streams;  //!< Active streams crossing it
        double load{0};                 //!< Sum of their rates, bytes per second
        Time loadSince;                 //!< When `load` took its value
        double bytes{0};                //!< Bytes carried up to loadSince
    };

    /// A stream's links: a range over m_pathLinks, for range-for loops.
    struct Links
    {
        const uint32_t* first; //!< Its first link's entry
        const uint32_t* last;  //!< Past its last link's entry
        /// \return the first entry
        const uint32_t* begin() const
        {
            return first;
        }
        /// \return past the last entry
        const uint32_t* end() const
        {
            return last;
        }
    };

    /// \param s a stream \return its links
    Links LinksOf(const Stream& s) const
    {
        const uint32_t* first = m_pathLinks.data() + s.first;
        return {first, first + s.hops};
    }

    /// Bring a stream's carried bytes to a time.
    /// \param s the stream \param now the time, in time steps (Simulator::Now's)
    void Advance(Stream& s, int64_t now);
    /// Bring a stream's carried bytes to now.
    void Advance(Stream& s);
    /// Put an idle stream with bytes to carry on its links.
    void Activate(uint32_t id);
    /// Take a stream without bytes left off its links.
    void Deactivate(uint32_t id);
    /// Recompute rates at this instant (once, however many changes asked for it).
    void RequestReallocation(uint32_t id);
    /// The max-min fair rates of the streams connected to the changed ones.
    void Reallocate();
    /// Take a stream's entry out of the due heap (lazily: the entry goes stale).
    void Unschedule(Stream& s);
    /// Wake at the earliest due entry.
    void ScheduleWake();
    /// Run the streams whose next mark is due now.
    void Wake();
    /// Schedule a stream's next mark at its rate.
    void ScheduleNext(uint32_t id);
    /// Append a stream's next due entry to m_due, outside the heap order (the caller restores it).
    /// \param id the stream \param now now, in time steps \param nowNs now, in nanoseconds
    void AppendDue(uint32_t id, int64_t now, int64_t nowNs);
    /// Drop m_due's stale entries (the heap order is lost).
    void DropStale();
    /// A link's load changes: count the bytes the old one carried and trace it.
    /// \param l the link \param load its new load, bytes per second \param at now
    void SetLoad(uint32_t l, double load, Time at);
    /// \param steps a span of time steps \return it in seconds, cheaply
    double Seconds(int64_t steps) const;
    /// A stream reached its next mark.
    void MarkReached(uint32_t id);

    std::vector<Link> m_links;          //!< By id
    std::vector<Stream> m_streams;      //!< By id
    std::vector<uint32_t> m_pathLinks;  //!< Every stream's links, back to back
    std::vector<uint32_t> m_pathSlots;  //!< Per entry of m_pathLinks, its place in the link's list
    std::vector<FlowFifo<Mark>> m_marks; //!< Each stream's waiting callbacks, by offset
    std::vector<uint32_t> m_changed;    //!< Streams that changed since the last reallocation
    bool m_reallocationPending;         //!< A reallocation is scheduled now
    uint64_t m_reallocations;           //!< Reallocations run

    /// When a stream reaches its next mark (or its end): an entry of the due heap. Streams
    /// keep one ns-3 event between them, at the earliest entry, rather than one each: rates
    /// change for thousands of streams at once, and rescheduling an ns-3 event per stream
    /// dominated the run.
    struct Due
    {
        int64_t ns;        //!< When, in nanoseconds
        uint32_t stream;   //!< Which stream
        uint32_t version;  //!< Its version when pushed; stale once it moved on
        bool operator>(const Due& o) const
        {
            return ns > o.ns || (ns == o.ns && stream > o.stream);
        }
    };
    std::vector<Due> m_due;   //!< A min-heap by time (std::push_heap with greater)
    EventId m_wake;           //!< The event at m_due's earliest time
    int64_t m_wakeNs;         //!< Its time, or -1
    bool m_inWake;            //!< Wake is running (and schedules the next one itself)
    Time m_resolution;        //!< Rates are recomputed at multiples of it (0: at once)

    // Scratch of Reallocate, kept to avoid reallocating memory on every call.
    std::vector<uint32_t> m_componentLinks;   //!< Links of the component
    std::vector<uint32_t> m_componentStreams; //!< Streams of the component
    std::vector<double> m_oldRates;           //!< Their rates before
    std::vector<uint32_t> m_stack;            //!< Links still to visit
    std::vector<uint32_t> m_linkEpoch;   //!< Last reallocation a link was visited in
    std::vector<uint32_t> m_streamEpoch; //!< Last reallocation a stream was visited in
    std::vector<double> m_remaining;     //!< Per link, capacity not yet given out
    std::vector<uint32_t> m_unfixed;     //!< Per link, streams not yet fixed
    uint32_t m_epoch;                    //!< This reallocation's number
    /// An entry of progressive filling's heap: a link's equal share when pushed, or a
    /// capped stream's cap.
    struct FillEntry
    {
        double share; //!< Bytes per second
        uint32_t id;  //!< The link, or the stream
        bool cap;     //!< A stream's cap, not a link's share
        bool operator>(const FillEntry& o) const
        {
            return share > o.share || (share == o.share && id > o.id);
        }
    };
    std::vector<FillEntry> m_heap;       //!< Progressive filling's heap (a min-heap)
    double m_stepsPerSecond;             //!< Time steps in one second

    TracedCallback<uint32_t, Time, Time, double> m_linkLoadTrace; //!< A link's load changed
};

} // namespace ns3

#endif /* FLOW_NETWORK_H */
