#include "apps/colltest_sweep.h"

#include <ns3/scheduled-collective.h>

#include <gtest/gtest.h>

namespace uniference {
namespace {

// The deploy binary cannot ask the ns-3 module, so the sweep has its own copy of nccl-tests'
// factors; the two must never drift apart.
TEST(ColltestSweep, BusBandwidthFactorsAreTheNs3Modules) {
  for (const std::string& op : colltest_ops()) {
    for (int n : {2, 3, 8}) {
      EXPECT_DOUBLE_EQ(bus_bandwidth_factor(op, n),
                       ns3::ScheduledCollective::GetBusBandwidthFactor(op, uint32_t(n)))
          << op << " on " << n;
    }
  }
}

// Likewise every collective operation's description (gather_v too, which colltest does not
// sweep) against the operation table of the ns-3 module.
TEST(ColltestSweep, EveryOperationsFactorIsTheNs3Modules) {
  for (const CollectiveDescription& op : collective_descriptions()) {
    if (!op.collective) continue;
    for (int n : {2, 3, 8}) {
      EXPECT_DOUBLE_EQ(bus_bandwidth_factor(op.bus_bandwidth, n),
                       ns3::ScheduledCollective::GetBusBandwidthFactor(op.name, uint32_t(n)))
          << op.name << " on " << n;
    }
  }
}

TEST(ColltestSweep, SizesSplitEvenlyIntoWholeElementsPerRank) {
  ColltestOptions options;
  options.op = "all_gather";
  options.min_bytes = 1000;
  options.max_bytes = 4000;
  // 3 ranks x 4-byte elements: multiples of 12 bytes.
  EXPECT_EQ(sweep_sizes(options, 3), (std::vector<uint64_t>{996, 1992, 3996}));
  options.op = "all_reduce";
  EXPECT_EQ(sweep_sizes(options, 3), (std::vector<uint64_t>{1000, 2000, 4000}));
}

TEST(ColltestSweep, AnIterationTakesItsSlowestRankAndASizeTheMeanOfItsTimedIterations) {
  ColltestOptions options;
  options.op = "all_reduce";
  options.warmup = 1;
  options.iters = 2;
  // elapsed[rank][size][iteration], ns; the warm-up (iteration 0) is left out.
  const std::vector<std::vector<std::vector<int64_t>>> elapsed = {{{900, 100, 400}},
                                                                  {{5, 300, 200}}};
  const std::vector<ColltestRow> rows =
      sweep_rows(options, 2, {1000}, elapsed, [](uint64_t) { return std::string("ring"); });
  ASSERT_EQ(rows.size(), 1u);
  const double seconds = (300 + 400) / 2.0 * 1e-9;
  EXPECT_DOUBLE_EQ(rows[0].time_s, seconds);
  EXPECT_DOUBLE_EQ(rows[0].algbw_gbps, 1000 / seconds / 1e9);
  EXPECT_DOUBLE_EQ(rows[0].busbw_gbps, rows[0].algbw_gbps * 2 * (2 - 1) / 2.0);
  EXPECT_EQ(rows[0].count, 250u);
  EXPECT_EQ(rows[0].algorithm, "ring");
}

}  // namespace
}  // namespace uniference
