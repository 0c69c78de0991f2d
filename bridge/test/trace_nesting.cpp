#include "bridge/test/trace_nesting.h"

#include "bridge/trace_time.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace uniference {

namespace {

using nlohmann::json;

// A value for a message; text that is not UTF-8 must still print.
std::string dump(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

// A timestamp as a viewer that reads JSON numbers into doubles has it.
double viewer_microseconds(const json& value) {
  if (value.is_number()) return value.get<double>();
  if (value.is_string()) return std::stod(value.get<std::string>());
  throw std::invalid_argument("not a trace time: " + dump(value));
}

// The shortest text that reads back as this double: 1087.158 stays 1087.158, and a sum
// that missed it shows as 1087.1580000000001.
std::string format_double(double value) {
  char text[64];
  const auto result = std::to_chars(text, text + sizeof text, value);
  return std::string(text, result.ptr);
}

// One slice on one track, as read back: [start, end) in nanoseconds, and the same as a
// viewer computing in doubles has it.
struct ReadSlice {
  size_t event = 0;  // index in traceEvents of its "B" or "X"
  std::string name;
  char phase = 'X';
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  double start_us = 0;
  double end_us = 0;
  std::string end_detail;  // how a viewer computes end_us, for messages
};

// A string member of an event, or "" when it is absent or not a string.
std::string string_field(const json& event, const char* key) {
  auto member = event.find(key);
  return member != event.end() && member->is_string() ? member->get<std::string>() : "";
}

std::string describe_open(const ReadSlice& slice) {
  return "\"" + slice.name + "\" (B #" + std::to_string(slice.event) + ") at " +
         std::to_string(slice.start_ns) + " ns";
}

std::string describe(const ReadSlice& slice) {
  std::string text = "\"" + slice.name + "\" (";
  text += slice.phase;
  text += " #" + std::to_string(slice.event) + ") [" + std::to_string(slice.start_ns) + " ns, " +
          std::to_string(slice.end_ns) + " ns)";
  return text;
}

// Whether the slices of one track nest or are disjoint, by the given interval of each:
// "" or a message naming the first two that overlap partially.
template <typename Time, typename Start, typename End, typename Report>
std::string check_nesting(const std::vector<ReadSlice>& slices, Start start, End end,
                          Report report) {
  std::vector<size_t> order(slices.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Time sa = start(slices[a]), sb = start(slices[b]);
    if (sa != sb) return sa < sb;
    return end(slices[a]) > end(slices[b]);  // equal starts: the longer encloses
  });
  std::vector<size_t> stack;
  for (size_t index : order) {
    const ReadSlice& slice = slices[index];
    while (!stack.empty() && end(slices[stack.back()]) <= start(slice)) stack.pop_back();
    if (!stack.empty() && end(slice) > end(slices[stack.back()])) {
      return report(slices[stack.back()], slice);
    }
    stack.push_back(index);
  }
  return "";
}

}  // namespace

std::string check_trace_nesting(const json& trace) {
  const json* events = nullptr;
  if (trace.is_array()) {
    events = &trace;
  } else if (trace.is_object() && trace.contains("traceEvents")) {
    events = &trace["traceEvents"];
  }
  if (events == nullptr || !events->is_array()) return "trace: no traceEvents array";

  // A track is its (pid, tid) as written, whatever JSON type they have.
  using Track = std::pair<std::string, std::string>;
  const auto track_of = [](const json& event) {
    return Track(event.contains("pid") ? dump(event["pid"]) : "null",
                 event.contains("tid") ? dump(event["tid"]) : "null");
  };
  std::map<Track, std::string> thread_names;
  for (const json& event : *events) {
    if (event.is_object() && string_field(event, "ph") == "M" &&
        string_field(event, "name") == "thread_name" && event.contains("args") &&
        event["args"].is_object()) {
      thread_names[track_of(event)] = string_field(event["args"], "name");
    }
  }
  const auto track_text = [&](const Track& track) {
    std::string text = "track pid " + track.first + " tid " + track.second;
    auto name = thread_names.find(track);
    if (name != thread_names.end()) text += " (\"" + name->second + "\")";
    return text;
  };

  std::map<Track, std::vector<ReadSlice>> open;
  std::map<Track, std::pair<int64_t, size_t>> last_duration_event;  // B/E: (ts, index)
  std::map<Track, std::vector<ReadSlice>> slices;

  for (size_t index = 0; index < events->size(); ++index) {
    const json& event = (*events)[index];
    if (!event.is_object()) continue;
    const std::string phase = string_field(event, "ph");
    if (phase != "B" && phase != "E" && phase != "X") continue;
    const Track track = track_of(event);
    const std::string name = string_field(event, "name");
    const std::string where = track_text(track) + ": ";
    if (!event.contains("ts")) return where + "\"" + name + "\" (#" + std::to_string(index) + ") has no ts";
    int64_t ts_ns = 0;
    double ts_us = 0;
    try {
      ts_ns = trace_time_ns(event["ts"]);
      ts_us = viewer_microseconds(event["ts"]);
    } catch (const std::exception& error) {
      return where + "\"" + name + "\" (#" + std::to_string(index) + "): " + error.what();
    }

    if (phase == "X") {
      if (!event.contains("dur")) {
        return where + "\"" + name + "\" (X #" + std::to_string(index) + ") has no dur";
      }
      ReadSlice slice;
      slice.event = index;
      slice.name = name;
      slice.phase = 'X';
      slice.start_ns = ts_ns;
      slice.start_us = ts_us;
      try {
        const int64_t dur_ns = trace_time_ns(event["dur"]);
        const double dur_us = viewer_microseconds(event["dur"]);
        if (dur_ns < 0) {
          return where + describe(slice) + " has a negative dur " + std::to_string(dur_ns) + " ns";
        }
        slice.end_ns = ts_ns + dur_ns;
        slice.end_us = ts_us + dur_us;
        slice.end_detail = format_double(ts_us) + " + " + format_double(dur_us) + " = " +
                           format_double(slice.end_us) + " us";
      } catch (const std::exception& error) {
        return where + "\"" + name + "\" (X #" + std::to_string(index) + "): " + error.what();
      }
      slices[track].push_back(std::move(slice));
      continue;
    }

    // "B"/"E": a stack in file order, with timestamps that never go back.
    auto last = last_duration_event.find(track);
    if (last != last_duration_event.end() && ts_ns < last->second.first) {
      return where + "\"" + name + "\" (" + phase + " #" + std::to_string(index) + ") at " +
             std::to_string(ts_ns) + " ns comes after event #" +
             std::to_string(last->second.second) + " at " + std::to_string(last->second.first) +
             " ns";
    }
    last_duration_event[track] = {ts_ns, index};
    std::vector<ReadSlice>& stack = open[track];
    if (phase == "B") {
      ReadSlice slice;
      slice.event = index;
      slice.name = name;
      slice.phase = 'B';
      slice.start_ns = ts_ns;
      slice.start_us = ts_us;
      stack.push_back(std::move(slice));
      continue;
    }
    if (stack.empty()) {
      return where + "\"" + name + "\" (E #" + std::to_string(index) + ") at " +
             std::to_string(ts_ns) + " ns ends no open slice";
    }
    ReadSlice slice = std::move(stack.back());
    stack.pop_back();
    slice.end_ns = ts_ns;
    slice.end_us = ts_us;
    slice.end_detail = format_double(ts_us) + " us";
    if (!name.empty() && name != slice.name) {
      return where + "\"" + name + "\" (E #" + std::to_string(index) + ") at " +
             std::to_string(ts_ns) + " ns ends " + describe(slice) +
             ", which is the innermost open slice: they cross";
    }
    if (ts_ns <= slice.start_ns) {
      return where + describe(slice) + " ends (E #" + std::to_string(index) + ") at " +
             std::to_string(ts_ns) +
             " ns, not after it begins; a viewer that orders ends first at one time breaks it";
    }
    slices[track].push_back(std::move(slice));
  }
  for (const auto& [track, stack] : open) {
    if (!stack.empty()) {
      return track_text(track) + ": " + describe_open(stack.back()) + " never ends";
    }
  }

  for (const auto& [track, list] : slices) {
    const std::string where = track_text(track) + ": ";
    std::string problem = check_nesting<int64_t>(
        list, [](const ReadSlice& s) { return s.start_ns; },
        [](const ReadSlice& s) { return s.end_ns; },
        [&](const ReadSlice& outer, const ReadSlice& inner) {
          return where + describe(outer) + " and " + describe(inner) +
                 " overlap: neither nests in the other";
        });
    if (!problem.empty()) return problem;
    problem = check_nesting<double>(
        list, [](const ReadSlice& s) { return s.start_us; },
        [](const ReadSlice& s) { return s.end_us; },
        [&](const ReadSlice& outer, const ReadSlice& inner) {
          return where + describe(outer) + " and " + describe(inner) +
                 " overlap as a viewer computing in doubles reads them: the first ends at " +
                 outer.end_detail + ", after the second begins at " +
                 format_double(inner.start_us) + " us and before it ends at " +
                 inner.end_detail;
        });
    if (!problem.empty()) return problem;
  }
  return "";
}

}  // namespace uniference
