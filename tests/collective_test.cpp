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
  net.topology = "star-routed";  // the formula below frames in PPP and stores at the hub
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

TEST(Collectives, AllGatherOutputsAreBlocksAlongDimZero) {
  // c10d's all_gather_into_tensor shape, which Gloo enforces: [2, 1, 2] holds the right
  // number of elements for two [1, 2] inputs but is not two blocks along dim 0.
  auto outcome = run_star(2, NetworkConfig{}, [&](Comm& comm) {
    const at::Tensor input = at::ones({1, 2});
    at::Tensor good = at::empty({2, 2});
    comm.all_gather(good, input);
    at::Tensor stacked = at::empty({2, 1, 2});
    comm.all_gather(stacked, input);
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kError);
  EXPECT_NE(outcome.report.find("expected [2, 2]"), std::string::npos) << outcome.report;
}

}  // namespace
}  // namespace uniference::test

namespace uniference::test {
namespace {

// The span of a run's last all_reduce call, first start to last end, in seconds. With
// `warm`, a first call of the same size opens the connections and grows their windows.
double all_reduce_seconds(int n, const NetworkConfig& net, int64_t elements, bool warm = false) {
  RunRecord record;
  auto outcome = run_star(
      n, net,
      [&](Comm& comm) {
        // Data-free: the bytes move through ns-3, nothing is allocated.
        at::Tensor t = at::empty({elements}, at::TensorOptions().device(at::kMeta));
        if (warm) {
          comm.all_reduce(t);
          comm.barrier();
        }
        comm.all_reduce(t);
      },
      &record);
  EXPECT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  int64_t start = INT64_MAX, end = 0, last_start = 0;
  for (const Span& s : record.spans) {
    if (s.name == "all_reduce") last_start = std::max(last_start, s.start_ns);
  }
  for (const Span& s : record.spans) {
    // The last call's spans all start after every rank left the barrier before it.
    if (s.name != "all_reduce" || (warm && s.end_ns < last_start)) continue;
    start = std::min(start, s.start_ns);
    end = std::max(end, s.end_ns);
  }
  return double(end - start) * 1e-9;
}

// The alpha-beta model of a ring all-reduce on the star, from the link physics: 2 (n - 1)
// steps; a step's chunk c crosses two links through the hub: two propagation delays, the
// hub's store-and-forward of its last frame, and c at the TCP payload rate of a link, whose
// direction also carries the delayed ACKs (one per two segments) of the flow coming back.
struct RingModel {
  double latency;    // 2 (n - 1) (2 delay + store-and-forward of the last frame)
  double bandwidth;  // 2 (n - 1) / n S / payload rate
};
RingModel ring_model(int n, double bytes, double rate, double delay) {
  const double mss = 1448, overhead = 20 + 32 + 2;  // IPv4, TCP with timestamps, PPP
  const double header = 24;                         // our message header
  const double chunk = bytes / n;
  const double last_frame = std::min(chunk + header, mss) + overhead;
  const double payload_rate = rate / 8 * mss / (mss + overhead + overhead / 2);
  return RingModel{2 * (n - 1) * (2 * delay + last_frame * 8 / rate),
                   2.0 * (n - 1) / n * bytes / payload_rate};
}

TEST(RingAlphaBeta, BandwidthTermAt64MiBWithinOnePercent) {
  const int n = 4;
  NetworkConfig net;
  net.topology = "star-routed";  // the formula below frames in PPP and stores at the hub
  net.link_rate = ns3::DataRate("1Gbps");
  net.link_delay = ns3::MicroSeconds(50);
  const int64_t elements = 16 << 20;  // 64 MiB of float32
  const double measured = all_reduce_seconds(n, net, elements);
  const RingModel model = ring_model(n, double(elements) * 4, 1e9, 50e-6);
  const double bandwidth = measured - model.latency;
  EXPECT_NEAR(bandwidth, model.bandwidth, 0.01 * model.bandwidth)
      << "measured " << measured << " s, latency term " << model.latency << " s";
}

class RingLatencyTerm : public ::testing::TestWithParam<int64_t> {};

TEST_P(RingLatencyTerm, WithinTenPercentOfAlpha) {
  const int n = 4;
  NetworkConfig net;
  net.topology = "star-routed";  // the formula below frames in PPP and stores at the hub
  net.link_rate = ns3::DataRate("1Gbps");
  net.link_delay = ns3::MicroSeconds(50);
  const int64_t bytes = GetParam();
  const double measured = all_reduce_seconds(n, net, bytes / 4, /*warm=*/true);
  const RingModel model = ring_model(n, double(bytes), 1e9, 50e-6);
  EXPECT_NEAR(measured - model.bandwidth, model.latency, 0.10 * model.latency)
      << "S = " << bytes << ": measured " << measured << " s, bandwidth term " << model.bandwidth;
}

INSTANTIATE_TEST_SUITE_P(Sizes, RingLatencyTerm, ::testing::Values(4 << 10, 16 << 10, 64 << 10));

// On one topology, a tree's log2 n steps win for small buffers and a ring's bandwidth for
// large ones.
TEST(RingAgainstTree, TreeWinsSmallRingWinsLarge) {
  const int n = 8;
  auto seconds = [&](const std::string& algorithm, int64_t elements) {
    NetworkConfig net;
    net.collectives[OpType::kAllReduce] = CollectiveChoice{algorithm, {}};
    return all_reduce_seconds(n, net, elements, /*warm=*/true);
  };
  const double ring_small = seconds("ring", 1024), tree_small = seconds("tree", 1024);
  const double ring_large = seconds("ring", 1 << 20), tree_large = seconds("tree", 1 << 20);
  EXPECT_LT(tree_small, ring_small) << "4 KiB";
  EXPECT_LT(ring_large, tree_large) << "4 MiB";
  std::printf("8 ranks: 4 KiB ring %.0f us, tree %.0f us; 4 MiB ring %.1f ms, tree %.1f ms\n",
              ring_small * 1e6, tree_small * 1e6, ring_large * 1e3, tree_large * 1e3);
}

}  // namespace
}  // namespace uniference::test
