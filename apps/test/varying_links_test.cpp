// A time-varying link's delay and rates as a run records them for the trace and the report
// (bridge/varying_links.h), against the replayed trace the test writes: at every sampled
// instant, the row in force then (its delay, its rate in both directions).
#include "apps/scenario_check.h"
#include "apps/test/shipped_scenario.h"
#include "apps/test/test_dir.h"
#include "bridge/network_registry.h"
#include "bridge/varying_links.h"

#include <gtest/gtest.h>
#include <ns3/simulator.h>

#include <fstream>

namespace uniference {
namespace {

TEST(VaryingLinks, SamplesAreTheReplayedRowsInForceAtEachInstant) {
  TestDir dir;
  std::ofstream(dir / "link.csv") << "time_s,delay_ms,rate_mbps\n"
                                     "0,10,50\n"
                                     "0.025,30,20\n"
                                     "0.061,15,80\n";
  nlohmann::json document = test::shipped("edge-cloud-leo.json");
  // The own rate is what an outage row (rate 0) would leave; every row here has its own.
  document["network"]["wan"] = {{"model", "trace"}, {"trace", "link.csv"}, {"rate", "1Gbps"}};
  const Scenario scenario = parse_scenario(document, dir / "trace.json");
  topologies().at("edge-cloud").build(check_scenario(scenario).network, 2);

  // 0, 10, ..., 100 ms.
  const std::vector<LinkConditionSamples> links = link_conditions(100'000'000, 10);
  ns3::Simulator::Destroy();
  ASSERT_EQ(links.size(), 1u);
  const LinkConditionSamples& wan = links[0];
  EXPECT_EQ(wan.link, "edge <-> cloud");
  EXPECT_EQ(wan.directions[0], "edge -> cloud");
  EXPECT_EQ(wan.directions[1], "cloud -> edge");
  ASSERT_EQ(wan.times_ns.size(), 11u);
  const int64_t delay_ms[] = {10, 30, 15};
  const uint64_t rate_mbps[] = {50, 20, 80};
  for (size_t i = 0; i < 11; ++i) {
    const int64_t t_ms = int64_t(i) * 10;
    EXPECT_EQ(wan.times_ns[i], t_ms * 1'000'000);
    const int row = t_ms < 25 ? 0 : t_ms < 61 ? 1 : 2;
    EXPECT_EQ(wan.delay_ns[i], delay_ms[row] * 1'000'000) << t_ms << " ms";
    for (int direction = 0; direction < 2; ++direction) {
      EXPECT_EQ(wan.rate_bps[direction][i], rate_mbps[row] * 1'000'000) << t_ms << " ms";
    }
  }
}

}  // namespace
}  // namespace uniference
