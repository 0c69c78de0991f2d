// The kernel's promises to shard code: libtorch's thread-local state and the default
// random stream belong to each LP, whatever the others do between its switches.
#include "test_support.h"

#include <ATen/core/grad_mode.h>
#include <gtest/gtest.h>

namespace uniference::test {
namespace {

TEST(Kernel, GradModeDoesNotLeakBetweenLps) {
  std::vector<int> grad_enabled(4, -1);
  auto outcome = run_star(2, NetworkConfig{}, [&](Comm& comm) {
    if (comm.rank() == 0) {
      at::NoGradGuard no_grad;
      comm.barrier();  // rank 1 runs while rank 0 is parked holding the guard
      grad_enabled[0] = at::GradMode::is_enabled();
      comm.barrier();
    } else {
      comm.barrier();
      grad_enabled[1] = at::GradMode::is_enabled();
      comm.barrier();
    }
    grad_enabled[static_cast<size_t>(2 + comm.rank())] = at::GradMode::is_enabled();
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  EXPECT_EQ(grad_enabled, (std::vector<int>{0, 1, 1, 1}));
}

// Rank 0's draws from the default generator, when rank 1 first draws `extra` numbers.
std::vector<at::Tensor> draws_with_neighbour_drawing(int64_t extra) {
  std::vector<at::Tensor> draws(2);
  auto outcome = run_star(2, NetworkConfig{}, [&](Comm& comm) {
    if (comm.rank() == 1 && extra > 0) at::randn({extra});
    comm.barrier();
    draws[static_cast<size_t>(comm.rank())] = at::randn({8});
    comm.barrier();
  });
  EXPECT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  return draws;
}

TEST(Kernel, EachLpOwnsItsRandomStream) {
  auto quiet = draws_with_neighbour_drawing(0);
  auto busy = draws_with_neighbour_drawing(1000);
  EXPECT_TRUE(at::equal(quiet[0], busy[0])) << "rank 0's stream depends on rank 1's draws";
  EXPECT_FALSE(at::equal(quiet[0], quiet[1])) << "two ranks share one stream";
  at::Tensor outside = at::randn({8});
  EXPECT_FALSE(at::equal(outside, quiet[0])) << "an LP drew from the program's stream";
}

TEST(Kernel, LongComputeIsChargedInIntegerNanoseconds) {
  // A 256x256 matmul on the a100 profile in bf16 is memory-bound: 3 x 128 KiB at 2 TB/s,
  // about 197 ns; slowed down 1e7 times it keeps rank 1 waiting for seconds of simulated time.
  DeviceProfile slow = device_profile("a100", "bf16");
  slow.slowdown = 1e7;
  at::Tensor a = at::ones({256, 256});
  SimCluster cluster(NetworkConfig{});
  cluster.add_rank(make_modeled_meter(slow), [&](Comm& comm) {
    at::Tensor b = at::mm(a, a);
    comm.send(b, 1);
  });
  cluster.add_rank(make_modeled_meter(slow), [&](Comm& comm) {
    at::Tensor b = at::empty({256, 256});
    comm.recv(b, 0);
  });
  RunOutcome outcome = cluster.run();
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  double bytes = 3.0 * 256 * 256 * 2;
  double expected_ns = bytes / slow.memory_bandwidth * 1e9 * slow.slowdown;
  EXPECT_NEAR(double(cluster.record().ranks[0].compute_ns), expected_ns, 1e-6 * expected_ns);
  EXPECT_GT(cluster.record().ranks[1].comm_wait_ns, int64_t(1'500'000'000));
}

}  // namespace
}  // namespace uniference::test
