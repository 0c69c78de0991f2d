// Ranks sharing a host's cores: the model's times against processor sharing worked by hand,
// and the kernel's LPs sleeping and recording their compute by it.
#include "test_support.h"

#include "bridge/shared_cores.h"
#include "bridge/this_lp.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

namespace uniference::test {
namespace {

constexpr int64_t kMs = 1'000'000;

// Runs the host until it is idle; each burst's end time by rank.
std::map<int, int64_t> ends(SharedCores& host) {
  std::map<int, int64_t> ended;
  for (int64_t next = host.next_finish_ns(); next >= 0; next = host.next_finish_ns()) {
    for (const SharedCores::Burst& burst : host.finish_due(next)) ended[burst.rank] = next;
  }
  return ended;
}

TEST(SharedCores, NoMoreBurstsThanCoresRunAtFullSpeed) {
  SharedCores host(2);
  host.start(0, 10 * kMs, 0);
  host.start(1, 4 * kMs, 0);
  EXPECT_EQ(ends(host), (std::map<int, int64_t>{{0, 10 * kMs}, {1, 4 * kMs}}));
}

TEST(SharedCores, FourBurstsOnTwoCoresTakeTwiceAsLong) {
  SharedCores host(2);
  for (int rank = 0; rank < 4; ++rank) host.start(rank, 10 * kMs, 0);
  EXPECT_EQ(ends(host), (std::map<int, int64_t>{{0, 20 * kMs}, {1, 20 * kMs}, {2, 20 * kMs}, {3, 20 * kMs}}));
}

// One core: rank 0 alone for 5 ms (5 done), then both at half speed. Rank 0's last 5 ms of
// work take 10 ms (ends at 15); rank 1 has done 5 by then and finishes its last 5 alone (20).
TEST(SharedCores, ALaterBurstSlowsTheOneRunningAndSpeedsUpWhenItEnds) {
  SharedCores host(1);
  host.start(0, 10 * kMs, 0);
  EXPECT_EQ(host.next_finish_ns(), 10 * kMs);
  EXPECT_TRUE(host.finish_due(5 * kMs).empty());
  host.start(1, 10 * kMs, 5 * kMs);
  EXPECT_EQ(host.next_finish_ns(), 15 * kMs);
  const std::vector<SharedCores::Burst> first = host.finish_due(15 * kMs);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].rank, 0);
  // Half its work by 5 ms, the rest by 15 ms: 7.5 ms of work was done at 10 ms.
  EXPECT_EQ(first[0].time_at(0), 0);
  EXPECT_EQ(first[0].time_at(5.0 * kMs), 5 * kMs);
  EXPECT_EQ(first[0].time_at(7.5 * kMs), 10 * kMs);
  EXPECT_EQ(ends(host), (std::map<int, int64_t>{{1, 20 * kMs}}));
}

TEST(SharedCores, ACrashStopsABurstAndGivesItsShareBack) {
  SharedCores host(1);
  host.start(0, 10 * kMs, 0);
  host.start(1, 10 * kMs, 0);
  const SharedCores::Burst stopped = host.stop(1, 4 * kMs);
  EXPECT_DOUBLE_EQ(stopped.done_ns, 2.0 * kMs);
  EXPECT_FALSE(host.running(1));
  // Rank 0 has done 2 ms of 10 and has the core alone from 4 ms: ends at 12 ms.
  EXPECT_EQ(ends(host), (std::map<int, int64_t>{{0, 12 * kMs}}));
}

TEST(SharedCores, RefusesAHostWithoutCores) { EXPECT_THROW(SharedCores(0), std::invalid_argument); }

// A 256x256 bf16 matmul on the a100 profile, slowed so that it takes milliseconds: its solo
// time from the profile's memory bandwidth, as Kernel.LongComputeIsChargedInIntegerNanoseconds.
DeviceProfile slow_device() {
  DeviceProfile slow = device_profile("a100", "bf16");
  slow.slowdown = 1e4;
  return slow;
}
double matmul_ns(const DeviceProfile& device) {
  return 3.0 * 256 * 256 * 2 / device.memory_bandwidth * 1e9 * device.slowdown;
}

// One matmul on each rank, started at `start_ns[rank]`, with `hosts` (each a host of `cores`
// cores) sharing theirs: where each rank's clock stands after it.
std::vector<int64_t> compute_ends(const std::vector<int64_t>& start_ns, const std::vector<std::vector<int>>& hosts,
                                  int cores, RunRecord* record = nullptr) {
  const at::Tensor a = at::ones({256, 256});
  std::vector<int64_t> ended(start_ns.size(), -1);
  SimCluster cluster(NetworkConfig{});
  for (size_t r = 0; r < start_ns.size(); ++r) {
    cluster.add_rank(make_modeled_meter(slow_device()), [&, r](Comm&) {
      this_lp::sleep_until(start_ns[r]);
      at::Tensor b = at::mm(a, a);
      ended[r] = this_lp::clock_ns();
    });
  }
  for (const std::vector<int>& host : hosts) cluster.kernel().share_cores(host, cores);
  const RunOutcome outcome = cluster.run();
  EXPECT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  if (record) *record = cluster.record();
  return ended;
}

TEST(SharedCores, FourRanksOnATwoCoreHostComputeAtHalfSpeed) {
  const double solo = matmul_ns(slow_device());
  ASSERT_GT(solo, 1e6);
  RunRecord record;
  const std::vector<int64_t> ended = compute_ends({0, 0, 0, 0}, {{0, 1, 2, 3}}, 2, &record);
  for (int64_t end : ended) EXPECT_NEAR(double(end), 2 * solo, 2.0);
  // Each rank's compute span covers the stretched time, and is charged as compute.
  for (int r = 0; r < 4; ++r) EXPECT_NEAR(double(record.ranks[size_t(r)].compute_ns), 2 * solo, 2.0);
  // On devices of their own, the same ranks take the solo time.
  for (int64_t end : compute_ends({0, 0, 0, 0}, {}, 0)) EXPECT_NEAR(double(end), solo, 1.0);
}

// Two hosts of one core, two ranks each: the hosts do not slow each other, and a rank that
// starts half-way through its neighbour's burst ends as worked by hand above (2 solo; its
// neighbour 1.5).
TEST(SharedCores, RanksOnlySlowTheRanksOfTheirOwnHost) {
  const double solo = matmul_ns(slow_device());
  const int64_t half = int64_t(solo / 2);
  const std::vector<int64_t> ended = compute_ends({0, half, 0, half}, {{0, 1}, {2, 3}}, 1);
  EXPECT_NEAR(double(ended[0]), 1.5 * solo, 2.0);
  EXPECT_NEAR(double(ended[1]), 2 * solo, 2.0);
  EXPECT_EQ(ended[2], ended[0]);
  EXPECT_EQ(ended[3], ended[1]);
}

// Two ranks on one core from t = 0; rank 1 crashes half a solo time in, having had a quarter
// of its work. Rank 0 has had a quarter too and does the rest alone: it ends at 1.25 solo.
TEST(SharedCores, ARankThatCrashesGivesItsShareBack) {
  const double solo = matmul_ns(slow_device());
  const at::Tensor a = at::ones({256, 256});
  std::vector<int64_t> ended(2, -1);
  SimCluster cluster(NetworkConfig{});
  for (size_t r = 0; r < 2; ++r) {
    cluster.add_rank(make_modeled_meter(slow_device()), [&, r](Comm&) {
      at::Tensor b = at::mm(a, a);
      ended[r] = this_lp::clock_ns();
    });
  }
  cluster.kernel().share_cores({0, 1}, 1);
  cluster.kernel().crash_at(1, int64_t(solo / 2));
  const RunOutcome outcome = cluster.run();
  EXPECT_NE(outcome.report.find("every rank that did not crash has finished"), std::string::npos) << outcome.report;
  EXPECT_NEAR(double(ended[0]), 1.25 * solo, 2.0);
  EXPECT_EQ(ended[1], -1);
  // Its compute as recorded stops at the crash.
  EXPECT_NEAR(double(cluster.record().ranks[1].compute_ns), solo / 2, 2.0);
}

TEST(SharedCores, ARankIsOnOneHostAtMost) {
  SimCluster cluster(NetworkConfig{});
  for (int r = 0; r < 2; ++r) cluster.add_rank(make_modeled_meter(slow_device()), [](Comm&) {});
  cluster.kernel().share_cores({0, 1}, 1);
  EXPECT_THROW(cluster.kernel().share_cores({1}, 1), std::invalid_argument);
}

}  // namespace
}  // namespace uniference::test
