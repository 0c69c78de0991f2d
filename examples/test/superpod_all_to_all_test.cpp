// The superpod-all-to-all example run as a user runs it, on 4 servers of 8 endpoints and 8
// tier switches (CloudMatrix384's shape), its times checked against the fabric's physics.
// Each endpoint sends S/n to each of the n-1 others, so no all-to-all ends before
//  - every endpoint has put (n-1)/n S through its one port, and
//  - every server has put its endpoints' traffic to other servers, g (n-g) S/n for g
//    endpoints per server, through its tier cables,
// at the payload rate B of a line (4096-byte payloads under 26 bytes of InfiniBand headers),
// and its last packet has crossed one server switch (two cables, one switch). With adaptive
// routing the direct exchange stays within 20% of the larger bound plus the two-hop path
// (four cables, three switches) that its last packet may take.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "example_run.h"

namespace {

using uniference::examples::ExampleRun;
using uniference::examples::run_example;

constexpr double kBytes = 8 << 20;
constexpr int kServers = 4;
constexpr int kGpus = 8;
constexpr int kTier = 8;
constexpr int kN = kServers * kGpus;
constexpr double kIntraRate = 3136e9 / 8;  // bytes/s
constexpr double kCable = 100e-9;
constexpr double kSwitch = 700e-9;
constexpr double kPayload = 4096.0 / 4122;

const std::string kSuperpod =
    "--servers=4 --gpusPerServer=8 --tierSwitches=8 --bytes=8388608 --intraRate=3136Gbps "
    "--delay=100ns --switchLatency=700ns --vlBuffer=1048576";

/// \return the bandwidth bound, the larger of an endpoint's port and a server's tier cables
double bandwidth_bound(double tier_rate) {
  const double port = (kN - 1.0) / kN * kBytes / (kIntraRate * kPayload);
  const double tier = kGpus * (kN - kGpus) * kBytes / kN / (kTier * tier_rate * kPayload);
  return std::max(port, tier);
}

/// \return the time the example printed, after checking its bandwidths
double time_of(const std::string& args, const std::string& algorithm) {
  const ExampleRun run =
      run_example(EXAMPLE_BINARY, kSuperpod + " " + args + " --algorithm=" + algorithm);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  if (run.rows.size() != 1 || run.rows[0].size() != 4) {
    ADD_FAILURE() << "expected one row of 4 fields:\n" << run.output;
    return 0;
  }
  const std::vector<std::string>& row = run.rows[0];
  EXPECT_EQ(row[0], algorithm);
  const double time_s = std::stod(row[1]) * 1e-6;
  const double algbw = kBytes / time_s / 1e9;
  EXPECT_NEAR(std::stod(row[2]), algbw, 2e-3 + algbw * 1e-4) << run.output;
  EXPECT_NEAR(std::stod(row[3]), algbw * (kN - 1) / kN, 2e-3 + algbw * 1e-4) << run.output;
  return time_s;
}

struct Case {
  const char* name;
  const char* args;
  double tier_rate;  // bytes/s
};

class SuperpodAllToAllExample : public ::testing::TestWithParam<Case> {};

TEST_P(SuperpodAllToAllExample, TheDirectExchangeReachesTheBandwidthBound) {
  const Case& c = GetParam();
  const double bound = bandwidth_bound(c.tier_rate);
  const double time_s = time_of(std::string(c.args) + " --routing=Adaptive", "direct");
  EXPECT_GE(time_s, bound + 2 * kCable + kSwitch);
  EXPECT_LE(time_s, 1.2 * (bound + 4 * kCable + 3 * kSwitch));
}

TEST_P(SuperpodAllToAllExample, NoAlgorithmOrRoutingBeatsTheBandwidthBound) {
  const Case& c = GetParam();
  const double bound = bandwidth_bound(c.tier_rate);
  for (const std::string algorithm : {"pairwise", "hierarchical", "gloo"}) {
    EXPECT_GE(time_of(std::string(c.args) + " --routing=Adaptive", algorithm), bound) << algorithm;
  }
  EXPECT_GE(time_of(std::string(c.args) + " --routing=ECMP", "direct"), bound) << "ECMP";
}

// Tier cables as fast as the endpoints' ports: the ports are the bottleneck. A quarter as
// fast: the tier is (6 S through 8 cables against 31/32 S through one port).
INSTANTIATE_TEST_SUITE_P(Links, SuperpodAllToAllExample,
                         ::testing::Values(Case{"port_bound", "--rate=3136Gbps", kIntraRate},
                                           Case{"tier_bound", "--rate=784Gbps", kIntraRate / 4}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string(info.param.name);
                         });

TEST(SuperpodAllToAllExampleInput, RefusesWhatTheSuperpodCannotBe) {
  for (const std::string args :
       {"--servers=2 --tierSwitches=0", "--algorithm=ring", "--intraRate=fast"}) {
    const ExampleRun run = run_example(EXAMPLE_BINARY, args);
    EXPECT_EQ(run.exit_code, 1) << args << ":\n" << run.output;
  }
}

}  // namespace
