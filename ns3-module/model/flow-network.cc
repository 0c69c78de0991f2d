/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-network.h"

#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowNetwork");

NS_OBJECT_ENSURE_REGISTERED(FlowNetwork);

namespace
{

/// Bytes a stream may fall short of a mark by and still pass it: the rounding of a mark's
/// time up to the next nanosecond leaves it a hair past, floating point a hair short.
constexpr double CARRIED_SLACK = 1e-3;

/// Runs a callback (as an event).
void
Run(Callback<void> cb)
{
    cb();
}

} // namespace

TypeId
FlowNetwork::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FlowNetwork")
            .SetParent<Object>()
            .SetGroupName("Uniference")
            .AddConstructor<FlowNetwork>()
            .AddAttribute("Resolution",
                          "Rates are recomputed at the next multiple of this time after a "
                          "stream starts or ends, for all the changes up to then; 0: at once "
                          "(exact). A stream that ends leaves its share idle until then and "
                          "one that starts waits for it, so a coarser resolution is never "
                          "faster than exact, and far cheaper where thousands of streams share "
                          "links (all-to-all).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&FlowNetwork::m_resolution),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("LinkLoad",
                            "A link's load changed: the fraction of its line rate its streams "
                            "used from start to end (link, start, end, load).",
                            MakeTraceSourceAccessor(&FlowNetwork::m_linkLoadTrace),
                            "ns3::FlowNetwork::LinkLoadTracedCallback");
    return tid;
}

FlowNetwork::FlowNetwork()
    : m_reallocationPending(false),
      m_reallocations(0),
      m_wakeNs(-1),
      m_inWake(false),
      m_resolution(0),
      m_epoch(0),
      m_stepsPerSecond(static_cast<double>(ns3::Seconds(1).GetTimeStep()))
{
}

FlowNetwork::~FlowNetwork() = default;

void
FlowNetwork::DoDispose()
{
    if (m_wake.IsRunning())
    {
        Simulator::Remove(m_wake);
    }
    m_due.clear();
    m_marks.clear();
    for (Link& l : m_links)
    {
        l.device = nullptr;
    }
    Object::DoDispose();
}

uint32_t
FlowNetwork::AddLink(DataRate rate, Ptr<NetDevice> transmitter)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "FlowNetwork: a link needs a positive rate");
    Link link;
    link.capacity = static_cast<double>(rate.GetBitRate()) / 8.0;
    link.device = transmitter;
    m_links.push_back(std::move(link));
    m_linkEpoch.push_back(0);
    m_remaining.push_back(0);
    m_unfixed.push_back(0);
    return static_cast<uint32_t>(m_links.size() - 1);
}

uint32_t
FlowNetwork::GetNLinks() const
{
    return static_cast<uint32_t>(m_links.size());
}

DataRate
FlowNetwork::GetLinkRate(uint32_t link) const
{
    return DataRate(static_cast<uint64_t>(std::llround(m_links.at(link).capacity * 8.0)));
}

Ptr<NetDevice>
FlowNetwork::GetLinkDevice(uint32_t link) const
{
    return m_links.at(link).device;
}

uint64_t
FlowNetwork::GetLinkBytes(uint32_t link) const
{
    // The load has carried more since it took its value.
    const Link& l = m_links.at(link);
    const double bytes =
        l.bytes + l.load * Seconds(Simulator::Now().GetTimeStep() - l.loadSince.GetTimeStep());
    return static_cast<uint64_t>(std::llround(bytes));
}

uint32_t
FlowNetwork::AddStream(const std::vector<uint32_t>& path)
{
    NS_ABORT_MSG_IF(path.empty(), "FlowNetwork: a stream needs at least one link");
    for (uint32_t l : path)
    {
        NS_ABORT_MSG_IF(l >= m_links.size(), "FlowNetwork: no link " << l);
    }
    Stream s;
    s.first = static_cast<uint32_t>(m_pathLinks.size());
    s.hops = static_cast<uint32_t>(path.size());
    s.since = Simulator::Now().GetTimeStep();
    m_pathLinks.insert(m_pathLinks.end(), path.begin(), path.end());
    m_pathSlots.resize(m_pathLinks.size(), 0);
    m_marks.emplace_back();
    m_streams.push_back(s);
    m_streamEpoch.push_back(0);
    return static_cast<uint32_t>(m_streams.size() - 1);
}

std::vector<uint32_t>
FlowNetwork::GetPath(uint32_t stream) const
{
    const Stream& s = m_streams.at(stream);
    return std::vector<uint32_t>(m_pathLinks.begin() + s.first,
                                 m_pathLinks.begin() + s.first + s.hops);
}

double
FlowNetwork::GetRate(uint32_t stream) const
{
    return m_streams.at(stream).rate;
}

double
FlowNetwork::GetCarried(uint32_t stream) const
{
    const Stream& s = m_streams.at(stream);
    return s.carried + s.rate * Seconds(Simulator::Now().GetTimeStep() - s.since);
}

uint64_t
FlowNetwork::GetReallocations() const
{
    return m_reallocations;
}

void
FlowNetwork::Advance(Stream& s, int64_t now)
{
    if (s.active && now > s.since)
    {
        s.carried += s.rate * Seconds(now - s.since);
    }
    s.since = now;
}

void
FlowNetwork::Advance(Stream& s)
{
    Advance(s, Simulator::Now().GetTimeStep());
}

uint64_t
FlowNetwork::Push(uint32_t stream, uint64_t bytes)
{
    Stream& s = m_streams.at(stream);
    Advance(s);
    s.pushed += bytes;
    if (!s.active && static_cast<double>(s.pushed) > s.carried + CARRIED_SLACK)
    {
        Activate(stream);
        RequestReallocation(stream);
    }
    else if (s.active)
    {
        ScheduleNext(stream); // its end moved
    }
    return s.pushed;
}

void
FlowNetwork::When(uint32_t stream, uint64_t offset, Callback<void> cb)
{
    Stream& s = m_streams.at(stream);
    Advance(s);
    if (static_cast<double>(offset) <= s.carried + CARRIED_SLACK)
    {
        Simulator::ScheduleNow(&Run, cb);
        return;
    }
    NS_ABORT_MSG_IF(offset > s.pushed,
                    "FlowNetwork: a mark beyond the bytes pushed would never be reached");
    FlowFifo<Mark>& marks = m_marks[stream];
    auto at = marks.end();
    while (at != marks.begin() && std::prev(at)->offset > offset)
    {
        --at;
    }
    const bool first = at == marks.begin();
    marks.insert(at, Mark{offset, cb});
    s.nextMark = marks.front().offset;
    if (first && s.active)
    {
        ScheduleNext(stream);
    }
}

void
FlowNetwork::SetCap(uint32_t stream, double bytesPerSecond)
{
    Stream& s = m_streams.at(stream);
    if (s.cap == bytesPerSecond)
    {
        return;
    }
    s.cap = bytesPerSecond;
    if (s.active)
    {
        RequestReallocation(stream);
    }
}

void
FlowNetwork::Activate(uint32_t id)
{
    Stream& s = m_streams[id];
    for (uint32_t i = s.first; i < s.first + s.hops; ++i)
    {
        std::vector<uint32_t>& on = m_links[m_pathLinks[i]].streams;
        m_pathSlots[i] = static_cast<uint32_t>(on.size());
        on.push_back(id);
    }
    s.active = true;
    s.since = Simulator::Now().GetTimeStep();
}

void
FlowNetwork::Deactivate(uint32_t id)
{
    Stream& s = m_streams[id];
    const Time now = Simulator::Now();
    for (uint32_t i = s.first; i < s.first + s.hops; ++i)
    {
        const uint32_t link = m_pathLinks[i];
        // Its share is idle from now until the reallocation gives it out.
        SetLoad(link, std::max(0.0, m_links[link].load - s.rate), now);
        std::vector<uint32_t>& on = m_links[link].streams;
        const uint32_t last = on.back();
        const uint32_t slot = m_pathSlots[i];
        on[slot] = last;
        on.pop_back();
        if (last != id)
        {
            // The moved stream's slot on this link follows it.
            const Stream& moved = m_streams[last];
            for (uint32_t j = moved.first; j < moved.first + moved.hops; ++j)
            {
                if (m_pathLinks[j] == link)
                {
                    m_pathSlots[j] = slot;
                    break;
                }
            }
        }
    }
    s.active = false;
    s.rate = 0;
    Unschedule(s);
    RequestReallocation(id);
}

void
FlowNetwork::RequestReallocation(uint32_t id)
{
    m_changed.push_back(id);
    if (!m_reallocationPending)
    {
        m_reallocationPending = true;
        Time delay(0);
        if (m_resolution.IsStrictlyPositive())
        {
            const int64_t q = m_resolution.GetTimeStep();
            const int64_t now = Simulator::Now().GetTimeStep();
            delay = TimeStep(((now + q - 1) / q) * q - now);
        }
        Simulator::Schedule(delay, &FlowNetwork::Reallocate, this);
    }
}

void
FlowNetwork::Reallocate()
{
    m_reallocationPending = false;
    ++m_reallocations;
    const uint32_t epoch = ++m_epoch;

    // The component: links and active streams reachable from the changed streams' links.
    std::vector<uint32_t>& links = m_componentLinks;
    std::vector<uint32_t>& streams = m_componentStreams;
    std::vector<uint32_t>& stack = m_stack;
    links.clear();
    streams.clear();
    auto visitLink = [&](uint32_t l) {
        if (m_linkEpoch[l] != epoch)
        {
            m_linkEpoch[l] = epoch;
            stack.push_back(l);
        }
    };
    for (uint32_t id : m_changed)
    {
        for (uint32_t l : LinksOf(m_streams[id]))
        {
            visitLink(l);
        }
    }
    m_changed.clear();
    while (!stack.empty())
    {
        const uint32_t l = stack.back();
        stack.pop_back();
        links.push_back(l);
        for (uint32_t id : m_links[l].streams)
        {
            if (m_streamEpoch[id] != epoch)
            {
                m_streamEpoch[id] = epoch;
                streams.push_back(id);
                for (uint32_t m : LinksOf(m_streams[id]))
                {
                    visitLink(m);
                }
            }
        }
    }
    NS_LOG_LOGIC("reallocating " << streams.size() << " streams on " << links.size() << " links");

    // Progressive filling. A heap entry is a link's equal share when pushed (or a capped
    // stream's cap). Fixing streams at the smallest share never lowers another link's share
    // (remaining - r over unfixed - 1, with r at most remaining / unfixed), so an entry can
    // only be stale low: a popped link whose share has grown since goes back in at its new
    // share, rather than every fix pushing an entry for every link of the stream's path.
    std::vector<FillEntry>& heap = m_heap;
    heap.clear();
    for (uint32_t l : links)
    {
        m_remaining[l] = m_links[l].capacity;
        m_unfixed[l] = static_cast<uint32_t>(m_links[l].streams.size());
        if (m_unfixed[l] > 0)
        {
            heap.push_back({m_remaining[l] / m_unfixed[l], l, false});
        }
    }
    // A stream is unfixed while its epoch is this one; fixing it moves its epoch back by one.
    m_oldRates.clear();
    const int64_t now = Simulator::Now().GetTimeStep();
    for (uint32_t id : streams)
    {
        Stream& s = m_streams[id];
        Advance(s, now);
        m_oldRates.push_back(s.rate);
        if (s.cap > 0)
        {
            heap.push_back({s.cap, id, true});
        }
    }
    std::make_heap(heap.begin(), heap.end(), std::greater<FillEntry>());
    auto fix = [&](uint32_t id, double rate) {
        Stream& s = m_streams[id];
        m_streamEpoch[id] = epoch - 1;
        s.rate = rate;
        for (uint32_t m : LinksOf(s))
        {
            m_remaining[m] = std::max(0.0, m_remaining[m] - rate);
            --m_unfixed[m];
        }
    };
    while (!heap.empty())
    {
        std::pop_heap(heap.begin(), heap.end(), std::greater<FillEntry>());
        const FillEntry top = heap.back();
        heap.pop_back();
        if (top.cap)
        {
            if (m_streamEpoch[top.id] == epoch)
            {
                fix(top.id, top.share);
            }
            continue;
        }
        const uint32_t l = top.id;
        if (m_unfixed[l] == 0)
        {
            continue;
        }
        const double share = m_remaining[l] / m_unfixed[l];
        // Still the smallest if no entry left is below it (they can only be stale low).
        if (share > top.share * (1 + 1e-12) && !heap.empty() && heap.front().share < share)
        {
            heap.push_back({share, l, false});
            std::push_heap(heap.begin(), heap.end(), std::greater<FillEntry>());
            continue;
        }
        for (uint32_t id : m_links[l].streams)
        {
            if (m_streamEpoch[id] == epoch)
            {
                fix(id, share);
            }
        }
    }

    const Time at = Simulator::Now();
    for (uint32_t l : links)
    {
        Link& link = m_links[l];
        const double load = link.streams.empty() ? 0.0 : link.capacity - m_remaining[l];
        if (std::abs(load - link.load) > 1e-9 * link.capacity)
        {
            SetLoad(l, load, at);
        }
    }
    // A stream whose rate did not move keeps its due time. Where most moved (an all-to-all),
    // the due heap is rebuilt once rather than pushed into thousands of times.
    // Now's nanoseconds once: Time converts units through 128-bit division.
    const int64_t nowNs = at.GetNanoSeconds();
    const std::size_t before = m_due.size();
    for (std::size_t i = 0; i < streams.size(); ++i)
    {
        if (m_streams[streams[i]].rate != m_oldRates[i])
        {
            Unschedule(m_streams[streams[i]]);
            AppendDue(streams[i], now, nowNs);
        }
    }
    const std::size_t added = m_due.size() - before;
    if (added > before / 4)
    {
        DropStale();
        std::make_heap(m_due.begin(), m_due.end(), std::greater<Due>());
    }
    else
    {
        for (std::size_t i = before + 1; i <= m_due.size(); ++i)
        {
            std::push_heap(m_due.begin(), m_due.begin() + i, std::greater<Due>());
        }
    }
    ScheduleWake();
}

void
FlowNetwork::SetLoad(uint32_t l, double load, Time at)
{
    Link& link = m_links[l];
    if (link.load > 0 && at > link.loadSince)
    {
        link.bytes += link.load * Seconds((at - link.loadSince).GetTimeStep());
        m_linkLoadTrace(l, link.loadSince, at, std::min(1.0, link.load / link.capacity));
    }
    link.load = load;
    link.loadSince = at;
}

double
FlowNetwork::Seconds(int64_t steps) const
{
    // Time::GetSeconds converts through 128-bit arithmetic; this runs for every stream on
    // every reallocation. A division by a whole number of steps rounds as exactly as it can.
    return static_cast<double>(steps) / m_stepsPerSecond;
}

void
FlowNetwork::AppendDue(uint32_t id, int64_t now, int64_t nowNs)
{
    Stream& s = m_streams[id];
    if (!s.active || s.rate <= 0)
    {
        return;
    }
    Advance(s, now);
    const double target = static_cast<double>(std::min(s.pushed, s.nextMark));
    const double seconds = std::max(0.0, (target - s.carried) / s.rate);
    // Up to the next nanosecond, so that the stream has passed the target when it fires.
    const auto ns = static_cast<int64_t>(std::ceil(seconds * 1e9 - 1e-6));
    m_due.push_back({nowNs + std::max<int64_t>(ns, 0), id, s.due});
}

void
FlowNetwork::DropStale()
{
    std::size_t live = 0;
    for (const Due& d : m_due)
    {
        if (m_streams[d.stream].due == d.version)
        {
            m_due[live++] = d;
        }
    }
    m_due.resize(live);
}

void
FlowNetwork::ScheduleNext(uint32_t id)
{
    Unschedule(m_streams[id]);
    const std::size_t before = m_due.size();
    const Time now = Simulator::Now();
    AppendDue(id, now.GetTimeStep(), now.GetNanoSeconds());
    if (m_due.size() > before)
    {
        std::push_heap(m_due.begin(), m_due.end(), std::greater<Due>());
        ScheduleWake();
    }
}

void
FlowNetwork::Unschedule(Stream& s)
{
    ++s.due;
}

void
FlowNetwork::ScheduleWake()
{
    if (m_inWake)
    {
        return;
    }
    // Stale entries at the top would only wake us for nothing.
    while (!m_due.empty() && m_streams[m_due.front().stream].due != m_due.front().version)
    {
        std::pop_heap(m_due.begin(), m_due.end(), std::greater<Due>());
        m_due.pop_back();
    }
    // Stale entries deeper down are dropped wholesale once they outnumber the live ones.
    if (m_due.size() > 1024 && m_due.size() > 4 * m_streams.size())
    {
        DropStale();
        std::make_heap(m_due.begin(), m_due.end(), std::greater<Due>());
    }
    if (m_due.empty())
    {
        return;
    }
    const int64_t at = m_due.front().ns;
    if (m_wake.IsRunning() && m_wakeNs <= at)
    {
        return;
    }
    if (m_wake.IsRunning())
    {
        Simulator::Remove(m_wake);
    }
    m_wakeNs = at;
    m_wake = Simulator::Schedule(NanoSeconds(at) - Simulator::Now(), &FlowNetwork::Wake, this);
}

void
FlowNetwork::Wake()
{
    m_wakeNs = -1;
    m_inWake = true;
    const int64_t now = Simulator::Now().GetNanoSeconds();
    while (!m_due.empty() && m_due.front().ns <= now)
    {
        const Due due = m_due.front();
        std::pop_heap(m_due.begin(), m_due.end(), std::greater<Due>());
        m_due.pop_back();
        if (m_streams[due.stream].due == due.version)
        {
            ++m_streams[due.stream].due;
            MarkReached(due.stream);
        }
    }
    m_inWake = false;
    ScheduleWake();
}

void
FlowNetwork::MarkReached(uint32_t id)
{
    Stream& s = m_streams[id];
    const double before = s.carried;
    Advance(s);
    const double target = static_cast<double>(std::min(s.pushed, s.nextMark));
    // The event was set for the target, rounded up to a nanosecond: the stream is there, give
    // or take what the rounding and floating point make of it.
    const double pushed = static_cast<double>(s.pushed);
    double at = std::max(s.carried, target);
    if (pushed - at <= CARRIED_SLACK || at > pushed)
    {
        at = pushed;
    }
    for (uint32_t l : LinksOf(s))
    {
        m_links[l].bytes += at - s.carried;
    }
    s.carried = at;
    NS_LOG_LOGIC("stream " << id << " carried " << before << " -> " << s.carried);
    // Usually one mark is due (a message's end); more go to a list.
    FlowFifo<Mark>& marks = m_marks[id];
    Callback<void> first;
    std::vector<Callback<void>> more;
    while (!marks.empty() && static_cast<double>(marks.front().offset) <= s.carried + CARRIED_SLACK)
    {
        (first.IsNull() ? first : more.emplace_back()) = std::move(marks.front().cb);
        marks.pop_front();
    }
    s.nextMark = marks.empty() ? UINT64_MAX : marks.front().offset;
    if (s.carried == pushed)
    {
        Deactivate(id);
    }
    else
    {
        ScheduleNext(id);
    }
    if (!first.IsNull())
    {
        first();
    }
    for (Callback<void>& cb : more)
    {
        cb();
    }
}

} // namespace ns3
