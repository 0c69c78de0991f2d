// Collectives of SimComm: exact results, and ring all-reduce time against the
// alpha-beta formula computed here from the link attributes.
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace uniference::test {
namespace {

// One rank's contribution: small integers, so float sums are exact in any order.
at::Tensor contribution(int64_t elements, int rank) {
  return at::remainder(at::arange(elements, at::kFloat), 1000.0) * float(rank + 1);
}

class RingAllReduce : public ::testing::TestWithParam<int> {};

TEST_P(RingAllReduce, ExactSumAndAlphaBetaTime) {
  const int n = GetParam();
  const int64_t elements = 2 * 1024 * 1024;  // S = 8 MiB of float32
  NetworkConfig net;
  net.link_rate = ns3::DataRate("1Gbps");
  net.link_delay = ns3::MicroSeconds(50);
  std::vector<at::Tensor> results(static_cast<size_t>(n));
  RunRecord record;
  auto outcome = run_star(
      n, net,
      [&](Comm& comm) {
        at::Tensor t = contribution(elements, comm.rank());
        comm.all_reduce(t);
        results[static_cast<size_t>(comm.rank())] = t;
      },
      &record);
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;

  at::Tensor expected = at::remainder(at::arange(elements, at::kFloat), 1000.0) *
                        float(n * (n + 1) / 2);
  for (int r = 0; r < n; ++r) {
    EXPECT_TRUE(at::equal(results[static_cast<size_t>(r)], expected)) << "rank " << r;
  }

  int64_t start = INT64_MAX, end = 0;
  for (const Span& s : record.spans) {
    if (s.name != "all_reduce") continue;
    start = std::min(start, s.start_ns);
    end = std::max(end, s.end_ns);
  }
  double measured = double(end - start) * 1e-9;

  // alpha: one step's latency, two hops through the switch, each a propagation delay
  // plus the store-and-forward of one full frame. beta: TCP payload rate of a link.
  const double rate = double(net.link_rate.GetBitRate());
  const double delay = 50e-6;
  const double mss = 1448, frame = 1448 + 32 + 20 + 2;  // TCP with timestamps, IPv4, PPP
  const double alpha = 2 * (delay + frame * 8 / rate);
  const double payload_rate = rate / 8 * (mss / frame);
  const double bytes = double(elements) * 4;
  const double formula = 2 * (n - 1) * alpha + 2.0 * (n - 1) / n * bytes / payload_rate;
  EXPECT_NEAR(measured, formula, 0.10 * formula)
      << "n=" << n << " measured " << measured << " s, alpha-beta " << formula << " s";
}

INSTANTIATE_TEST_SUITE_P(Ranks, RingAllReduce, ::testing::Values(2, 4, 8));

TEST(Collectives, AllGatherConcatenatesInRankOrder) {
  const int n = 4;
  std::vector<at::Tensor> results(n);
  auto outcome = run_star(n, NetworkConfig{}, [&](Comm& comm) {
    at::Tensor in = at::full({2, 3}, float(comm.rank()));
    at::Tensor out = empty_gather_output(in, comm.size());
    comm.all_gather(out, in);
    results[static_cast<size_t>(comm.rank())] = out;
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  at::Tensor expected = at::repeat_interleave(at::arange(n, at::kFloat), 6).reshape({8, 3});
  for (const auto& r : results) EXPECT_TRUE(at::equal(r, expected));
}

TEST(Collectives, BroadcastCopiesTheRootsTensor) {
  const int n = 4;
  std::vector<at::Tensor> results(n);
  auto outcome = run_star(n, NetworkConfig{}, [&](Comm& comm) {
    at::Tensor t = comm.rank() == 2 ? at::arange(50000, at::kFloat) : at::zeros({50000});
    comm.broadcast(t, /*root=*/2);
    results[static_cast<size_t>(comm.rank())] = t;
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  for (const auto& r : results) EXPECT_TRUE(at::equal(r, at::arange(50000, at::kFloat)));
}

TEST(Collectives, MaxReduction) {
  const int n = 3;
  std::vector<at::Tensor> results(n);
  auto outcome = run_star(n, NetworkConfig{}, [&](Comm& comm) {
    at::Tensor t = at::tensor({float(comm.rank()), float(-comm.rank())});
    comm.all_reduce(t, ReduceOp::kMax);
    results[static_cast<size_t>(comm.rank())] = t;
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  for (const auto& r : results) EXPECT_TRUE(at::equal(r, at::tensor({2.0f, 0.0f})));
}

TEST(Collectives, NobodyLeavesABarrierBeforeTheLastArrives) {
  const int n = 4;
  RunRecord record;
  auto outcome = run_star(
      n, NetworkConfig{},
      [&](Comm& comm) {
        if (comm.rank() == 3) {
          // Arrive late: a point-to-point round trip to rank 0 first takes real time.
          at::Tensor t = at::zeros({1 << 18});
          comm.send(t, 0);
        } else if (comm.rank() == 0) {
          at::Tensor t = at::zeros({1 << 18});
          comm.recv(t, 3);
        }
        comm.barrier();
      },
      &record);
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  int64_t last_arrival = 0, first_exit = INT64_MAX;
  for (const Span& s : record.spans) {
    if (s.name != "barrier") continue;
    last_arrival = std::max(last_arrival, s.start_ns);
    first_exit = std::min(first_exit, s.end_ns);
  }
  EXPECT_GT(last_arrival, 0);
  EXPECT_GE(first_exit, last_arrival);
}

TEST(Collectives, SubGroupsReduceIndependently) {
  const int n = 4;
  std::vector<float> results(n, -1);
  auto outcome = run_star(n, NetworkConfig{}, [&](Comm& comm) {
    auto even = comm.split({0, 2});
    auto odd = comm.split({1, 3});
    Comm* mine = comm.rank() % 2 == 0 ? even.get() : odd.get();
    ASSERT_NE(mine, nullptr);
    EXPECT_EQ(mine->size(), 2);
    EXPECT_EQ(mine->rank(), comm.rank() / 2);
    at::Tensor t = at::full({1000}, float(comm.rank()));
    mine->all_reduce(t);
    results[static_cast<size_t>(comm.rank())] = t[999].item<float>();
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  EXPECT_EQ(results, (std::vector<float>{2, 4, 2, 4}));
}

TEST(Collectives, MismatchedCallsAreAnError) {
  auto outcome = run_star(2, NetworkConfig{}, [&](Comm& comm) {
    at::Tensor t = at::zeros({comm.rank() == 0 ? 10 : 20});
    comm.all_reduce(t);
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kError);
  EXPECT_NE(outcome.report.find("all_reduce"), std::string::npos) << outcome.report;
}

}  // namespace
}  // namespace uniference::test
