#include "bridge/chrome_trace.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace uniference {

namespace {

using nlohmann::json;

constexpr int kRanksPid = 1;
constexpr int kNetworkPid = 2;

struct Event {
  std::string name;
  std::string category;  // empty for metadata
  char phase = 'X';
  int64_t ts_ns = 0;
  int64_t dur_ns = -1;  // < 0: no "dur"
  int pid = kRanksPid;
  int tid = 0;
  uint64_t flow_id = 0;         // 0: no "id"
  bool bind_enclosing = false;  // "bp": "e"
  json args;                    // null: no "args"
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

// Order within one timestamp on one track. Viewers bind a flow event to the slice on top
// of the track's stack when they read it (Perfetto pops a finished slice only when the next
// one begins), so: a flow's end first, while the slice that waited for it (a recv ending at
// delivery) is still on top; then the slices that begin, longer first so that equal starts
// nest; then a flow's start, inside the slice that sends it.
int phase_order(char phase) {
  switch (phase) {
    case 'f':
      return 0;
    case 'X':
      return 1;
    default:
      return 2;
  }
}

std::string pair_name(int src, int dst, size_t lane) {
  std::string name = "rank " + std::to_string(src) + " -> rank " + std::to_string(dst);
  if (lane > 0) name += " (" + std::to_string(lane + 1) + ")";
  return name;
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
  for (int rank : ranks) {
    header.push_back(
        metadata("thread_name", kRanksPid, rank, {{"name", "rank " + std::to_string(rank)}}));
    header.push_back(metadata("thread_sort_index", kRanksPid, rank, {{"sort_index", rank}}));
  }

  for (const Span& span : record.spans) {
    Event event;
    event.name = span.name;
    event.category = span.kind == Span::Kind::kCompute ? "compute" : "comm";
    event.ts_ns = span.start_ns;
    event.dur_ns = std::max<int64_t>(0, span.end_ns - span.start_ns);
    event.tid = span.rank;
    if (span.kind == Span::Kind::kComm) {
      event.args = {{"bytes", span.bytes}};
      if (span.peer >= 0) event.args["peer"] = span.peer;
    }
    timed.push_back(std::move(event));
  }

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
    // send time.
    std::map<std::pair<int, int>, std::vector<int64_t>> lane_ends;
    std::vector<size_t> lane_of(record.messages.size());
    for (size_t index : order) {
      const NetMessage& message = record.messages[index];
      std::vector<int64_t>& ends = lane_ends[{message.src, message.dst}];
      const int64_t end = std::max(message.send_ns, message.recv_ns);
      size_t lane = 0;
      while (lane < ends.size() && ends[lane] > message.send_ns) ++lane;
      if (lane == ends.size()) ends.push_back(end);
      ends[lane] = end;
      lane_of[index] = lane;
    }
    std::map<std::tuple<int, int, size_t>, int> network_tid;
    header.push_back(metadata("process_name", kNetworkPid, 0, {{"name", "network"}}));
    header.push_back(metadata("process_sort_index", kNetworkPid, 0, {{"sort_index", 1}}));
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

      Event slice;
      slice.name = name;
      slice.category = "net";
      slice.ts_ns = message.send_ns;
      slice.dur_ns = std::max<int64_t>(0, message.recv_ns - message.send_ns);
      slice.pid = kNetworkPid;
      slice.tid = network_tid.at({message.src, message.dst, lane_of[index]});
      slice.args = {{"src", message.src}, {"dst", message.dst}, {"bytes", message.bytes}};
      timed.push_back(std::move(slice));

      ++flow_id;
      Event start;
      start.name = name;
      start.category = "flow";
      start.phase = 's';
      start.ts_ns = message.send_ns;
      start.tid = message.src;
      start.flow_id = flow_id;
      timed.push_back(start);

      Event finish = start;
      finish.phase = 'f';
      finish.ts_ns = message.recv_ns;
      finish.tid = message.dst;
      // Bind to the slice the receiver is in at delivery (its recv or collective), not
      // to whatever slice starts next.
      finish.bind_enclosing = true;
      timed.push_back(std::move(finish));
    }
  }

  std::stable_sort(timed.begin(), timed.end(), [](const Event& a, const Event& b) {
    return std::make_tuple(a.ts_ns, a.pid, a.tid, phase_order(a.phase), -a.dur_ns, a.flow_id) <
           std::make_tuple(b.ts_ns, b.pid, b.tid, phase_order(b.phase), -b.dur_ns, b.flow_id);
  });
  header.insert(header.end(), std::make_move_iterator(timed.begin()),
                std::make_move_iterator(timed.end()));
  return header;
}

json other_data(const std::string& title) {
  return {{"title", title}, {"generator", "uniference"}};
}

double microseconds(int64_t ns) { return double(ns) / 1000.0; }

}  // namespace

std::string trace_microseconds(int64_t ns) {
  // Magnitude as unsigned so that INT64_MIN has one too.
  const uint64_t magnitude = ns < 0 ? uint64_t(0) - uint64_t(ns) : uint64_t(ns);
  char text[32];
  std::snprintf(text, sizeof text, "%s%" PRIu64 ".%03" PRIu64, ns < 0 ? "-" : "", magnitude / 1000,
                magnitude % 1000);
  return text;
}

json chrome_trace(const RunRecord& record, const std::string& title) {
  json events = json::array();
  for (const Event& event : build_events(record, title)) {
    json out = {{"name", event.name},
                {"ph", std::string(1, event.phase)},
                {"pid", event.pid},
                {"tid", event.tid}};
    if (!event.category.empty()) out["cat"] = event.category;
    if (event.phase != 'M') out["ts"] = microseconds(event.ts_ns);
    if (event.dur_ns >= 0) out["dur"] = microseconds(event.dur_ns);
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
    if (event.dur_ns >= 0) text += ",\"dur\":" + trace_microseconds(event.dur_ns);
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
