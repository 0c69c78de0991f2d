// The trace of a real run, read back: the quickstart through the uniference binary. Every
// track must nest in every viewer (bridge/test/trace_nesting.h), and its slices must
// add up to what the run reports in results.json, to the nanosecond.
#include "apps/test/test_dir.h"
#include "bridge/chrome_trace.h"
#include "bridge/test/trace_nesting.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace uniference {
namespace {

using nlohmann::json;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// Runs the quickstart into dir/out; its exit code.
int run_quickstart(const TestDir& dir) {
  const std::string command = std::string("\"") + UNIFERENCE_BINARY + "\" run \"" +
                              UNIFERENCE_SCENARIOS_DIR + "/quickstart.json\" --out \"" +
                              (dir / "out") + "\" --quiet > \"" + (dir / "log") + "\" 2>&1";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// "rank 3" and "rank 3 (2)" (an extra lane of rank 3) -> 3; anything else -> -1.
int rank_of_track(const std::string& name) {
  if (name.rfind("rank ", 0) != 0 || name.find("->") != std::string::npos) return -1;
  return std::stoi(name.substr(5));
}

struct Interval {
  int64_t start_ns;
  int64_t end_ns;
};

TEST(TraceNesting, QuickstartTraceNestsAndAddsUpToItsResults) {
  TestDir dir;
  ASSERT_EQ(run_quickstart(dir), 0) << read_file(dir / "log");
  const json trace = json::parse(read_file(dir / "out/trace.json"));
  const json results = json::parse(read_file(dir / "out/results.json"));

  EXPECT_EQ(check_trace_nesting(trace), "");

  std::map<std::pair<int, int>, std::string> thread_names;
  for (const json& event : trace["traceEvents"]) {
    if (event["ph"] == "M" && event["name"] == "thread_name") {
      thread_names[{event["pid"].get<int>(), event["tid"].get<int>()}] = event["args"]["name"];
    }
  }

  // Slices per rank and category, pairing begins and ends per track in file order.
  std::map<std::pair<int, int>, std::vector<std::pair<std::string, int64_t>>> open;
  std::map<int, std::map<std::string, int64_t>> rank_ns;  // rank -> category -> total
  std::map<int, std::vector<Interval>> rank0_slices;      // tid -> slices, rank 0's tracks
  int network_slices = 0;
  int complete_events = 0;
  for (const json& event : trace["traceEvents"]) {
    const std::string phase = event["ph"];
    if (phase == "X") ++complete_events;
    if (phase != "B" && phase != "E" && phase != "i") continue;
    const std::pair<int, int> track{event["pid"].get<int>(), event["tid"].get<int>()};
    const int64_t ts = trace_time_ns(event["ts"]);
    if (track.first == 2) {
      network_slices += phase != "E";  // a message is a begin/end pair or an instant
      continue;
    }
    const int rank = rank_of_track(thread_names[track]);
    ASSERT_GE(rank, 0) << "an event on an unnamed track: " << event.dump();
    if (phase == "B") open[track].push_back({event["cat"], ts});
    if (phase == "E") {
      ASSERT_FALSE(open[track].empty()) << event.dump();
      const auto [category, start] = open[track].back();
      open[track].pop_back();
      rank_ns[rank][category] += ts - start;
      if (rank == 0) rank0_slices[track.second].push_back({start, ts});
    }
  }
  EXPECT_EQ(complete_events, 0) << "slices are begin/end pairs, whose ends need no arithmetic";

  // Each rank's compute and communication time, summed from the trace, is what the run
  // charged: no nanosecond lost to rounding on the way into the trace.
  ASSERT_EQ(results["ranks"].size(), 4u);
  for (const json& stats : results["ranks"]) {
    const int rank = stats["rank"];
    EXPECT_EQ(rank_ns[rank]["compute"], stats["compute_ns"].get<int64_t>()) << "rank " << rank;
    EXPECT_EQ(rank_ns[rank]["comm"], stats["comm_wait_ns"].get<int64_t>()) << "rank " << rank;
  }
  EXPECT_EQ(network_slices, results["messages"].get<int>());

  // The run has what broke the former X events: spans that abut at times that are not
  // whole microseconds, where start + duration computed in doubles passes the next start.
  int abutting = 0;
  int overshooting = 0;
  for (const auto& [tid, slices] : rank0_slices) {
    for (size_t i = 0; i + 1 < slices.size(); ++i) {
      if (slices[i].end_ns != slices[i + 1].start_ns) continue;
      ++abutting;
      const double start_us = double(slices[i].start_ns) / 1000.0;
      const double dur_us = double(slices[i].end_ns - slices[i].start_ns) / 1000.0;
      overshooting += start_us + dur_us > double(slices[i + 1].start_ns) / 1000.0;
    }
  }
  EXPECT_GT(abutting, 100);
  EXPECT_GT(overshooting, 0);
}

}  // namespace
}  // namespace uniference
