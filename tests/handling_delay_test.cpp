// The endpoints' message handling delay: measured delays drawn as often as they were
// measured, and a rank's receive completing that much after its message arrived.
#include "test_support.h"

#include "bridge/handling_delay.h"
#include "bridge/this_lp.h"

#include <ns3/rng-seed-manager.h>

#include <gtest/gtest.h>

#include <map>

namespace uniference::test {
namespace {

TEST(HandlingDelay, MeasuredDelaysAreDrawnAsOftenAsMeasured) {
  // 2 us was measured twice as often as the others: over 4000 draws each share is checked
  // within 0.025, about three standard errors (at most 0.0079).
  ns3::RngSeedManager::SetRun(3);
  ns3::Ptr<ns3::RandomVariableStream> delays = measured_delays({2'000, 600'000, 1'000, 2'000});
  ASSERT_TRUE(delays);
  constexpr int kCount = 4000;
  std::map<int64_t, int> drawn;
  for (int k = 0; k < kCount; ++k) ++drawn[std::llround(delays->GetValue() * 1e9)];
  ASSERT_EQ(drawn.size(), 3u) << "a delay that was not measured";
  EXPECT_NEAR(double(drawn[1'000]) / kCount, 0.25, 0.025);
  EXPECT_NEAR(double(drawn[2'000]) / kCount, 0.50, 0.025);
  EXPECT_NEAR(double(drawn[600'000]) / kCount, 0.25, 0.025);
  EXPECT_FALSE(measured_delays({}));
}

// Rank 1's clock after each of 20 receives of a message rank 0 sends at exactly k ms.
std::vector<int64_t> receive_times(const NetworkConfig& network) {
  std::vector<int64_t> received;
  SimCluster cluster(network);
  cluster.add_rank(modeled_meter(), [&](Comm& comm) {
    at::Tensor t = at::zeros({4});
    std::vector<WorkPtr> sends;
    for (int k = 1; k <= 20; ++k) {
      this_lp::sleep_until(k * 1'000'000);
      sends.push_back(comm.isend(t, 1));
    }
    for (WorkPtr& send : sends) send->wait();
  });
  cluster.add_rank(modeled_meter(), [&](Comm& comm) {
    at::Tensor t = at::empty({4});
    for (int k = 1; k <= 20; ++k) {
      comm.recv(t, 0);
      received.push_back(this_lp::now_ns());
    }
  });
  RunOutcome outcome = cluster.run();
  EXPECT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  return received;
}

TEST(HandlingDelay, AReceiveCompletesThatMuchAfterItsMessageArrived) {
  // One measured delay, under the 1 ms between messages: every message finds rank 1's
  // endpoint idle and waits exactly that long (the rank itself resumes at once: no wake-up
  // latency).
  NetworkConfig delayed;
  delayed.handling_samples_ns = {250'000};
  const std::vector<int64_t> arrived = receive_times(NetworkConfig{});
  const std::vector<int64_t> handed = receive_times(delayed);
  ASSERT_EQ(arrived.size(), 20u);
  ASSERT_EQ(handed.size(), 20u);
  for (size_t k = 0; k < arrived.size(); ++k) {
    EXPECT_EQ(handed[k] - arrived[k], 250'000) << "message " << k;
  }
}

}  // namespace
}  // namespace uniference::test
