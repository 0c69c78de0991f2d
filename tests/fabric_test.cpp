// The InfiniBand-like fabric from the scenario side: the shipped fabric scenarios load, check
// and run; a message between ranks takes the path the placement gives it, timed against the
// test's own formula for cut-through switching; and presets see the fabric's link facts.
#include "apps/run_scenario.h"
#include "apps/scenario.h"
#include "apps/scenario_check.h"
#include "bridge/network_registry.h"
#include "bridge/this_lp.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace uniference::test {
namespace {

std::string scenario_path(const std::string& name) {
  return std::string(UNIFERENCE_SCENARIOS_DIR) + "/" + name;
}

TEST(FabricScenario, FatTreeRdmaLoadsChecksAndRuns) {
  const Scenario scenario = load_scenario(scenario_path("fat-tree-rdma.json"));
  const CheckedScenario checked = check_scenario(scenario);
  EXPECT_EQ(checked.ranks, 4);
  EXPECT_EQ(checked.network.topology, "fat-tree");
  EXPECT_EQ(checked.network.transport, "rdma");
  EXPECT_EQ(checked.network.link_model, "ib");
  EXPECT_EQ(checked.network.link_rate.GetBitRate(), 200'000'000'000u);  // HDR
  EXPECT_EQ(checked.network.rdma.mtu, 4096u);
  EXPECT_EQ(checked.network.placement, (std::vector<uint32_t>{0, 4, 8, 12}));
  // k = 4: 16 endpoints in 4 pods of 4; the ranks sit in different pods.
  const TopologyShape shape = topology_shape(checked.network, 4);
  EXPECT_EQ(shape.endpoints, 16u);
  EXPECT_EQ(shape.max_hops, 6u);

  const ScenarioRun run = run_scenario(scenario, false);
  ASSERT_EQ(run.outcome.status, RunOutcome::Status::kCompleted) << run.outcome.report;
  EXPECT_EQ(run.record.tokens.size(), 8u);
  EXPECT_FALSE(run.record.messages.empty());
}

TEST(FabricScenario, RailOptimisedLoadsChecksAndRuns) {
  const Scenario scenario = load_scenario(scenario_path("rail-optimised.json"));
  const CheckedScenario checked = check_scenario(scenario);
  // Written without transport kind or link model: the topology's own.
  EXPECT_EQ(checked.network.transport, "rdma");
  EXPECT_EQ(checked.network.link_model, "ib");
  EXPECT_EQ(checked.network.link_rate.GetBitRate(), 400'000'000'000u);  // NDR
  EXPECT_EQ(checked.network.link_delay.GetNanoSeconds(), 100);
  EXPECT_TRUE(checked.network.rdma.adaptive_routing);
  EXPECT_EQ(topology_shape(checked.network, 4).endpoints, 16u);  // 2 servers x 8 GPUs

  const ScenarioRun run = run_scenario(scenario, false);
  ASSERT_EQ(run.outcome.status, RunOutcome::Status::kCompleted) << run.outcome.report;
  EXPECT_EQ(run.record.tokens.size(), 8u);
}

TEST(FabricScenario, ThePlacementChangesTheTokensTimesNotTheTokens) {
  Scenario spread = load_scenario(scenario_path("fat-tree-rdma.json"));
  Scenario packed = load_scenario(scenario_path("fat-tree-rdma.json"), {"/network/placement=packed"});
  const ScenarioRun far = run_scenario(spread, false);
  const ScenarioRun near = run_scenario(packed, false);
  ASSERT_EQ(far.outcome.status, RunOutcome::Status::kCompleted) << far.outcome.report;
  ASSERT_EQ(near.outcome.status, RunOutcome::Status::kCompleted) << near.outcome.report;
  EXPECT_EQ(far.record.tokens, near.record.tokens);
  // Packed, ranks 0-1 and 2-3 share an edge switch (2 links) and all four a pod (4 links);
  // spread over the pods every message crosses 6.
  EXPECT_LT(near.record.total_ns, far.record.total_ns);
}

// One message of `packets` full packets from rank 0 to rank 1, placed on endpoints `from` and
// `to` of a k = 4 fat-tree: the receiver's completion time minus the sender's start.
int64_t message_time_ns(const NetworkConfig& network, uint32_t packets) {
  int64_t sent = -1, received = -1;
  const int64_t floats = int64_t(packets) * network.rdma.mtu / 4;
  auto outcome = run_star(2, network, [&](Comm& comm) {
    at::Tensor t = at::ones({floats});
    if (comm.rank() == 0) {
      sent = this_lp::clock_ns();
      comm.send(t, 1);
    } else {
      comm.recv(t, 0);
      received = this_lp::clock_ns();
    }
  });
  EXPECT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  return received - sent;
}

struct Path {
  const char* name;
  uint32_t to;    // rank 1's endpoint; rank 0 is on endpoint 0
  double hops;    // links on the path, from the fat-tree's wiring
};

class FatTreePath : public ::testing::TestWithParam<Path> {};

// k = 4: endpoints 0 and 1 share an edge switch, 0 and 2 a pod, 0 and 4 nothing below the
// core. Cut-through switches start forwarding a packet once its header is in, after their
// latency; the last link delivers the whole packet. So N back-to-back packets of wire time T
// take N T (serialised on the first link) + hops x delay + (hops - 1) x (header time +
// latency).
TEST_P(FatTreePath, AMessageTakesItsHopsAtLineRate) {
  const Path& path = GetParam();
  NetworkConfig network;
  network.topology = "fat-tree";
  network.transport = "rdma";
  network.link_model = "ib";
  network.link_rate = ns3::DataRate("200Gbps");
  network.link_delay = ns3::NanoSeconds(500);
  network.rdma.mtu = 4096;
  network.rdma.switch_latency = ns3::NanoSeconds(100);
  network.topology_options["k"] = 4;
  network.placement = {0, path.to};
  const uint32_t packets = 3;

  const double rate = 200e9, delay_ns = 500, latency_ns = 100;
  const double header_bytes = 8 + 12 + 4 + 2;  // LRH, BTH, ICRC, VCRC
  const double wire_ns = (4096 + header_bytes) * 8 / rate * 1e9;
  const double header_ns = header_bytes * 8 / rate * 1e9;
  const double expected = packets * wire_ns + path.hops * delay_ns +
                          (path.hops - 1) * (header_ns + latency_ns);
  // ns-3 events fall on whole nanoseconds: at most one rounded up per link.
  EXPECT_NEAR(double(message_time_ns(network, packets)), expected, path.hops + 1) << path.name;
}

INSTANTIATE_TEST_SUITE_P(Placements, FatTreePath,
                         ::testing::Values(Path{"SameEdge", 1, 2}, Path{"SamePod", 2, 4},
                                           Path{"OtherPod", 4, 6}),
                         [](const ::testing::TestParamInfo<Path>& info) { return info.param.name; });

// The other fabrics, on paths of equal cables: leaf-spine between leaves (endpoint 8 is on the
// second leaf of 8), rail-optimised between GPU 0 of server 0 and GPU 1 of server 1 (rail 0,
// a spine, rail 1). Both cross 4 links.
struct FabricPath {
  const char* name;
  const char* topology;
  uint32_t to;
  double hops;
};

class FabricPathTime : public ::testing::TestWithParam<FabricPath> {};

TEST_P(FabricPathTime, AMessageTakesItsHopsAtLineRate) {
  const FabricPath& path = GetParam();
  NetworkConfig network;
  network.topology = path.topology;
  network.transport = "rdma";
  network.link_model = "ib";
  network.link_rate = ns3::DataRate("400Gbps");
  network.link_delay = ns3::NanoSeconds(300);
  network.rdma.mtu = 2048;
  network.rdma.switch_latency = ns3::NanoSeconds(50);
  network.placement = {0, path.to};
  const uint32_t packets = 4;

  const double rate = 400e9, delay_ns = 300, latency_ns = 50, header_bytes = 26;
  const double wire_ns = (2048 + header_bytes) * 8 / rate * 1e9;
  const double header_ns = header_bytes * 8 / rate * 1e9;
  const double expected = packets * wire_ns + path.hops * delay_ns +
                          (path.hops - 1) * (header_ns + latency_ns);
  EXPECT_NEAR(double(message_time_ns(network, packets)), expected, path.hops + 1) << path.name;
}

INSTANTIATE_TEST_SUITE_P(
    Topologies, FabricPathTime,
    ::testing::Values(FabricPath{"LeafSpineAcrossLeaves", "leaf-spine", 8, 4},
                      FabricPath{"LeafSpineOneLeaf", "leaf-spine", 1, 2},
                      FabricPath{"RailOptimisedAcrossRails", "rail-optimised", 9, 4},
                      FabricPath{"RailOptimisedOneRail", "rail-optimised", 8, 2}),
    [](const ::testing::TestParamInfo<FabricPath>& info) { return info.param.name; });

// The star carries rdma too: two ranks, one InfiniBand-like switch between them, two links.
TEST(FabricPathTime, StarOverRdmaCrossesTwoLinks) {
  NetworkConfig network;
  network.topology = "star";
  network.transport = "rdma";
  network.link_rate = ns3::DataRate("200Gbps");
  network.link_delay = ns3::NanoSeconds(500);
  network.rdma.mtu = 4096;
  network.rdma.switch_latency = ns3::NanoSeconds(120);
  ASSERT_EQ(check_network_combination(network), "");
  const uint32_t packets = 3, hops = 2;

  const double rate = 200e9, delay_ns = 500, latency_ns = 120, header_bytes = 26;
  const double wire_ns = (4096 + header_bytes) * 8 / rate * 1e9;
  const double header_ns = header_bytes * 8 / rate * 1e9;
  const double expected =
      packets * wire_ns + hops * delay_ns + (hops - 1) * (header_ns + latency_ns);
  EXPECT_NEAR(double(message_time_ns(network, packets)), expected, hops + 1);
}

TEST(FabricScenario, ATransportRunsOnlyOverItsLinkModels) {
  NetworkConfig network;
  network.topology = "star";
  network.transport = "rdma";
  network.link_model = "ethernet";
  EXPECT_EQ(check_network_combination(network),
            "transport 'rdma' does not run over link model 'ethernet'");
  network.transport = "tcp";
  network.link_model = "ib";
  EXPECT_EQ(check_network_combination(network),
            "transport 'tcp' does not run over link model 'ib'");
  network.link_model = "";
  EXPECT_EQ(default_link_model(topologies().at("star"), "tcp"), "ethernet");
  EXPECT_EQ(default_link_model(topologies().at("star"), "rdma"), "ib");
}

// Two-tier: GPUs of different servers meet through their servers' NVLink-like switches and a
// second-tier switch; the two NVLink-like cables are faster and shorter than the others, so
// the message takes at least its packets on a tier cable and every cable's delay.
TEST(FabricPathTime, TwoTierCrossesTwoNvlinkAndTwoTierCables) {
  NetworkConfig network;
  network.topology = "two-tier";
  network.transport = "rdma";
  network.link_model = "ib";
  network.link_rate = ns3::DataRate("400Gbps");
  network.link_delay = ns3::NanoSeconds(300);
  network.placement = {0, 8};  // GPU 0 of servers 0 and 1
  const uint32_t packets = 4;
  const double tier_wire_ns = (4096 + 26) * 8 / 400e9 * 1e9;
  const double lower = packets * tier_wire_ns + 2 * 300 + 2 * 10;  // nvlink: 10 ns
  const double measured = double(message_time_ns(network, packets));
  EXPECT_GT(measured, lower);
  EXPECT_LT(measured, lower + 4 * (100 + tier_wire_ns));  // plus per switch at most a packet
}

TEST(FabricLinkFacts, PresetsSeeTheFabricsPacketsAndHops) {
  const CheckedScenario checked =
      check_scenario(load_scenario(scenario_path("fat-tree-rdma.json")));
  const LinkFacts facts = link_facts(checked.network, 4);
  EXPECT_DOUBLE_EQ(facts.rate_bps, 200e9);
  EXPECT_NEAR(facts.delay_s, 100e-9, 1e-18);  // ns-3's Time to seconds rounds
  EXPECT_EQ(facts.mtu, 4096u + 26u);  // a full packet on the wire: payload and IB headers
  EXPECT_EQ(facts.header_bytes, 26u);
  EXPECT_EQ(facts.hops, 6u);  // the four pods meet at the core
  EXPECT_TRUE(facts.cut_through);
  EXPECT_NEAR(facts.switch_s, 100e-9, 1e-18);
}

TEST(FabricScenario, KDefaultsToTheSmallestFatTreeThatHoldsThePlacement) {
  NetworkConfig network;
  network.topology = "fat-tree";
  network.transport = "rdma";
  network.link_model = "ib";
  // 2 endpoints for k = 2, 16 for k = 4, 54 for k = 6.
  EXPECT_EQ(topology_shape(network, 2).endpoints, 2u);
  EXPECT_EQ(topology_shape(network, 3).endpoints, 16u);
  network.placement = {0, 20};
  EXPECT_EQ(topology_shape(network, 2).endpoints, 54u);
}

}  // namespace
}  // namespace uniference::test
