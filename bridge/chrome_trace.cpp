#include "bridge/chrome_trace.h"

#include "bridge/rank_names.h"

#include "bridge/trace_time.h"

#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

namespace uniference {

namespace {

using nlohmann::json;

constexpr int kRanksPid = 1;
constexpr int kNetworkPid = 2;
constexpr int kFirstJobPid = 3;  // a run of several jobs (/jobs): job j's ranks are process 3 + j

// The process of `rank`'s tracks: the ranks' own, or its job's in a run of several.
int rank_pid(const RunRecord& record, int rank) {
  for (size_t j = 0; j < record.jobs.size(); ++j) {
    const JobRanks& job = record.jobs[j];
    if (rank >= job.first_rank && rank < job.first_rank + job.ranks) return kFirstJobPid + int(j);
  }
  return kRanksPid;
}

// Order of the events at one timestamp on one track. Ends first, innermost first, so that
// a slice ending where the next begins is closed before it: viewers disagree on how to
// order an "E" and a "B" at one time, and this is the order every one of them accepts.
// Then flow ends, which bind to the slice the receiver is still in; instants (slices of
// zero length) between the slices around them; begins, outermost first; last flow starts,
// inside the slice that sends.
enum class Slot { kEnd = 0, kFlowEnd = 1, kInstant = 2, kBegin = 3, kFlowStart = 4 };

struct Event {
  std::string name;
  std::string category;  // empty for metadata
  char phase = 'B';
  int64_t ts_ns = 0;
  int pid = kRanksPid;
  int tid = 0;
  uint64_t flow_id = 0;         // 0: no "id"
  bool bind_enclosing = false;  // "bp": "e"
  json args;                    // null: no "args"
  // Where it goes among the events of its timestamp and track (see Slot).
  Slot slot = Slot::kBegin;
  int64_t order1 = 0;
  int64_t order2 = 0;
};

// Strings from shard code are not guaranteed UTF-8; a trace must still be written.
std::string dump(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

Event metadata(const char* what, int pid, int tid, json args) {
  Event event;
  event.name = what;
  event.phase = 'M';
  event.pid = pid;
  event.tid = tid;
  event.args = std::move(args);
  return event;
}

std::string pair_name(int src, int dst, size_t lane) {
  std::string name = "rank " + std::to_string(src) + " -> rank " + std::to_string(dst);
  if (lane > 0) name += " (" + std::to_string(lane + 1) + ")";
  return name;
}

// A slice to write: [start, end) on one track, with a stable index that breaks ties.
struct Slice {
  std::string name;
  std::string category;
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  int pid = kRanksPid;
  int tid = 0;
  int64_t index = 0;
  json args;
};

// A slice of positive length becomes a "B"/"E" pair, one of zero length an instant.
void add_slice(const Slice& slice, std::vector<Event>& timed) {
  Event begin;
  begin.name = slice.name;
  begin.category = slice.category;
  begin.ts_ns = slice.start_ns;
  begin.pid = slice.pid;
  begin.tid = slice.tid;
  begin.args = slice.args;
  if (slice.end_ns <= slice.start_ns) {
    begin.phase = 'i';
    begin.slot = Slot::kInstant;
    begin.order1 = slice.index;
    timed.push_back(std::move(begin));
    return;
  }
  begin.phase = 'B';
  begin.slot = Slot::kBegin;
  begin.order1 = -slice.end_ns;  // outermost (ends last) first
  begin.order2 = slice.index;
  Event end;
  end.name = slice.name;
  end.category = slice.category;
  end.phase = 'E';
  end.ts_ns = slice.end_ns;
  end.pid = slice.pid;
  end.tid = slice.tid;
  end.slot = Slot::kEnd;
  end.order1 = -slice.start_ns;  // innermost (began last) first
  end.order2 = -slice.index;     // equal intervals: the reverse of their begins
  // No args on "E": speedscope takes an "E" and a "B" at one time with equal name and
  // args for a slice of zero length and opens the "B" first, which would nest a message in
  // the one before it on its lane. Args on the "B" alone keep them apart; speedscope then
  // logs that the keys differ, and ends the right slice. (Two compute spans in a row, with
  // no args at all, it still shows as one.)
  timed.push_back(std::move(begin));
  timed.push_back(std::move(end));
}

// Open intervals (start, end) covered by some slice, merged and sorted: whether a slice
// is still open just after the ends at a time t, i.e. start < t < end for some slice.
class Coverage {
 public:
  void add(int64_t start, int64_t end) {
    if (end > start) intervals_.emplace_back(start, end);
  }
  void finish() {
    std::sort(intervals_.begin(), intervals_.end());
    std::vector<std::pair<int64_t, int64_t>> merged;
    for (const auto& interval : intervals_) {
      // (a, b) and (b, c) leave b uncovered, so only strict overlaps merge.
      if (!merged.empty() && interval.first < merged.back().second) {
        merged.back().second = std::max(merged.back().second, interval.second);
      } else {
        merged.push_back(interval);
      }
    }
    intervals_ = std::move(merged);
  }
  bool covers(int64_t t) const {
    // The first interval with start >= t; the one before it is the last with start < t.
    auto after = std::lower_bound(
        intervals_.begin(), intervals_.end(), t,
        [](const std::pair<int64_t, int64_t>& interval, int64_t value) {
          return interval.first < value;
        });
    if (after == intervals_.begin()) return false;
    --after;
    return t < after->second;
  }

 private:
  std::vector<std::pair<int64_t, int64_t>> intervals_;
};

void add_network_process(const RunRecord& record, std::vector<Event>& header) {
  std::string name = "network";
  if (record.links.links_omitted > 0) {
    // Said where the user looks for the missing counters, not in a log they may not keep.
    const uint64_t busy = record.links.links.size() + record.links.links_omitted;
    name += " (link counters: the " + std::to_string(record.links.links.size()) +
            " busiest of " + std::to_string(busy) + " busy link directions)";
  }
  header.push_back(metadata("process_name", kNetworkPid, 0, {{"name", name}}));
  header.push_back(metadata("process_sort_index", kNetworkPid, 0, {{"sort_index", 1}}));
}

// Fraction of an interval's line time spent serialising, rounded to millionths so the text
// stays short; computed in integers, so equal records give equal text.
double utilisation(int64_t busy_ps, int64_t length_ps) {
  if (length_ps <= 0) return 0.0;
  using Wide = unsigned __int128;
  const Wide ppm = (Wide(uint64_t(std::max<int64_t>(busy_ps, 0))) * 1000000 + Wide(length_ps / 2)) /
                   Wide(uint64_t(length_ps));
  return double(uint64_t(ppm)) / 1e6;
}

// A time-varying link's delay ("delay: edge <-> cloud", arg delay_ns) and each direction's
// rate ("rate: edge -> cloud", arg rate_bps) as counters on the network process (category
// "link-condition"), a sample wherever the value differs from the one before, and the last.
void add_link_condition_counters(const RunRecord& record, std::vector<Event>& timed) {
  int64_t order = int64_t(record.links.links.size());  // after the link counters
  const auto add = [&](const std::string& name, const char* arg, const std::vector<int64_t>& times,
                       const auto& values) {
    Event counter;
    counter.name = name;
    counter.category = "link-condition";
    counter.phase = 'C';
    counter.pid = kNetworkPid;
    counter.slot = Slot::kInstant;
    counter.order1 = order++;
    for (size_t i = 0; i < times.size() && i < values.size(); ++i) {
      if (i > 0 && i + 1 < times.size() && values[i] == values[i - 1]) continue;
      counter.ts_ns = times[i];
      counter.args = {{arg, values[i]}};
      timed.push_back(counter);
    }
  };
  for (const LinkConditionSamples& link : record.link_conditions) {
    add("delay: " + link.link, "delay_ns", link.times_ns, link.delay_ns);
    for (size_t direction = 0; direction < 2; ++direction) {
      add("rate: " + link.directions[direction], "rate_bps", link.times_ns, link.rate_bps[direction]);
    }
  }
}

// Outages of links that have them (a satellite's handovers, a blocked beam): one track per
// link on the network process, after the message lanes, a slice "outage" (category "link")
// per outage.
void add_link_outages(const RunRecord& record, std::vector<Event>& header,
                      std::vector<Event>& timed, int64_t& slice_index) {
  constexpr int kFirstOutageTid = 1 << 20;  // past any message lane
  std::map<std::string, int> tid_of;
  for (const LinkOutage& outage : record.outages) {
    auto [it, added] = tid_of.emplace(outage.link, kFirstOutageTid + int(tid_of.size()));
    if (added) {
      header.push_back(metadata("thread_name", kNetworkPid, it->second,
                                {{"name", "outages: " + outage.link}}));
      header.push_back(metadata("thread_sort_index", kNetworkPid, it->second,
                                {{"sort_index", it->second}}));
    }
    Slice slice;
    slice.name = "outage";
    slice.category = "link";
    slice.start_ns = outage.start_ns;
    slice.end_ns = std::max(outage.start_ns, outage.end_ns);
    slice.pid = kNetworkPid;
    slice.tid = it->second;
    slice.index = slice_index++;
    add_slice(slice, timed);
  }
}

// Faults the scenario injected: one track per fault, named after it, on the network process for
// a link fault and on the ranks' for a rank fault, after every other track; a slice named by its
// kind (category "fault") over its window, which runs to the run's end when it has none, and an
// instant for a crash.
void add_faults(const RunRecord& record, std::vector<Event>& header, std::vector<Event>& timed,
                int64_t& slice_index) {
  constexpr int kFirstFaultTid = 1 << 21;  // past any lane, outage or phase track
  for (size_t i = 0; i < record.faults.size(); ++i) {
    const FaultRecord& fault = record.faults[i];
    const bool on_rank = fault.kind == "straggler" || fault.kind == "rank_crash";
    const int pid = on_rank ? rank_pid(record, rank_named(fault.target)) : kNetworkPid;
    const int tid = kFirstFaultTid + int(i);
    header.push_back(metadata("thread_name", pid, tid,
                              {{"name", "fault " + fault.pointer + ": " + fault.kind + " " + fault.target}}));
    header.push_back(metadata("thread_sort_index", pid, tid, {{"sort_index", tid}}));
    Slice slice;
    slice.name = fault.kind;
    slice.category = "fault";
    slice.start_ns = fault.start_ns;
    const int64_t end = fault.kind == "rank_crash" ? fault.start_ns : fault.end_ns < 0 ? record.total_ns : fault.end_ns;
    slice.end_ns = std::max(fault.start_ns, end);
    slice.pid = pid;
    slice.tid = tid;
    slice.index = slice_index++;
    add_slice(slice, timed);
  }
}

// Phases the shard code timed (an MoE layer's dispatch and combine): one track per rank that
// has any, after every rank's own ("rank N phases"), a slice per phase (category "phase").
void add_phases(const RunRecord& record, std::vector<Event>& header, std::vector<Event>& timed,
                int64_t& slice_index) {
  constexpr int kFirstPhaseTid = 1 << 20;  // past any rank and its extra lanes
  std::set<int> named;
  std::vector<PhaseSpan> phases = record.phases;
  std::stable_sort(phases.begin(), phases.end(), [](const PhaseSpan& a, const PhaseSpan& b) {
    return std::make_tuple(a.rank, a.start_ns, a.name) < std::make_tuple(b.rank, b.start_ns, b.name);
  });
  for (const PhaseSpan& phase : phases) {
    const int tid = kFirstPhaseTid + phase.rank;
    if (named.insert(tid).second) {
      const int pid = rank_pid(record, phase.rank);
      header.push_back(metadata("thread_name", pid, tid,
                                {{"name", "rank " + std::to_string(phase.rank) + " phases"}}));
      header.push_back(metadata("thread_sort_index", pid, tid, {{"sort_index", tid}}));
    }
    Slice slice;
    slice.name = phase.name;
    slice.category = "phase";
    slice.start_ns = phase.start_ns;
    slice.end_ns = std::max(phase.start_ns, phase.end_ns);
    slice.pid = rank_pid(record, phase.rank);
    slice.tid = tid;
    slice.index = slice_index++;
    add_slice(slice, timed);
  }
}

// One counter per link direction on the network process ("ph": "C", category "link"), a
// sample at the start of each interval whose values differ from the one before, and a zero
// at the run's end so the last interval has an end. Args: the interval's bytes and its
// utilisation (busy line time / interval length, the last interval counted to the run's end).
void add_link_counters(const RunRecord& record, std::vector<Event>& timed) {
  const LinkActivity& activity = record.links;
  if (activity.interval_ns <= 0) return;
  for (size_t link = 0; link < activity.links.size(); ++link) {
    const LinkSeries& series = activity.links[link];
    const size_t bins = std::min(series.bytes.size(), series.busy_ps.size());
    const int64_t end_ns =
        record.total_ns > 0 ? record.total_ns : int64_t(bins) * activity.interval_ns;
    Event counter;
    counter.name = series.name;
    counter.category = "link";
    counter.phase = 'C';
    counter.pid = kNetworkPid;
    counter.slot = Slot::kInstant;
    counter.order1 = int64_t(link);
    json previous;
    for (size_t bin = 0; bin < bins; ++bin) {
      const int64_t start_ns = int64_t(bin) * activity.interval_ns;
      if (start_ns >= end_ns) break;
      const int64_t length_ns = std::min(activity.interval_ns, end_ns - start_ns);
      json args = {{"bytes", series.bytes[bin]},
                   {"utilisation", utilisation(series.busy_ps[bin], length_ns * 1000)}};
      if (args == previous) continue;
      counter.ts_ns = start_ns;
      counter.args = args;
      timed.push_back(counter);
      previous = std::move(args);
    }
    counter.ts_ns = end_ns;
    counter.args = {{"bytes", 0}, {"utilisation", 0.0}};
    timed.push_back(std::move(counter));
  }
}

std::vector<Event> build_events(const RunRecord& record, const std::string& title) {
  std::set<int> ranks;
  for (const RankStats& stats : record.ranks) ranks.insert(stats.rank);
  for (const Span& span : record.spans) ranks.insert(span.rank);
  for (const NetMessage& message : record.messages) {
    ranks.insert(message.src);
    ranks.insert(message.dst);
  }

  std::vector<Event> header;
  std::vector<Event> timed;

  header.push_back(metadata("process_name", kRanksPid, 0, {{"name", title}}));
  header.push_back(metadata("process_sort_index", kRanksPid, 0, {{"sort_index", 0}}));
  // A run of several jobs: a process per job, after the run's own and before the network's.
  for (size_t j = 0; j < record.jobs.size(); ++j) {
    const JobRanks& job = record.jobs[j];
    const int pid = kFirstJobPid + int(j);
    header.push_back(metadata("process_name", pid, 0,
                              {{"name", "job " + job.name + " (ranks " + std::to_string(job.first_rank) +
                                            " to " + std::to_string(job.first_rank + job.ranks - 1) + ")"}}));
    header.push_back(metadata("process_sort_index", pid, 0, {{"sort_index", 0}}));
  }
  for (int rank : ranks) {
    const int pid = rank_pid(record, rank);
    header.push_back(metadata("thread_name", pid, rank, {{"name", "rank " + std::to_string(rank)}}));
    header.push_back(metadata("thread_sort_index", pid, rank, {{"sort_index", rank}}));
  }

  // Spans in a total order that does not depend on how the bridge happened to log them:
  // by rank, then start, longer first (so that an enclosing span comes before its parts).
  std::vector<size_t> spans(record.spans.size());
  for (size_t i = 0; i < spans.size(); ++i) spans[i] = i;
  std::stable_sort(spans.begin(), spans.end(), [&](size_t a, size_t b) {
    const Span& x = record.spans[a];
    const Span& y = record.spans[b];
    return std::make_tuple(x.rank, x.start_ns, -x.end_ns, int(x.kind), x.name, x.bytes, x.peer,
                           x.label) <
           std::make_tuple(y.rank, y.start_ns, -y.end_ns, int(y.kind), y.name, y.bytes, y.peer,
                           y.label);
  });

  // Lanes per rank: a span goes on the first lane where it nests in or follows what is
  // there (the shard code's spans never overlap, so that is lane 0, the rank's own track);
  // one that would overlap another span partially gets a lane, a track, of its own. An
  // asynchronous call's flight overlaps the rank's own work by nature: never on lane 0.
  std::map<int, std::vector<std::vector<int64_t>>> open_ends;  // rank -> lane -> stack
  std::vector<size_t> span_lane(record.spans.size(), 0);
  for (size_t index : spans) {
    const Span& span = record.spans[index];
    if (span.end_ns <= span.start_ns) continue;  // an instant fits anywhere: lane 0
    auto& lanes = open_ends[span.rank];
    size_t lane = span.kind == Span::Kind::kFlight ? 1 : 0;
    if (lanes.size() < lane) lanes.resize(lane);
    for (; lane < lanes.size(); ++lane) {
      std::vector<int64_t>& stack = lanes[lane];
      while (!stack.empty() && stack.back() <= span.start_ns) stack.pop_back();
      if (stack.empty() || stack.back() >= span.end_ns) break;
    }
    if (lane == lanes.size()) lanes.emplace_back();
    lanes[lane].push_back(span.end_ns);
    span_lane[index] = lane;
  }
  std::map<std::pair<int, size_t>, int> extra_tid;  // (rank, lane > 0) -> tid
  const int first_extra_tid = ranks.empty() ? 0 : *ranks.rbegin() + 1;
  for (const auto& [rank, lanes] : open_ends) {
    for (size_t lane = 1; lane < lanes.size(); ++lane) {
      const int tid = first_extra_tid + int(extra_tid.size());
      extra_tid[{rank, lane}] = tid;
      const int pid = rank_pid(record, rank);
      header.push_back(metadata(
          "thread_name", pid, tid,
          {{"name", "rank " + std::to_string(rank) + " (" + std::to_string(lane + 1) + ")"}}));
      header.push_back(metadata("thread_sort_index", pid, tid, {{"sort_index", tid}}));
    }
  }

  std::map<int, Coverage> rank_coverage;  // of each rank's own track, for flow ends
  int64_t slice_index = 0;
  for (size_t index : spans) {
    const Span& span = record.spans[index];
    Slice slice;
    slice.name = span.name;
    slice.category = span.kind == Span::Kind::kCompute ? "compute" : "comm";
    slice.start_ns = span.start_ns;
    slice.end_ns = std::max(span.start_ns, span.end_ns);
    slice.pid = rank_pid(record, span.rank);
    slice.tid = span_lane[index] == 0 ? span.rank : extra_tid.at({span.rank, span_lane[index]});
    slice.index = slice_index++;
    if (span.kind != Span::Kind::kCompute) {
      slice.args = {{"bytes", span.bytes}};
      if (span.peer >= 0) slice.args["peer"] = span.peer;
    }
    if (span.kind == Span::Kind::kFlight) {
      slice.args["flight"] = "issue to completion";
      if (!span.label.empty()) slice.args["issued_in"] = span.label;
    }
    if (span_lane[index] == 0) rank_coverage[span.rank].add(slice.start_ns, slice.end_ns);
    add_slice(slice, timed);
  }
  for (auto& [rank, coverage] : rank_coverage) coverage.finish();

  if (!record.messages.empty()) {
    // Messages in a fixed order that does not depend on how the bridge happened to log them.
    std::vector<size_t> order(record.messages.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      const NetMessage& x = record.messages[a];
      const NetMessage& y = record.messages[b];
      return std::tie(x.send_ns, x.recv_ns, x.src, x.dst, x.bytes, x.label) <
             std::tie(y.send_ns, y.recv_ns, y.src, y.dst, y.bytes, y.label);
    });

    // Greedy lanes per pair: a message takes the first lane of its pair that is free by its
    // send time. Messages do not nest, so a lane holds one at a time.
    std::map<std::pair<int, int>, std::vector<int64_t>> lane_ends;
    std::vector<size_t> lane_of(record.messages.size());
    for (size_t index : order) {
      const NetMessage& message = record.messages[index];
      std::vector<int64_t>& ends = lane_ends[{message.src, message.dst}];
      const int64_t end = std::max(message.send_ns, message.recv_ns);
      size_t lane = 0;
      if (end > message.send_ns) {
        while (lane < ends.size() && ends[lane] > message.send_ns) ++lane;
        if (lane == ends.size()) ends.push_back(end);
        ends[lane] = end;
      } else if (ends.empty()) {
        ends.push_back(std::numeric_limits<int64_t>::min());  // an instant needs lane 0 only
      }
      lane_of[index] = lane;
    }
    std::map<std::tuple<int, int, size_t>, int> network_tid;
    add_network_process(record, header);
    for (const auto& [pair, ends] : lane_ends) {
      for (size_t lane = 0; lane < ends.size(); ++lane) {
        const int tid = int(network_tid.size());
        network_tid[{pair.first, pair.second, lane}] = tid;
        header.push_back(metadata("thread_name", kNetworkPid, tid,
                                  {{"name", pair_name(pair.first, pair.second, lane)}}));
        header.push_back(metadata("thread_sort_index", kNetworkPid, tid, {{"sort_index", tid}}));
      }
    }

    uint64_t flow_id = 0;
    for (size_t index : order) {
      const NetMessage& message = record.messages[index];
      const std::string name = message.label.empty() ? "message" : message.label;

      Slice slice;
      slice.name = name;
      slice.category = "net";
      slice.start_ns = message.send_ns;
      slice.end_ns = std::max(message.send_ns, message.recv_ns);
      slice.pid = kNetworkPid;
      slice.tid = network_tid.at({message.src, message.dst, lane_of[index]});
      slice.index = slice_index++;
      slice.args = {{"src", message.src}, {"dst", message.dst}, {"bytes", message.bytes}};
      add_slice(slice, timed);

      ++flow_id;
      Event start;
      start.name = name;
      start.category = "flow";
      start.phase = 's';
      start.ts_ns = message.send_ns;
      start.pid = rank_pid(record, message.src);
      start.tid = message.src;
      start.flow_id = flow_id;
      start.slot = Slot::kFlowStart;
      start.order1 = int64_t(flow_id);
      timed.push_back(start);

      Event finish = start;
      finish.phase = 'f';
      finish.ts_ns = message.recv_ns;
      finish.pid = rank_pid(record, message.dst);
      finish.tid = message.dst;
      finish.slot = Slot::kFlowEnd;
      // Delivered while the receiver is inside a span (a collective): bind to that span.
      // Delivered as a span ends (the recv that waited for it): that span is closed by
      // then in every viewer, since ends come first, so bind to the next slice the
      // receiver begins, which starts at delivery when the receiver goes straight on.
      auto coverage = rank_coverage.find(message.dst);
      finish.bind_enclosing =
          coverage != rank_coverage.end() && coverage->second.covers(message.recv_ns);
      timed.push_back(std::move(finish));
    }
  }

  const bool link_faults = std::any_of(record.faults.begin(), record.faults.end(), [](const FaultRecord& f) {
    return f.kind != "straggler" && f.kind != "rank_crash";
  });
  if (record.messages.empty() && (!record.links.links.empty() || !record.outages.empty() ||
                                  !record.link_conditions.empty() || link_faults)) {
    add_network_process(record, header);
  }
  add_link_counters(record, timed);
  add_link_condition_counters(record, timed);
  add_link_outages(record, header, timed, slice_index);
  add_phases(record, header, timed, slice_index);
  add_faults(record, header, timed, slice_index);

  std::sort(timed.begin(), timed.end(), [](const Event& a, const Event& b) {
    return std::make_tuple(a.ts_ns, a.pid, a.tid, int(a.slot), a.order1, a.order2) <
           std::make_tuple(b.ts_ns, b.pid, b.tid, int(b.slot), b.order1, b.order2);
  });
  header.insert(header.end(), std::make_move_iterator(timed.begin()),
                std::make_move_iterator(timed.end()));
  return header;
}

json other_data(const std::string& title) {
  return {{"title", title}, {"generator", "uniference"}};
}

// The JSON value's number for a timestamp: the double nearest ns / 1000, which is what
// parsing the three-decimal text gives (both round the same exact quotient once).
double microseconds(int64_t ns) { return double(ns) / 1000.0; }

}  // namespace
json chrome_trace(const RunRecord& record, const std::string& title) {
  json events = json::array();
  for (const Event& event : build_events(record, title)) {
    json out = {{"name", event.name},
                {"ph", std::string(1, event.phase)},
                {"pid", event.pid},
                {"tid", event.tid}};
    if (!event.category.empty()) out["cat"] = event.category;
    if (event.phase != 'M') out["ts"] = microseconds(event.ts_ns);
    if (event.phase == 'i') out["s"] = "t";
    if (event.flow_id != 0) out["id"] = event.flow_id;
    if (event.bind_enclosing) out["bp"] = "e";
    if (!event.args.is_null()) out["args"] = event.args;
    events.push_back(std::move(out));
  }
  return {{"traceEvents", std::move(events)},
          {"displayTimeUnit", "ns"},
          {"otherData", other_data(title)}};
}

std::string chrome_trace_text(const RunRecord& record, const std::string& title) {
  // Keys in the order people read them (name, what, when, where), not nlohmann's sorted
  // order; the set of keys and values is exactly chrome_trace()'s.
  std::string text = "{\"displayTimeUnit\":\"ns\",\"otherData\":" + dump(other_data(title)) +
                     ",\"traceEvents\":[\n";
  bool first = true;
  for (const Event& event : build_events(record, title)) {
    if (!first) text += ",\n";
    first = false;
    text += "{\"name\":" + dump(event.name);
    if (!event.category.empty()) text += ",\"cat\":" + dump(event.category);
    text += ",\"ph\":\"";
    text += event.phase;
    text += '"';
    if (event.phase != 'M') text += ",\"ts\":" + trace_microseconds(event.ts_ns);
    if (event.phase == 'i') text += ",\"s\":\"t\"";  // an instant of its thread's track
    text += ",\"pid\":" + std::to_string(event.pid) + ",\"tid\":" + std::to_string(event.tid);
    if (event.flow_id != 0) text += ",\"id\":" + std::to_string(event.flow_id);
    if (event.bind_enclosing) text += ",\"bp\":\"e\"";
    if (!event.args.is_null()) text += ",\"args\":" + dump(event.args);
    text += "}";
  }
  text += "\n]}\n";
  return text;
}

}  // namespace uniference
