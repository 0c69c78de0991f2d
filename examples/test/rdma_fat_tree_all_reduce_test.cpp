// The rdma-fat-tree-all-reduce example run as a user runs it, on a k=4 fat-tree (16
// endpoints) of 400 Gbit/s cables, its times checked against the fabric's physics:
//  - no all-reduce beats 2(n-1)/n S / B, each endpoint's share of the data through its one
//    port, with B the payload rate of the line (4096-byte payloads under 26 bytes of
//    InfiniBand headers: LRH 8, BTH 12, ICRC 4, VCRC 2);
//  - the ring reaches its alpha-beta time 2(n-1) (alpha + S/n / B) with alpha the fabric's
//    longest path (six cables, five cut-through switches, one packet's serialisation): its
//    neighbours' flows share no cable, so within 5% whatever the routing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "example_run.h"

namespace {

using uniference::examples::ExampleRun;
using uniference::examples::run_example;

constexpr double kBytes = 16 << 20;
constexpr int kN = 16;                                // k^3/4, k = 4
constexpr double kLine = 400e9 / 8;                   // bytes/s
constexpr double kPayloadRate = kLine * 4096 / 4122;  // bytes/s
constexpr double kCable = 100e-9;
constexpr double kSwitch = 100e-9;
const std::string kFabric =
    "--k=4 --bytes=16777216 --rate=400Gbps --delay=100ns --switchLatency=100ns";

double lower_bound() { return 2.0 * (kN - 1) / kN * kBytes / kPayloadRate; }

/// \return the time the example printed for the algorithm, after checking its bandwidths
double time_of(const std::string& algorithm, const std::string& routing) {
  const ExampleRun run =
      run_example(EXAMPLE_BINARY, kFabric + " --algorithm=" + algorithm + " --routing=" + routing);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  if (run.rows.size() != 1 || run.rows[0].size() != 4) {
    ADD_FAILURE() << "expected one row of 4 fields:\n" << run.output;
    return 0;
  }
  const std::vector<std::string>& row = run.rows[0];
  EXPECT_EQ(row[0], algorithm);
  const double time_s = std::stod(row[1]) * 1e-6;
  const double algbw = kBytes / time_s / 1e9;
  EXPECT_NEAR(std::stod(row[2]), algbw, 2e-3) << run.output;
  EXPECT_NEAR(std::stod(row[3]), algbw * 2.0 * (kN - 1) / kN, 2e-3) << run.output;
  return time_s;
}

TEST(RdmaFatTreeAllReduceExample, TheRingReachesItsAlphaBetaTime) {
  const double alpha = 6 * kCable + 5 * kSwitch + 4122 / kLine;
  const double alpha_beta = 2 * (kN - 1) * (alpha + kBytes / kN / kPayloadRate);
  for (const std::string routing : {"ECMP", "Adaptive"}) {
    const double time_s = time_of("ring", routing);
    EXPECT_GE(time_s, lower_bound()) << routing;
    EXPECT_LE(time_s, 1.05 * alpha_beta) << routing;
  }
}

TEST(RdmaFatTreeAllReduceExample, NoAlgorithmBeatsTheBandwidthBound) {
  for (const std::string algorithm : {"gloo", "halving_doubling", "hierarchical", "tree"}) {
    EXPECT_GE(time_of(algorithm, "ECMP"), lower_bound()) << algorithm;
  }
}

TEST(RdmaFatTreeAllReduceExample, RefusesWhatTheFabricCannotBe) {
  for (const std::string args : {"--k=3", "--algorithm=nonesuch", "--routing=Random"}) {
    const ExampleRun run = run_example(EXAMPLE_BINARY, args);
    EXPECT_EQ(run.exit_code, 1) << args << ":\n" << run.output;
  }
}

}  // namespace
