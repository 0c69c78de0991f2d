// The kernel's promises to shard code: libtorch's thread-local state and the default
// random stream belong to each LP, whatever the others do between its switches.
#include "test_support.h"

#include "bridge/this_lp.h"

#include <ATen/core/grad_mode.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>

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

// Rank 1's clock after each of `count` receives of a message that rank 0 sends at exactly
// k ms (it sleeps to each send's time and waits for its sends only at the end, so its own
// wake-ups cannot move them), with the wake-up latency of `kernel`.
std::vector<int64_t> resume_times(KernelConfig kernel, int count, int64_t late_ns = 0) {
  constexpr int64_t kSpacing = 1'000'000;
  std::vector<int64_t> resumed;
  kernel.seed = 7;
  SimCluster cluster(NetworkConfig{}, kernel);
  cluster.add_rank(modeled_meter(), [&](Comm& comm) {
    at::Tensor t = at::zeros({4});
    std::vector<WorkPtr> sends;
    for (int k = 1; k <= count; ++k) {
      this_lp::sleep_until(k * kSpacing);
      sends.push_back(comm.isend(t, 1));
    }
    for (WorkPtr& send : sends) send->wait();
  });
  cluster.add_rank(modeled_meter(), [&](Comm& comm) {
    at::Tensor t = at::empty({4});
    for (int k = 1; k <= count; ++k) {
      if (late_ns > 0) this_lp::sleep_until(k * kSpacing + late_ns);
      comm.recv(t, 0);
      resumed.push_back(this_lp::now_ns());
    }
  });
  RunOutcome outcome = cluster.run();
  EXPECT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  return resumed;
}

// The same with the host's mean wake-up latency `wake_ns`.
std::vector<int64_t> resume_times(int64_t wake_ns, int count, int64_t late_ns = 0) {
  KernelConfig kernel;
  kernel.wake_mean_ns = wake_ns;
  return resume_times(kernel, count, late_ns);
}

TEST(Kernel, WakeUpLatencyIsExponentialWithItsMean) {
  // Against the same run without it, each receive resumes later by one draw; the draws'
  // mean and the share above the mean (e^-1 for an exponential) are checked at about three
  // standard errors over 4000 draws.
  constexpr int kCount = 4000;
  constexpr double kMean = 50'000;
  const std::vector<int64_t> at_once = resume_times(0, kCount);
  const std::vector<int64_t> woken = resume_times(int64_t(kMean), kCount);
  ASSERT_EQ(woken.size(), size_t(kCount));
  double sum = 0;
  int above = 0;
  for (int k = 0; k < kCount; ++k) {
    const double wake = double(woken[size_t(k)] - at_once[size_t(k)]);
    ASSERT_GE(wake, 0) << "receive " << k << " resumed before its message arrived";
    sum += wake;
    above += wake > kMean;
  }
  EXPECT_NEAR(sum / kCount, kMean, 0.05 * kMean);
  EXPECT_NEAR(double(above) / kCount, std::exp(-1.0), 0.025);
  EXPECT_EQ(resume_times(int64_t(kMean), kCount), woken) << "the same seed drew other latencies";
}

TEST(Kernel, MeasuredWakeUpLatenciesAreDrawnEquallyOften) {
  // With measured samples (a heavy tail: one is 200 times the smallest, yet under the 1 ms
  // between messages, so every receive waits) and a mean that must then be ignored, each
  // receive resumes later by exactly one sample, and each sample is drawn a third of the
  // time, checked within 0.025: about three standard errors (0.0075) over 4000 draws.
  constexpr int kCount = 4000;
  const std::vector<int64_t> samples = {3'000, 5'000, 600'000};
  KernelConfig measured;
  measured.wake_mean_ns = 10'000'000;
  measured.wake_samples_ns = samples;
  const std::vector<int64_t> at_once = resume_times(0, kCount);
  const std::vector<int64_t> woken = resume_times(measured, kCount);
  ASSERT_EQ(woken.size(), size_t(kCount));
  std::map<int64_t, int> drawn;
  for (int k = 0; k < kCount; ++k) ++drawn[woken[size_t(k)] - at_once[size_t(k)]];
  ASSERT_EQ(drawn.size(), samples.size()) << "a wake-up latency that is not one of the samples";
  for (int64_t sample : samples) {
    EXPECT_NEAR(double(drawn[sample]) / kCount, 1.0 / 3, 0.025) << "sample " << sample << " ns";
  }
  EXPECT_EQ(resume_times(measured, kCount), woken) << "the same seed drew other latencies";
}

TEST(Kernel, NoWakeUpLatencyWhenTheMessageWasThereFirst) {
  // Rank 1 asks 0.5 ms after each message arrived: its receives complete without waiting, so
  // they cost no wake-up, however large the mean.
  const std::vector<int64_t> resumed = resume_times(10'000'000, 50, 500'000);
  ASSERT_EQ(resumed.size(), 50u);
  for (size_t k = 0; k < resumed.size(); ++k) {
    EXPECT_EQ(resumed[k], int64_t(k + 1) * 1'000'000 + 500'000) << "receive " << k;
  }
}

}  // namespace
}  // namespace uniference::test
