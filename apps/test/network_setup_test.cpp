// What a run's reports state about its network (run_scenario.h's network_setup): the network
// the run was built from, with what the scenario left out resolved, not the text it wrote.
#include "apps/run_scenario.h"
#include "apps/scenario_check.h"
#include "apps/test/shipped_scenario.h"

#include <gtest/gtest.h>

#include <cmath>

namespace uniference {
namespace {

using nlohmann::json;

using test::shipped;

NetworkSetup setup_of(const json& document) {
  const Scenario scenario = parse_scenario(document, "setup-test.json");
  return network_setup(scenario.network, check_scenario(scenario).network);
}

TEST(NetworkSetup, StatesTheFabricsDefaultsTheScenarioLeftOut) {
  json document = shipped("fat-tree-rdma.json");
  document["network"]["transport"].erase("kind");
  document["network"]["link"].erase("ib_mtu");
  const NetworkSetup setup = setup_of(document);
  // Congestion control is a key of rdma alone, and the scenario still passes: rdma ran.
  EXPECT_EQ(setup.transport, "rdma");
  EXPECT_EQ(setup.ib_mtu, 4096u);  // InfiniBand's largest MTU, the fabric's default
  EXPECT_EQ(setup.congestion_control, "none");
  EXPECT_EQ(setup.placement, (std::vector<uint32_t>{0, 4, 8, 12}));
  EXPECT_FALSE(setup.adaptive_routing);
}

TEST(NetworkSetup, NamesTheClassesThatRanAsTheirRegistriesDo) {
  json document = shipped("fat-tree-rdma.json");
  document["network"]["transport"]["congestion_control"] = "dcqcn";
  EXPECT_EQ(setup_of(document).congestion_control, "dcqcn");

  json tcp = shipped("quickstart.json");
  tcp["network"]["transport"] = {{"tcp_variant", "newreno"}};
  const NetworkSetup setup = setup_of(tcp);
  EXPECT_EQ(setup.transport, "tcp");
  EXPECT_EQ(setup.tcp_variant, "newreno");
  EXPECT_EQ(setup.link_rate_bps, 1'000'000'000u);  // the quickstart's 1Gbps
}

TEST(NetworkSetup, ALinkBudgetStatesTheShannonRateThatRan) {
  const NetworkSetup setup = setup_of(shipped("edge-cloud-thz.json"));
  ASSERT_TRUE(setup.wan.has_value());
  // C = B log2(1 + SNR): 50 GHz at 10 dB (SNR 10), about 173 Gbit/s.
  const double shannon = 50e9 * std::log2(1.0 + 10.0);
  EXPECT_NEAR(double(setup.wan->uplink_bps), shannon, 1.0);
  EXPECT_NEAR(double(setup.wan->downlink_bps), shannon, 1.0);
  ASSERT_TRUE(setup.wan->budget.has_value());
  EXPECT_EQ(setup.wan->budget->first, 50e9);
  EXPECT_TRUE(setup.wan->hold);
}

TEST(NetworkSetup, WanLossInNetemsPercentReachesGilbertElliottAsFractions) {
  // netem's `loss gemodel 1 25 90 0.5`: 1% good -> bad, 25% bad -> good, 90% lost in the bad
  // state (1-h), 0.5% in the good one (1-k); GilbertElliottErrorModel takes fractions.
  json document = shipped("edge-cloud-geo.json");
  document["network"]["wan"]["loss"] = {{"p", 1}, {"r", 25}, {"1-h", 90}, {"1-k", 0.5}};
  const Scenario scenario = parse_scenario(document, "loss.json");
  const auto& loss = check_scenario(scenario).network.wan.loss;
  ASSERT_TRUE(loss.has_value());
  EXPECT_DOUBLE_EQ(loss->p, 0.01);
  EXPECT_DOUBLE_EQ(loss->r, 0.25);
  EXPECT_DOUBLE_EQ(loss->loss_in_bad, 0.9);
  EXPECT_DOUBLE_EQ(loss->loss_in_good, 0.005);
  EXPECT_TRUE(network_setup(scenario.network, check_scenario(scenario).network).wan->loss);
}

}  // namespace
}  // namespace uniference
