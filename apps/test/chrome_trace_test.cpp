// The Chrome trace of small hand-made records: which events, on which tracks, at which
// exact timestamp text, and the same bytes whatever order the record lists things in.
#include "bridge/chrome_trace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <sstream>
#include <string>
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
  while (std::getline(stream, line)) lines.push_back(line);
  return lines;
}

bool has_line(const std::vector<std::string>& lines, const std::string& expected) {
  for (const std::string& line : lines) {
    std::string event = line;
    if (!event.empty() && event.back() == ',') event.pop_back();
    if (event == expected) return true;
  }
  return false;
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
  const json& events = trace["traceEvents"];
  // Metadata: 2 process names + 2 process sort indexes, 2 ranks x (name, sort index),
  // 1 network track x (name, sort index). Timed: 4 spans, 1 message, its flow start and end.
  ASSERT_EQ(events.size(), 10u + 7u);
  int metadata = 0, slices = 0, flow_starts = 0, flow_ends = 0;
  for (const json& event : events) {
    const std::string phase = event["ph"];
    metadata += phase == "M";
    slices += phase == "X";
    flow_starts += phase == "s";
    flow_ends += phase == "f";
  }
  EXPECT_EQ(metadata, 10);
  EXPECT_EQ(slices, 5);
  EXPECT_EQ(flow_starts, 1);
  EXPECT_EQ(flow_ends, 1);

  // Every metadata event comes before every timed event, and timed ones in time order.
  double last_ts = -1;
  bool seen_timed = false;
  for (const json& event : events) {
    if (event["ph"] == "M") {
      EXPECT_FALSE(seen_timed);
      continue;
    }
    seen_timed = true;
    EXPECT_GE(event["ts"].get<double>(), last_ts);
    last_ts = event["ts"].get<double>();
  }

  const std::vector<std::string> lines = lines_of(text);
  EXPECT_EQ(lines.size(), 1u + 17u + 1u);  // header, one line per event, closing line
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
  EXPECT_TRUE(has_line(
      lines,
      R"({"name":"compute","cat":"compute","ph":"X","ts":0.000,"dur":1.500,"pid":1,"tid":0})"));
  EXPECT_TRUE(has_line(
      lines, R"({"name":"send","cat":"comm","ph":"X","ts":1.500,"dur":2.500,"pid":1,"tid":0,)"
             R"("args":{"bytes":1024,"peer":1}})"));
  EXPECT_TRUE(has_line(
      lines, R"({"name":"recv","cat":"comm","ph":"X","ts":1.000,"dur":3.000,"pid":1,"tid":1,)"
             R"("args":{"bytes":1024,"peer":0}})"));
  EXPECT_TRUE(has_line(
      lines, R"({"name":"send","cat":"net","ph":"X","ts":1.500,"dur":2.500,"pid":2,"tid":0,)"
             R"("args":{"bytes":1024,"dst":1,"src":0}})"));
  EXPECT_TRUE(has_line(
      lines, R"({"name":"send","cat":"flow","ph":"s","ts":1.500,"pid":1,"tid":0,"id":1})"));
  EXPECT_TRUE(has_line(
      lines,
      R"({"name":"send","cat":"flow","ph":"f","ts":4.000,"pid":1,"tid":1,"id":1,"bp":"e"})"));
}

TEST(ChromeTrace, FlowEndComesBeforeTheSliceThatStartsAtDelivery) {
  // Rank 1 waits in recv until 4 us and computes from 4 us: the arrow must reach the recv,
  // which a viewer still has open only until the compute slice begins.
  RunRecord record = send_recv_record();
  record.spans.push_back({1, Span::Kind::kCompute, "compute", 4000, 5000, 0, -1});
  const json trace = chrome_trace(record, "t");
  int flow_end = -1;
  int next_compute = -1;
  int index = 0;
  for (const json& event : trace["traceEvents"]) {
    if (event["ph"] == "f") flow_end = index;
    if (event["ph"] == "X" && event["tid"] == 1 && event["pid"] == 1 && event["ts"] == 4.0) {
      next_compute = index;
    }
    ++index;
  }
  ASSERT_GE(flow_end, 0);
  ASSERT_GE(next_compute, 0);
  EXPECT_LT(flow_end, next_compute);
}

TEST(ChromeTrace, JsonValueEqualsParsedText) {
  const RunRecord record = send_recv_record();
  EXPECT_EQ(json::parse(chrome_trace_text(record, "t")), chrome_trace(record, "t"));
}

TEST(ChromeTrace, SameBytesWhateverTheRecordOrder) {
  RunRecord record = send_recv_record();
  record.messages.push_back({1, 0, 64, 2000, 2600, "ack"});
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
    if (event["ph"] == "X") lane_of_chunk.push_back(event["tid"]);
  }
  EXPECT_EQ(network_threads, (std::vector<std::string>{"rank 0 -> rank 1", "rank 0 -> rank 1 (2)",
                                                       "rank 2 -> rank 0"}));
  // Events in time order: (0,1)@0 lane 0, (2,0)@0, (0,1)@1000 lane 1, (0,1)@5000 lane 0.
  EXPECT_EQ(lane_of_chunk, (std::vector<int>{0, 2, 1, 0}));
}

TEST(ChromeTrace, EmptyRecordIsStillAValidTrace) {
  const json trace = json::parse(chrome_trace_text(RunRecord{}, "empty"));
  EXPECT_EQ(trace["traceEvents"].size(), 2u);  // the process name and sort index
}

TEST(ChromeTrace, InvalidUtf8InNamesIsReplacedNotFatal) {
  RunRecord record;
  record.spans = {{0, Span::Kind::kCompute, std::string("bad\xff"), 0, 10, 0, -1}};
  json parsed;
  EXPECT_NO_THROW(parsed = json::parse(chrome_trace_text(record, "t")));
}

}  // namespace
}  // namespace uniference
