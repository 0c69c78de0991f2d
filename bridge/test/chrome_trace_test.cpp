// The Chrome trace of small hand-made records: which events, on which tracks, at which
// exact timestamp text and in which order; the same bytes whatever order the record lists
// things in; and the checker that tells a trace every viewer nests alike from one it doesn't.
#include "bridge/chrome_trace.h"
#include "bridge/test/trace_nesting.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace uniference {
namespace {

using nlohmann::json;

// Rank 0 computes 1.5 us, then sends 1024 bytes to rank 1, which computes 1 us and then
// waits in recv until the message arrives at 4 us.
RunRecord send_recv_record() {
  RunRecord record;
  record.total_ns = 4000;
  record.ranks = {{0, 1500, 2500, 1024, 4000}, {1, 1000, 3000, 0, 4000}};
  record.spans = {{0, Span::Kind::kCompute, "compute", 0, 1500, 0, -1},
                  {0, Span::Kind::kComm, "send", 1500, 4000, 1024, 1},
                  {1, Span::Kind::kCompute, "compute", 0, 1000, 0, -1},
                  {1, Span::Kind::kComm, "recv", 1000, 4000, 1024, 0}};
  record.messages = {{0, 1, 1024, 1500, 4000, "send"}};
  return record;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream stream(text);
  std::string line;
  while (std::getline(stream, line)) {
    if (!line.empty() && line.back() == ',') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

// The lines of the events that have a time, in file order.
std::vector<std::string> timed_lines(const std::string& text) {
  std::vector<std::string> timed;
  for (const std::string& line : lines_of(text)) {
    if (line.find("\"ts\":") != std::string::npos) timed.push_back(line);
  }
  return timed;
}

bool has_line(const std::vector<std::string>& lines, const std::string& expected) {
  return std::find(lines.begin(), lines.end(), expected) != lines.end();
}

size_t index_of(const std::vector<std::string>& lines, const std::string& expected) {
  return size_t(std::find(lines.begin(), lines.end(), expected) - lines.begin());
}

TEST(ChromeTrace, MicrosecondsWithThreeDecimals) {
  EXPECT_EQ(trace_microseconds(0), "0.000");
  EXPECT_EQ(trace_microseconds(1), "0.001");
  EXPECT_EQ(trace_microseconds(1500), "1.500");
  EXPECT_EQ(trace_microseconds(123456789), "123456.789");
  EXPECT_EQ(trace_microseconds(-2), "-0.002");
  EXPECT_EQ(trace_microseconds(std::numeric_limits<int64_t>::min()), "-9223372036854775.808");
}

TEST(ChromeTrace, SendRecvEvents) {
  const RunRecord record = send_recv_record();
  const std::string text = chrome_trace_text(record, "tiny-test");
  const json trace = json::parse(text);  // valid JSON

  EXPECT_EQ(trace["displayTimeUnit"], "ns");
  EXPECT_EQ(trace["otherData"]["title"], "tiny-test");
  // Metadata: 2 process names + 2 process sort indexes, 2 ranks x (name, sort index),
  // 1 network track x (name, sort index). Timed: 4 spans and 1 message as begin/end
  // pairs, the message's flow start and end.
  ASSERT_EQ(trace["traceEvents"].size(), 10u + 12u);

  const std::vector<std::string> lines = lines_of(text);
  EXPECT_EQ(lines.size(), 1u + 22u + 1u);  // header, one line per event, closing line
  EXPECT_TRUE(has_line(
      lines, R"({"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"tiny-test"}})"));
  EXPECT_TRUE(has_line(
      lines, R"({"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"rank 1"}})"));
  EXPECT_TRUE(has_line(
      lines, R"({"name":"thread_sort_index","ph":"M","pid":1,"tid":1,"args":{"sort_index":1}})"));
  EXPECT_TRUE(has_line(
      lines, R"({"name":"process_name","ph":"M","pid":2,"tid":0,"args":{"name":"network"}})"));
  EXPECT_TRUE(has_line(
      lines,
      R"({"name":"thread_name","ph":"M","pid":2,"tid":0,"args":{"name":"rank 0 -> rank 1"}})"));

  // Every timed event, in file order: by time, then track; on one track at one time the
  // ends, the flow end, the begins, the flow start. The recv ends at delivery, so the flow
  // end binds to what rank 1 begins next rather than to the closed recv (no "bp").
  const std::vector<std::string> expected = {
      R"({"name":"compute","cat":"compute","ph":"B","ts":0.000,"pid":1,"tid":0})",
      R"({"name":"compute","cat":"compute","ph":"B","ts":0.000,"pid":1,"tid":1})",
      R"({"name":"compute","cat":"compute","ph":"E","ts":1.000,"pid":1,"tid":1})",
      R"({"name":"recv","cat":"comm","ph":"B","ts":1.000,"pid":1,"tid":1,"args":{"bytes":1024,"peer":0}})",
      R"({"name":"compute","cat":"compute","ph":"E","ts":1.500,"pid":1,"tid":0})",
      R"({"name":"send","cat":"comm","ph":"B","ts":1.500,"pid":1,"tid":0,"args":{"bytes":1024,"peer":1}})",
      R"({"name":"send","cat":"flow","ph":"s","ts":1.500,"pid":1,"tid":0,"id":1})",
      R"({"name":"send","cat":"net","ph":"B","ts":1.500,"pid":2,"tid":0,"args":{"bytes":1024,"dst":1,"src":0}})",
      R"({"name":"send","cat":"comm","ph":"E","ts":4.000,"pid":1,"tid":0})",
      R"({"name":"recv","cat":"comm","ph":"E","ts":4.000,"pid":1,"tid":1})",
      R"({"name":"send","cat":"flow","ph":"f","ts":4.000,"pid":1,"tid":1,"id":1})",
      R"({"name":"send","cat":"net","ph":"E","ts":4.000,"pid":2,"tid":0})",
  };
  EXPECT_EQ(timed_lines(text), expected);
  EXPECT_EQ(check_trace_nesting(trace), "");
}

TEST(ChromeTrace, FlowEndInsideASpanBindsToIt) {
  // Rank 1 is inside an all_reduce from 0 to 5 us when the message arrives at 3 us.
  RunRecord record;
  record.spans = {{0, Span::Kind::kComm, "all_reduce", 0, 5000, 64, -1},
                  {1, Span::Kind::kComm, "all_reduce", 0, 5000, 64, -1}};
  record.messages = {{0, 1, 64, 0, 3000, "all_reduce"}};
  const std::vector<std::string> timed = timed_lines(chrome_trace_text(record, "t"));
  EXPECT_TRUE(has_line(
      timed,
      R"({"name":"all_reduce","cat":"flow","ph":"f","ts":3.000,"pid":1,"tid":1,"id":1,"bp":"e"})"));
}

TEST(ChromeTrace, FlowEndAtTheEndOfARecvComesBeforeWhatBeginsThen) {
  // Rank 1 waits in recv until 4 us and computes from 4 us: the recv ends first, then the
  // flow ends, waiting for the next slice, which the compute then begins.
  RunRecord record = send_recv_record();
  record.spans.push_back({1, Span::Kind::kCompute, "compute", 4000, 5000, 0, -1});
  const std::vector<std::string> timed = timed_lines(chrome_trace_text(record, "t"));
  const size_t recv_end =
      index_of(timed, R"({"name":"recv","cat":"comm","ph":"E","ts":4.000,"pid":1,"tid":1})");
  const size_t flow_end =
      index_of(timed, R"({"name":"send","cat":"flow","ph":"f","ts":4.000,"pid":1,"tid":1,"id":1})");
  const size_t compute_begin =
      index_of(timed, R"({"name":"compute","cat":"compute","ph":"B","ts":4.000,"pid":1,"tid":1})");
  ASSERT_LT(compute_begin, timed.size());
  EXPECT_LT(recv_end, flow_end);
  EXPECT_LT(flow_end, compute_begin);
}

TEST(ChromeTrace, JsonValueEqualsParsedText) {
  RunRecord record = send_recv_record();
  record.spans.push_back({1, Span::Kind::kComm, "barrier", 4000, 4000, 0, -1});  // an instant
  EXPECT_EQ(json::parse(chrome_trace_text(record, "t")), chrome_trace(record, "t"));
}

TEST(ChromeTrace, SameBytesWhateverTheRecordOrder) {
  RunRecord record = send_recv_record();
  record.messages.push_back({1, 0, 64, 2000, 2600, "ack"});
  record.spans.push_back({0, Span::Kind::kCompute, "compute", 3000, 4500, 0, -1});  // 2nd lane
  record.spans.push_back({0, Span::Kind::kComm, "barrier", 4000, 4000, 0, -1});     // instant
  const std::string expected = chrome_trace_text(record, "t");
  std::reverse(record.spans.begin(), record.spans.end());
  std::reverse(record.messages.begin(), record.messages.end());
  std::reverse(record.ranks.begin(), record.ranks.end());
  EXPECT_EQ(chrome_trace_text(record, "t"), expected);
}

TEST(ChromeTrace, OverlappingMessagesOfOnePairGetTheirOwnLanes) {
  RunRecord record;
  record.messages = {{0, 1, 100, 0, 5000, "chunk"},
                     {0, 1, 100, 1000, 6000, "chunk"},  // overlaps the first
                     {0, 1, 100, 5000, 7000, "chunk"},  // the first lane is free again
                     {2, 0, 100, 0, 1000, "chunk"}};
  const json trace = chrome_trace(record, "t");
  std::vector<std::string> network_threads;
  std::vector<int> lane_of_chunk;
  for (const json& event : trace["traceEvents"]) {
    if (event["pid"] != 2) continue;
    if (event["name"] == "thread_name") network_threads.push_back(event["args"]["name"]);
    if (event["ph"] == "B") lane_of_chunk.push_back(event["tid"]);
  }
  EXPECT_EQ(network_threads, (std::vector<std::string>{"rank 0 -> rank 1", "rank 0 -> rank 1 (2)",
                                                       "rank 2 -> rank 0"}));
  // Begins in time order: (0,1)@0 lane 0, (2,0)@0, (0,1)@1000 lane 1, (0,1)@5000 lane 0.
  EXPECT_EQ(lane_of_chunk, (std::vector<int>{0, 2, 1, 0}));
  EXPECT_EQ(check_trace_nesting(trace), "");
}

TEST(ChromeTrace, OverlappingSpansOfOneRankGetALaneOfTheirOwn) {
  // Shard code never does this, but a record that did must still give tracks that nest.
  RunRecord record;
  record.spans = {{0, Span::Kind::kCompute, "compute", 0, 2000, 0, -1},
                  {0, Span::Kind::kComm, "recv", 1000, 3000, 8, 1},
                  {0, Span::Kind::kCompute, "compute", 2000, 2500, 0, -1},  // fits lane 0
                  {1, Span::Kind::kComm, "send", 0, 1000, 8, 0}};
  const std::string text = chrome_trace_text(record, "t");
  const std::vector<std::string> lines = lines_of(text);
  EXPECT_TRUE(has_line(
      lines, R"x({"name":"thread_name","ph":"M","pid":1,"tid":2,"args":{"name":"rank 0 (2)"}})x"));
  EXPECT_TRUE(has_line(
      lines, R"({"name":"recv","cat":"comm","ph":"B","ts":1.000,"pid":1,"tid":2,"args":{"bytes":8,"peer":1}})"));
  EXPECT_TRUE(has_line(
      lines, R"({"name":"compute","cat":"compute","ph":"B","ts":2.000,"pid":1,"tid":0})"));
  EXPECT_EQ(check_trace_nesting(json::parse(text)), "");
}

TEST(ChromeTrace, ZeroLengthSpansAreInstantsBetweenTheirNeighbours) {
  RunRecord record;
  record.spans = {{0, Span::Kind::kCompute, "compute", 0, 1000, 0, -1},
                  {0, Span::Kind::kComm, "recv", 1000, 1000, 16, 1},
                  {0, Span::Kind::kCompute, "compute", 1000, 2000, 0, -1}};
  const std::string text = chrome_trace_text(record, "t");
  const std::vector<std::string> expected = {
      R"({"name":"compute","cat":"compute","ph":"B","ts":0.000,"pid":1,"tid":0})",
      R"({"name":"compute","cat":"compute","ph":"E","ts":1.000,"pid":1,"tid":0})",
      R"({"name":"recv","cat":"comm","ph":"i","ts":1.000,"s":"t","pid":1,"tid":0,"args":{"bytes":16,"peer":1}})",
      R"({"name":"compute","cat":"compute","ph":"B","ts":1.000,"pid":1,"tid":0})",
      R"({"name":"compute","cat":"compute","ph":"E","ts":2.000,"pid":1,"tid":0})",
  };
  EXPECT_EQ(timed_lines(text), expected);
  EXPECT_EQ(check_trace_nesting(json::parse(text)), "");
}

TEST(ChromeTrace, EmptyRecordIsStillAValidTrace) {
  const json trace = json::parse(chrome_trace_text(RunRecord{}, "empty"));
  EXPECT_EQ(trace["traceEvents"].size(), 2u);  // the process name and sort index
  EXPECT_EQ(check_trace_nesting(trace), "");
}

TEST(ChromeTrace, InvalidUtf8InNamesIsReplacedNotFatal) {
  RunRecord record;
  record.spans = {{0, Span::Kind::kCompute, std::string("bad\xff"), 0, 10, 0, -1}};
  json parsed;
  ASSERT_NO_THROW(parsed = json::parse(chrome_trace_text(record, "t")));
  // The invalid byte becomes U+FFFD (EF BF BD); the rest of the name and the span stay.
  std::vector<std::string> phases;
  for (const json& event : parsed["traceEvents"]) {
    if (event.value("cat", "") != "compute") continue;
    EXPECT_EQ(event["name"], "bad\xEF\xBF\xBD") << event.dump();
    phases.push_back(event["ph"].get<std::string>() + "@" + event["ts"].dump());
  }
  EXPECT_EQ(phases, (std::vector<std::string>{"B@0.0", "E@0.01"}));
}

// ---- Abutting spans at times that are not whole microseconds --------------------------

// "ts":<digits>.<three digits> of one line, read by hand as whole nanoseconds.
int64_t ts_of_line(const std::string& line) {
  const size_t at = line.find("\"ts\":");
  const size_t dot = line.find('.', at);
  const std::string whole = line.substr(at + 5, dot - (at + 5));
  const std::string fraction = line.substr(dot + 1, 3);
  return std::stoll(whole) * 1000 + std::stoll(fraction);
}

std::string field_of_line(const std::string& line, const std::string& key) {
  const std::string marker = "\"" + key + "\":";
  const size_t at = line.find(marker) + marker.size();
  size_t end = at;
  if (line[at] == '"') {
    end = line.find('"', at + 1) + 1;
  } else {
    while (end < line.size() && line[end] != ',' && line[end] != '}') ++end;
  }
  return line.substr(at, end - at);
}

TEST(ChromeTrace, AbuttingSpansAtOddNanosecondsReadBackExactly) {
  // Boundaries that are not whole microseconds, and two taken from a quickstart run whose
  // X events overlapped in speedscope: there 1082.075 + 5.083 computed in doubles exceeds
  // 1087.158, the next span's start.
  ASSERT_GT(1082.075 + 5.083, 1087.158);
  const std::vector<int64_t> rank0 = {0, 1001, 2003, 3006, 4010, 1082075, 1087158, 1090001};
  const std::vector<int64_t> rank1 = {7, 1009, 2011, 1082075, 1087158};
  RunRecord record;
  const auto add_spans = [&](int rank, const std::vector<int64_t>& times) {
    for (size_t i = 0; i + 1 < times.size(); ++i) {
      if (i % 2 == 0) {
        record.spans.push_back({rank, Span::Kind::kCompute, "compute", times[i], times[i + 1], 0, -1});
      } else {
        record.spans.push_back(
            {rank, Span::Kind::kComm, "all_reduce", times[i], times[i + 1], 4096, -1});
      }
    }
  };
  add_spans(0, rank0);
  add_spans(1, rank1);
  // Back-to-back messages of one pair, each taking the lane the previous one leaves.
  record.messages = {{0, 1, 4096, 1001, 2003, "all_reduce"},
                     {0, 1, 4096, 2003, 3006, "all_reduce"},
                     {0, 1, 4096, 3006, 4010, "all_reduce"}};

  const std::string text = chrome_trace_text(record, "t");
  EXPECT_EQ(check_trace_nesting(json::parse(text)), "");

  // Pair begins and ends per track in file order, reading times from the text by hand.
  std::map<std::pair<std::string, std::string>, std::vector<int64_t>> open;
  std::map<std::pair<std::string, std::string>, std::vector<std::pair<int64_t, int64_t>>> read;
  for (const std::string& line : timed_lines(text)) {
    const std::string phase = field_of_line(line, "ph");
    const auto track = std::make_pair(field_of_line(line, "pid"), field_of_line(line, "tid"));
    EXPECT_NE(phase, "\"X\"") << line;
    if (phase == "\"B\"") open[track].push_back(ts_of_line(line));
    if (phase == "\"E\"") {
      ASSERT_FALSE(open[track].empty()) << line;
      read[track].push_back({open[track].back(), ts_of_line(line)});
      open[track].pop_back();
    }
  }
  const auto expected_of = [](const std::vector<int64_t>& times) {
    std::vector<std::pair<int64_t, int64_t>> spans;
    for (size_t i = 0; i + 1 < times.size(); ++i) spans.push_back({times[i], times[i + 1]});
    return spans;
  };
  EXPECT_EQ((read[{"1", "0"}]), expected_of(rank0));
  EXPECT_EQ((read[{"1", "1"}]), expected_of(rank1));
  EXPECT_EQ((read[{"2", "0"}]), expected_of({1001, 2003, 3006, 4010}));  // one lane
  EXPECT_EQ(read.size(), 3u);

  // And through the JSON value: each begin and end reads back as the integer it came from.
  std::vector<int64_t> rank0_times;
  const json trace = chrome_trace(record, "t");
  for (const json& event : trace["traceEvents"]) {
    if (event["pid"] == 1 && event["tid"] == 0 && (event["ph"] == "B" || event["ph"] == "E")) {
      rank0_times.push_back(trace_time_ns(event["ts"]));
    }
  }
  std::vector<int64_t> expected_times;  // each inner boundary ends one span and begins one
  for (size_t i = 0; i < rank0.size(); ++i) {
    expected_times.push_back(rank0[i]);
    if (i > 0 && i + 1 < rank0.size()) expected_times.push_back(rank0[i]);
  }
  EXPECT_EQ(rank0_times, expected_times);
}

// ---- Reading trace times back -----------------------------------------------------------

TEST(TraceTime, ReadsMicrosecondsAsWholeNanoseconds) {
  EXPECT_EQ(trace_time_ns(json(5)), 5000);
  EXPECT_EQ(trace_time_ns(json(-5)), -5000);
  EXPECT_EQ(trace_time_ns(json::parse("2.003")), 2003);
  EXPECT_EQ(trace_time_ns(json::parse("0.001")), 1);
  EXPECT_EQ(trace_time_ns(json::parse("1087.158")), 1087158);
  EXPECT_EQ(trace_time_ns(json::parse("123456789.123")), 123456789123);
  EXPECT_EQ(trace_time_ns(json::parse("-0.002")), -2);
  EXPECT_EQ(trace_time_ns(json::parse("1e3")), 1000000);
  EXPECT_EQ(trace_time_ns(json("1.0005")), 1001);  // half a nanosecond rounds away from 0
  EXPECT_EQ(trace_time_ns(json("-1.0005")), -1001);
  EXPECT_EQ(trace_time_ns(json("1.0004999")), 1000);
  EXPECT_EQ(trace_time_ns(json("2.5e-3")), 3);
  EXPECT_THROW(trace_time_ns(json("1.2.3")), std::invalid_argument);
  EXPECT_THROW(trace_time_ns(json("abc")), std::invalid_argument);
  EXPECT_THROW(trace_time_ns(json(true)), std::invalid_argument);
  EXPECT_THROW(trace_time_ns(json("1e30")), std::out_of_range);
}

// ---- The checker on hand-made traces ----------------------------------------------------

json trace_of(std::vector<json> events) {
  json trace = {{"traceEvents", json::array()}};
  trace["traceEvents"].push_back(
      {{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", 0}, {"args", {{"name", "rank 0"}}}});
  for (json& event : events) trace["traceEvents"].push_back(std::move(event));
  return trace;
}

json complete(const std::string& name, const char* ts, const char* dur, int tid = 0) {
  return {{"name", name}, {"ph", "X"}, {"ts", json::parse(ts)}, {"dur", json::parse(dur)},
          {"pid", 1}, {"tid", tid}};
}

json duration(const std::string& name, const char* phase, const char* ts, int tid = 0) {
  return {{"name", name}, {"ph", phase}, {"ts", json::parse(ts)}, {"pid", 1}, {"tid", tid}};
}

TEST(TraceChecker, ReportsCompleteEventsThatOverlap) {
  const std::string problem = check_trace_nesting(
      trace_of({complete("a", "1.000", "2.000"), complete("b", "2.000", "2.000")}));
  EXPECT_NE(problem.find("track pid 1 tid 0 (\"rank 0\")"), std::string::npos) << problem;
  EXPECT_NE(problem.find("\"a\" (X #1) [1000 ns, 3000 ns)"), std::string::npos) << problem;
  EXPECT_NE(problem.find("\"b\" (X #2) [2000 ns, 4000 ns)"), std::string::npos) << problem;
}

TEST(TraceChecker, AcceptsNestedDisjointAndAbuttingEvents) {
  EXPECT_EQ(check_trace_nesting(trace_of({complete("outer", "0", "10"),
                                          complete("inner", "2.5", "2.5"),
                                          complete("last", "5", "5"),
                                          complete("next", "10", "2.002")})),
            "");
  // An overlap on two tracks is no overlap.
  EXPECT_EQ(check_trace_nesting(
                trace_of({complete("a", "1.000", "2.000", 0), complete("b", "2.000", "2.000", 1)})),
            "");
  // A bare array of events is a trace too.
  EXPECT_EQ(check_trace_nesting(json::array({complete("a", "1", "1"), complete("b", "2", "1")})),
            "");
}

TEST(TraceChecker, ReportsAbuttingEventsThatOverlapInDoubles) {
  ASSERT_GT(1082.075 + 5.083, 1087.158);  // the hazard, computed here
  const std::string problem = check_trace_nesting(
      trace_of({complete("compute", "1082.075", "5.083"), complete("all_reduce", "1087.158", "1")}));
  EXPECT_NE(problem.find("[1082075 ns, 1087158 ns)"), std::string::npos) << problem;
  EXPECT_NE(problem.find("[1087158 ns, 1088158 ns)"), std::string::npos) << problem;
  EXPECT_NE(problem.find("doubles"), std::string::npos) << problem;
  // The same boundaries as begin/end pairs: one literal for both, nothing to compute.
  EXPECT_EQ(check_trace_nesting(trace_of({duration("compute", "B", "1082.075"),
                                          duration("compute", "E", "1087.158"),
                                          duration("all_reduce", "B", "1087.158"),
                                          duration("all_reduce", "E", "1088.158")})),
            "");
}

TEST(TraceChecker, ReportsBeginEndPairsThatCross) {
  const std::string problem = check_trace_nesting(
      trace_of({duration("a", "B", "1"), duration("b", "B", "2"), duration("a", "E", "3"),
                duration("b", "E", "4")}));
  EXPECT_NE(problem.find("\"a\" (E #3) at 3000 ns ends \"b\" (B #2) [2000 ns, 3000 ns)"),
            std::string::npos)
      << problem;
}

TEST(TraceChecker, ReportsBeginEndPairsViewersReorder) {
  // An end before its begin at one time: viewers that put ends first at a time break it.
  std::string problem = check_trace_nesting(
      trace_of({duration("a", "B", "1"), duration("a", "E", "1")}));
  EXPECT_NE(problem.find("\"a\" (B #1) [1000 ns, 1000 ns) ends (E #2) at 1000 ns"),
            std::string::npos)
      << problem;
  // A begin that never ends.
  problem = check_trace_nesting(trace_of({duration("a", "B", "1")}));
  EXPECT_NE(problem.find("\"a\" (B #1) at 1000 ns never ends"), std::string::npos) << problem;
  // Time going back on one track.
  problem = check_trace_nesting(
      trace_of({duration("a", "B", "2"), duration("a", "E", "3"), duration("b", "B", "1"),
                duration("b", "E", "4")}));
  EXPECT_NE(problem.find("\"b\" (B #3) at 1000 ns comes after event #2 at 3000 ns"),
            std::string::npos)
      << problem;
  // An end with nothing open.
  problem = check_trace_nesting(trace_of({duration("a", "E", "1")}));
  EXPECT_NE(problem.find("ends no open slice"), std::string::npos) << problem;
}

TEST(TraceChecker, ReportsMalformedTraces) {
  EXPECT_NE(check_trace_nesting(json::object()), "");
  EXPECT_NE(check_trace_nesting(trace_of({{{"name", "a"}, {"ph", "X"}, {"ts", 1}, {"pid", 1},
                                           {"tid", 0}}})),
            "");  // X without dur
  EXPECT_NE(check_trace_nesting(trace_of({complete("a", "1", "-1")})), "");
}

}  // namespace
}  // namespace uniference
