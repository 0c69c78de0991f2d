// uniference crosscheck through the binary: a scenario at both levels, an all-reduce sweep
// whose flow level stays within 5% of the packet level for large messages, and bad input
// refused with exit code 2 naming what was wrong.
#include "tests/cli_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

namespace uniference {
namespace {

using namespace cli;

// A sweep table's rows: size, algorithm, packet(us), flow(us), error, wall(ms) packet and
// flow, ratio.
struct SweepLine {
  double bytes = 0;
  std::string algorithm;
  double packet_us = 0;
  double flow_us = 0;
  double error_percent = 0;
};

std::vector<SweepLine> sweep_lines(const std::string& output) {
  std::vector<SweepLine> lines;
  std::istringstream in(output);
  std::string line;
  bool in_table = false;
  while (std::getline(in, line)) {
    if (line.find("packet level against flow level") != std::string::npos) in_table = true;
    if (!in_table || line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    SweepLine row;
    std::string error;
    if (fields >> row.bytes >> row.algorithm >> row.packet_us >> row.flow_us >> error) {
      row.error_percent = std::stod(error);  // "+1.23%": stod stops at '%'
      lines.push_back(row);
    }
  }
  return lines;
}

TEST(CrosscheckCli, ScenarioPrintsBothLevels) {
  const Result result = run_uniference("crosscheck " + scenario("quickstart.json") +
                                       " --set /workload/new_tokens=2 --quiet");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  for (const char* piece : {"packet level against flow level", "all_reduce", "TTFT", "TPOT",
                            "simulated time", "wall time", "(packet/flow)"}) {
    EXPECT_NE(result.output.find(piece), std::string::npos) << piece << "\n" << result.output;
  }
}

// The pipeline's activations travel by send and recv: their own class.
TEST(CrosscheckCli, PointToPointIsItsOwnClass) {
  const Result result = run_uniference("crosscheck " + scenario("pp.json") +
                                       " --set /workload/new_tokens=2 --quiet");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("send/recv"), std::string::npos) << result.output;
}

// On the fat-tree's 200 Gbit/s HDR links and on the quickstart's 1 Gbit/s star, a ring-like
// all-reduce of S >= 1 MiB is bandwidth-bound: both levels must take at least the time each
// rank needs to send 2 (n - 1) / n of S over its link, and the flow level must be within 5% of
// the packet level. colltest's default warm-up iteration runs first, as in nccl-tests: a
// cold TCP connection's first 1 MiB (handshake, slow start) is another question.
void expect_sweep_agrees(const std::string& scenario_name, double link_bps) {
  const Result result = run_uniference("crosscheck " + scenario(scenario_name) +
                                       " --op all_reduce --min-bytes 1M --max-bytes 4M --ranks 4"
                                       " --quiet");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::vector<SweepLine> lines = sweep_lines(result.output);
  ASSERT_EQ(lines.size(), 3u) << result.output;  // 1, 2 and 4 MiB
  for (const SweepLine& row : lines) {
    EXPECT_GE(row.bytes, 1024.0 * 1024.0) << result.output;
    const double bound_us = 2.0 * 3.0 / 4.0 * row.bytes * 8.0 / link_bps * 1e6;
    EXPECT_GE(row.packet_us, bound_us) << row.bytes << "\n" << result.output;
    EXPECT_GE(row.flow_us, bound_us) << row.bytes << "\n" << result.output;
    // The printed error is what the printed times give (to their 0.1 us rounding) ...
    const double from_times = (row.flow_us - row.packet_us) / row.packet_us * 100.0;
    EXPECT_NEAR(row.error_percent, from_times, 0.1 / row.packet_us * 100.0 + 0.01)
        << row.bytes << "\n" << result.output;
    // ... and within what the flow level is for.
    EXPECT_LT(std::fabs(row.error_percent), 5.0) << row.bytes << "\n" << result.output;
  }
  EXPECT_NE(result.output.find("packet/flow"), std::string::npos) << result.output;
}

TEST(CrosscheckCli, AllReduceOnTheRdmaFatTreeWithin5PercentFrom1MiB) {
  expect_sweep_agrees("fat-tree-rdma.json", 200e9);
}

TEST(CrosscheckCli, AllReduceOnTheTcpStarWithin5PercentFrom1MiB) {
  expect_sweep_agrees("quickstart.json", 1e9);
}

TEST(CrosscheckCli, UnknownOpExitsWith2NamingTheOption) {
  const Result result = run_uniference("crosscheck " + scenario("quickstart.json") +
                                       " --op all_reduse");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("unknown --op all_reduse"), std::string::npos) << result.output;
}

TEST(CrosscheckCli, BadByteCountExitsWith2NamingTheOption) {
  const Result result = run_uniference("crosscheck " + scenario("quickstart.json") +
                                       " --op all_reduce --max-bytes 4Q");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("--max-bytes: expected a byte count"), std::string::npos)
      << result.output;
}

TEST(CrosscheckCli, SweepOptionWithoutOpExitsWith2) {
  const Result result = run_uniference("crosscheck " + scenario("quickstart.json") + " --ranks 8");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("need --op"), std::string::npos) << result.output;
}

// A network the flow level cannot carry is refused at its pointer, for a whole run and for a
// sweep alike, before the packet level runs.
TEST(CrosscheckCli, WirelessCellExitsWith2NamingThePointer) {
  for (const char* sweep : {"", " --op all_reduce"}) {
    const Result result = run_uniference("crosscheck " + scenario("wifi-tp.json") + sweep);
    EXPECT_EQ(result.exit_code, 2) << sweep << "\n" << result.output;
    EXPECT_NE(result.output.find(": /network/topology: "), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("flow level"), std::string::npos) << result.output;
    EXPECT_EQ(result.output.find("at the packet level"), std::string::npos) << result.output;
  }
}

TEST(CrosscheckCli, WideAreaLinkExitsWith2NamingThePointer) {
  const Result result = run_uniference("crosscheck " + scenario("edge-cloud-geo.json"));
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find(": /network/wan"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace uniference
