// Point-to-point semantics of SimComm over real ns-3 TCP, and deadlock reports.
#include "test_support.h"

#include <gtest/gtest.h>

namespace uniference::test {
namespace {

TEST(PointToPoint, RecvGetsExactlyTheSentTensor) {
  at::Tensor received;
  auto outcome = run_star(2, NetworkConfig{}, [&](Comm& comm) {
    if (comm.rank() == 0) {
      at::Tensor t = at::arange(1000, at::kFloat) * 0.5;
      comm.send(t, 1, /*tag=*/7);
      t.zero_();  // the sender may reuse its buffer once send returns
    } else {
      at::Tensor t = at::empty({1000}, at::kFloat);
      comm.recv(t, 0, 7);
      received = t.clone();
    }
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  EXPECT_TRUE(at::equal(received, at::arange(1000, at::kFloat) * 0.5));
}

TEST(PointToPoint, TagsMatchIndependentlyAndInOrder) {
  std::vector<int64_t> got;
  auto outcome = run_star(2, NetworkConfig{}, [&](Comm& comm) {
    if (comm.rank() == 0) {
      for (int64_t i = 0; i < 3; ++i) comm.send(at::full({4}, i, at::kLong), 1, /*tag=*/1);
      comm.send(at::full({4}, 100, at::kLong), 1, /*tag=*/2);
    } else {
      at::Tensor t = at::empty({4}, at::kLong);
      comm.recv(t, 0, 2);  // the tag-2 message was sent last but is received first
      got.push_back(t[0].item<int64_t>());
      for (int i = 0; i < 3; ++i) {
        comm.recv(t, 0, 1);
        got.push_back(t[0].item<int64_t>());
      }
    }
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  EXPECT_EQ(got, (std::vector<int64_t>{100, 0, 1, 2}));
}

TEST(PointToPoint, AsyncExchangeDoesNotDeadlock) {
  std::vector<float> got(2, -1.0f);
  auto outcome = run_star(2, NetworkConfig{}, [&](Comm& comm) {
    int peer = 1 - comm.rank();
    at::Tensor out = at::full({256 * 1024}, float(comm.rank() + 1));
    at::Tensor in = at::empty({256 * 1024});
    WorkPtr r = comm.irecv(in, peer);
    WorkPtr s = comm.isend(out, peer);
    s->wait();
    r->wait();
    got[static_cast<size_t>(comm.rank())] = in[0].item<float>();
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  EXPECT_EQ(got, (std::vector<float>{2.0f, 1.0f}));
}

TEST(PointToPoint, PollingAReceiveLetsSimulatedTimePass) {
  // A busy-wait on is_completed() must not freeze simulated time: the message arrives
  // and the loop ends, with the data in place.
  int polls = 0;
  float got = -1;
  auto outcome = run_star(2, NetworkConfig{}, [&](Comm& comm) {
    if (comm.rank() == 0) {
      comm.send(at::full({1000}, 3.0f), 1);
    } else {
      at::Tensor t = at::zeros({1000});
      WorkPtr r = comm.irecv(t, 0);
      while (!r->is_completed()) ++polls;
      got = t[0].item<float>();
    }
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  EXPECT_EQ(got, 3.0f);
  EXPECT_GT(polls, 0);
}

TEST(PointToPoint, SizeMismatchIsAnErrorNamingTheRanks) {
  auto outcome = run_star(2, NetworkConfig{}, [&](Comm& comm) {
    if (comm.rank() == 0) {
      comm.send(at::zeros({10}), 1);
    } else {
      at::Tensor t = at::empty({12});
      comm.recv(t, 0);
    }
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kError);
  EXPECT_NE(outcome.report.find("rank 1"), std::string::npos) << outcome.report;
  EXPECT_NE(outcome.report.find("40 bytes"), std::string::npos) << outcome.report;
}

TEST(Deadlock, TwoRanksThatBothReceiveFirstAreReported) {
  auto outcome = run_star(2, NetworkConfig{}, [&](Comm& comm) {
    at::Tensor t = at::zeros({16});
    comm.recv(t, 1 - comm.rank(), /*tag=*/5);
    comm.send(t, 1 - comm.rank(), 5);
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kDeadlock) << outcome.report;
  EXPECT_EQ(outcome.exit_code(), 3);
  EXPECT_NE(outcome.report.find("rank 0: blocked in recv (rank 1) tag 5"), std::string::npos)
      << outcome.report;
  EXPECT_NE(outcome.report.find("rank 1: blocked in recv (rank 0) tag 5"), std::string::npos)
      << outcome.report;
}

TEST(Deadlock, AMissingCollectiveMemberIsReported) {
  auto outcome = run_star(3, NetworkConfig{}, [&](Comm& comm) {
    if (comm.rank() == 2) return;  // never joins
    at::Tensor t = at::ones({1024});
    comm.all_reduce(t);
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kDeadlock) << outcome.report;
  EXPECT_NE(outcome.report.find("rank 0: blocked in all_reduce"), std::string::npos)
      << outcome.report;
  EXPECT_NE(outcome.report.find("rank 1: blocked in all_reduce"), std::string::npos)
      << outcome.report;
}

TEST(Errors, AnExceptionInShardCodeNamesTheRank) {
  auto outcome = run_star(2, NetworkConfig{}, [&](Comm& comm) {
    comm.barrier();
    if (comm.rank() == 1) throw std::runtime_error("boom");
    at::Tensor t = at::zeros({4});
    comm.recv(t, 1);  // never satisfied: the run must end on the error, not hang
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kError);
  EXPECT_NE(outcome.report.find("rank 1"), std::string::npos) << outcome.report;
  EXPECT_NE(outcome.report.find("boom"), std::string::npos) << outcome.report;
}

TEST(TimeContract, ComputeIsChargedBeforeTheSendTakesEffect) {
  // Rank 0 multiplies two matrices made outside the shard, so the only op it is
  // charged for is the matmul: 2*M*N*K flops at the a100 profile's peak.
  const int64_t m = 256, k = 512, n = 128;
  at::Tensor a = at::ones({m, k}), b = at::ones({k, n});
  RunRecord record;
  auto outcome = run_star(
      2, NetworkConfig{},
      [&](Comm& comm) {
        if (comm.rank() == 0) {
          at::Tensor c = at::mm(a, b);
          comm.send(c, 1);
        } else {
          at::Tensor c = at::empty({m, n});
          comm.recv(c, 0);
        }
      },
      &record);
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  DeviceProfile a100 = device_profile("a100");
  double flops = 2.0 * double(m) * double(n) * double(k);
  double bytes = 4.0 * double(m * k + k * n + m * n);
  double expected = std::max(flops / (a100.peak_flops * a100.efficiency),
                             bytes / a100.memory_bandwidth) * 1e9;
  const Span* send = nullptr;
  for (const Span& s : record.spans)
    if (s.rank == 0 && s.name == "send") send = &s;
  ASSERT_NE(send, nullptr);
  EXPECT_NEAR(double(send->start_ns), expected, 1.0);
  EXPECT_EQ(record.ranks[0].compute_ns, send->start_ns);
}

}  // namespace
}  // namespace uniference::test
