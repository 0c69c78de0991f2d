// Collective semantics the shard code relies on, each against a value the test computes:
// every reduce op, collectives inside sub-groups and nested splits, async collectives that
// overlap compute, and the bytes each rank hands to the network.
#include "test_support.h"

#include <gtest/gtest.h>

namespace uniference::test {
namespace {

TEST(CollectiveSemantics, EveryReduceOpAgainstItsDefinition) {
  const int n = 4;
  // Rank r holds (r + 1) * [1, -1, 2]: sum, max and min are known in closed form.
  const at::Tensor base = at::tensor({1.0f, -1.0f, 2.0f});
  const std::vector<std::pair<ReduceOp, at::Tensor>> cases = {
      {ReduceOp::kSum, base * 10.0f},  // 1 + 2 + 3 + 4
      {ReduceOp::kMax, at::tensor({4.0f, -1.0f, 8.0f})},
      {ReduceOp::kMin, at::tensor({1.0f, -4.0f, 2.0f})}};
  for (const auto& [op, expected] : cases) {
    std::vector<at::Tensor> results(n);
    auto outcome = run_star(n, NetworkConfig{}, [&, op = op](Comm& comm) {
      at::Tensor t = base * float(comm.rank() + 1);
      comm.all_reduce(t, op);
      results[size_t(comm.rank())] = t;
    });
    ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
    for (const auto& r : results) EXPECT_TRUE(at::equal(r, expected)) << r;
  }
}

TEST(CollectiveSemantics, BroadcastAllGatherAndBarrierInsideNestedSplits) {
  const int n = 6;
  std::vector<at::Tensor> broadcast(n), gathered(n);
  auto outcome = run_star(n, NetworkConfig{}, [&](Comm& world) {
    // {1,3,5} of the world, then {3,5} of that group: world ranks 3 and 5.
    auto odd = world.split({1, 3, 5});
    auto even = world.split({0, 2, 4});
    Comm& group = odd ? *odd : *even;
    auto inner = group.split({1, 2});
    group.barrier();
    at::Tensor t = group.rank() == 2 ? at::full({5}, float(world.rank())) : at::zeros({5});
    group.broadcast(t, /*root=*/2);
    broadcast[size_t(world.rank())] = t;
    if (inner) {
      at::Tensor in = at::full({2}, float(world.rank()));
      at::Tensor out = empty_gather_output(in, inner->size());
      inner->all_gather(out, in);
      inner->barrier();
      gathered[size_t(world.rank())] = out;
    }
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  for (int r = 0; r < n; ++r) {
    const float root = r % 2 == 1 ? 5.0f : 4.0f;  // group rank 2 of {1,3,5} / {0,2,4}
    EXPECT_TRUE(at::equal(broadcast[size_t(r)], at::full({5}, root))) << "rank " << r;
  }
  EXPECT_TRUE(at::equal(gathered[3], at::tensor({3.0f, 3.0f, 5.0f, 5.0f})));
  EXPECT_TRUE(at::equal(gathered[4], at::tensor({2.0f, 2.0f, 4.0f, 4.0f})));
  EXPECT_FALSE(gathered[1].defined());
}

TEST(CollectiveSemantics, AsyncAllReduceOverlapsCompute) {
  // A 4 MiB all-reduce on 1 Gbit/s links takes tens of milliseconds. A 256x256 matmul on an
  // a100 in bf16 slowed down 2e4 times is memory-bound: 3 x 128 KiB at 2 TB/s x 2e4, 3.9 ms.
  // Issued between iall_reduce and wait() it hides entirely behind the transfer; after a
  // blocking all_reduce it adds its whole time. So the two runs differ by exactly it.
  DeviceProfile slow = device_profile("a100", "bf16");
  slow.slowdown = 2e4;
  const double matmul_ns = 3.0 * 256 * 256 * 2 / slow.memory_bandwidth * 1e9 * slow.slowdown;
  RunRecord overlapped, serial;
  for (bool overlap : {true, false}) {
    SimCluster cluster(NetworkConfig{});
    for (int r = 0; r < 2; ++r) {
      cluster.add_rank(make_modeled_meter(slow), [overlap](Comm& comm) {
        at::Tensor x = at::ones({1 << 20});
        at::Tensor a = at::ones({256, 256});
        if (overlap) {
          WorkPtr work = comm.iall_reduce(x);
          at::Tensor b = at::mm(a, a);
          work->wait();
        } else {
          comm.all_reduce(x);
          at::Tensor b = at::mm(a, a);
        }
        EXPECT_EQ(x[0].item<float>(), 2.0f);
      });
    }
    ASSERT_EQ(cluster.run().status, RunOutcome::Status::kCompleted);
    (overlap ? overlapped : serial) = cluster.record();
  }
  EXPECT_EQ(serial.ranks[0].compute_ns, overlapped.ranks[0].compute_ns);
  const double all_reduce_ns = double(serial.ranks[0].comm_wait_ns);
  ASSERT_GT(all_reduce_ns, 2 * matmul_ns) << "the transfer must be long enough to hide the matmul";
  EXPECT_NEAR(double(serial.ranks[0].finish_ns - overlapped.ranks[0].finish_ns), matmul_ns, 10.0);
}

TEST(CollectiveSemantics, BytesSentPerRankFollowTheRing) {
  // Ring all-reduce of S bytes on n ranks: each rank sends 2 (n - 1) chunks of S / n.
  const int n = 4;
  const int64_t elements = 1 << 16;
  RunRecord record;
  auto outcome = run_star(
      n, NetworkConfig{},
      [&](Comm& comm) {
        at::Tensor x = at::ones({elements});
        comm.all_reduce(x);
        if (comm.rank() == 0) {
          at::Tensor y = at::ones({1000});
          comm.send(y, 1);
        } else if (comm.rank() == 1) {
          at::Tensor y = at::empty({1000});
          comm.recv(y, 0);
        }
      },
      &record);
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  const uint64_t ring = 2 * (n - 1) * (uint64_t(elements) * 4 / n);
  EXPECT_EQ(record.ranks[0].bytes_sent, ring + 4000);
  for (int r = 1; r < n; ++r) EXPECT_EQ(record.ranks[size_t(r)].bytes_sent, ring) << r;
}

}  // namespace
}  // namespace uniference::test
