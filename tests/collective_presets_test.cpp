// The presets choose what the libraries run, as their sources say (docs/collectives-backends.md),
// and `auto` chooses what its model predicts fastest, which the simulation confirms.
#include "bridge/collective_presets.h"
#include "bridge/this_lp.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace uniference::test {
namespace {

std::string attribute(const CollectiveChoice& choice, const std::string& name) {
  for (const auto& [key, value] : choice.attributes) {
    if (key == name) return value;
  }
  return "";
}

CollectiveChoice preset_choice(const std::string& preset, OpType op, uint64_t bytes, int n) {
  CollectiveSelection selection{{}, preset, LinkFacts{}};
  return selection.choose(op, bytes, n);
}

TEST(CollectivePresets, GlooRunsItsOwnSchedulesWithItsRendezvous) {
  const std::pair<OpType, const char*> expected[] = {
      {OpType::kAllReduce, "gloo"},   {OpType::kAllGather, "gloo"},
      {OpType::kBroadcast, "gloo"},   {OpType::kAllToAll, "gloo"},
      {OpType::kGather, "direct"},    {OpType::kScatter, "direct"},
      {OpType::kBarrier, "dissemination"}};
  for (const auto& [op, algorithm] : expected) {
    for (uint64_t bytes : {uint64_t(4096), uint64_t(64) << 20}) {
      const CollectiveChoice choice = preset_choice("gloo", op, bytes, 4);
      EXPECT_EQ(choice.algorithm, algorithm) << op_name(op);
      // Gloo's TCP pair: a 48-byte preamble and a 48-byte send-ready notice with every
      // message, and a 48-byte recv-ready notice that the data waits for.
      EXPECT_EQ(attribute(choice, "MessageOverhead"), "96") << op_name(op);
      EXPECT_EQ(attribute(choice, "ReadyBytes"), "48") << op_name(op);
    }
  }
}

TEST(CollectivePresets, NcclPicksTreeForSmallAndRingForLargeAllReduce) {
  // NCCL's model at 1 Gbit/s, 16 ranks: ring 8.4 + 28 x 15 us of latency against the tree's
  // 8.4 + 28 x 4; the tree's half bandwidth loses above a few MiB.
  EXPECT_EQ(preset_choice("nccl", OpType::kAllReduce, 4096, 16).algorithm, "tree");
  EXPECT_EQ(preset_choice("nccl", OpType::kAllReduce, uint64_t(64) << 20, 16).algorithm, "ring");
  // Channels: one below 64 KiB (512 threads x 64 bytes x 2 channels), two above.
  EXPECT_EQ(attribute(preset_choice("nccl", OpType::kAllGather, 16 << 10, 4), "Channels"), "1");
  EXPECT_EQ(attribute(preset_choice("nccl", OpType::kAllGather, 1 << 20, 4), "Channels"), "2");
  EXPECT_EQ(preset_choice("nccl", OpType::kBroadcast, 1 << 20, 4).algorithm, "ring");
}

TEST(CollectivePresets, NcclPicksLlForTinyMessagesBySameModel) {
  // NCCL's model on 4 ranks, one per node, at 1 Gbit/s (0.125 GB/s), in us (bytes / (1000 bw)):
  // a 4 KiB all-reduce by ring LL 6.6 + 10 x 3 + 4096 / (1000 x 0.0625 x 4 / 6) = 134.9, by tree
  // Simple 8.4 + 28 x 2 + 4096 / (1000 x 0.115 x 0.9 x 0.5) = 143.5, by ring Simple
  // (8.4 + 28 x 3) x 1.4 + 4096 / (1000 x 0.125 x 4 / 6) = 178.6, by tree LL 26.8 + 356: ring LL.
  const LinkFacts gigabit{};
  CollectiveSelection nccl{{}, "nccl", gigabit};
  const CollectiveChoice tiny = nccl.choose(OpType::kAllReduce, 4096, 4);
  EXPECT_EQ(tiny.algorithm, "ring");
  EXPECT_EQ(attribute(tiny, "DataWireFactor"), "2");  // LL: a flag beside every 8 data bytes
  EXPECT_EQ(attribute(tiny, "ChunkBytes"), std::to_string(32 << 10));
  // 1 MiB: ring Simple 129.4 + 12583 us against ring LL 36.6 + 25166 and tree Simple 36.5 ms.
  const CollectiveChoice large = nccl.choose(OpType::kAllReduce, 1 << 20, 4);
  EXPECT_EQ(large.algorithm, "ring");
  EXPECT_EQ(attribute(large, "DataWireFactor"), "");
  // All-gather: ring LL 6.6 + 5 x 3 + S / 83.3 against Simple 8.4 + 14 x 3 + S / 166.7 cross at
  // S = 4.8 kB.
  EXPECT_EQ(attribute(nccl.choose(OpType::kAllGather, 4096, 4), "DataWireFactor"), "2");
  EXPECT_EQ(attribute(nccl.choose(OpType::kAllGather, 8192, 4), "DataWireFactor"), "");
}

// From the first rank's entry to the last's exit: one 1 MiB ring all-gather on 2 ranks at
// 100 Mbit/s with `factor` wire bytes per data byte.
double ring_all_gather_seconds(const std::string& factor) {
  NetworkConfig network;
  network.link_rate = ns3::DataRate("100Mbps");
  network.collectives[OpType::kAllGather] = CollectiveChoice{"ring", {{"DataWireFactor", factor}}};
  int64_t end = 0;
  const RunOutcome outcome = run_star(2, network, [&](Comm& comm) {
    at::Tensor mine = at::zeros({int64_t(1 << 17)});  // 512 KiB of float32 each
    at::Tensor all = at::zeros({int64_t(1 << 18)});
    comm.all_gather(all, mine);
    end = std::max(end, this_lp::now_ns());
  });
  EXPECT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  return double(end) * 1e-9;
}

TEST(CollectivePresets, DataWireFactorChargesTheProtocolsFlagsOnTheWire) {
  // Each rank sends its 512 KiB once: 512 KiB x 8 / 1e8 x 1538 / 1448 = 44.5 ms of wire time; LL's
  // flags double the bytes, 89.1 ms.
  const double wire = double(512 << 10) * 8 / 1e8 * 1538.0 / 1448.0;
  const double plain = ring_all_gather_seconds("1");
  const double flagged = ring_all_gather_seconds("2");
  std::printf("1 MiB ring all-gather on 2 ranks: %.1f ms, with LL's flags %.1f ms\n", plain * 1e3, flagged * 1e3);
  EXPECT_GT(plain, wire);
  EXPECT_LT(plain, 1.05 * wire + 1e-3);
  EXPECT_GT(flagged, 2 * wire);
  EXPECT_LT(flagged, 2.05 * wire + 1e-3);
}

TEST(CollectivePresets, ExplicitChoicesWinOverThePreset) {
  CollectiveSelection selection{{{OpType::kAllReduce, CollectiveChoice{"tree", {}}}}, "gloo", {}};
  EXPECT_EQ(selection.choose(OpType::kAllReduce, 1 << 20, 4).algorithm, "tree");
  EXPECT_EQ(selection.choose(OpType::kBroadcast, 1 << 20, 4).algorithm, "gloo");
  EXPECT_EQ(CollectiveSelection{}.choose(OpType::kAllReduce, 1 << 20, 4).algorithm, "ring");
  EXPECT_THROW(preset_choice("mpich", OpType::kAllReduce, 1, 2), std::invalid_argument);
}

// What `auto` picks for a small all-reduce on 8 ranks is faster in simulation than the ring.
TEST(CollectivePresets, AutoPicksWhatTheSimulationFindsFaster) {
  const int n = 8;
  const int64_t elements = 1024;  // 4 KiB
  NetworkConfig net;
  const CollectiveChoice pick = preset_choice("auto", OpType::kAllReduce, elements * 4, n);
  ASSERT_NE(pick.algorithm, "ring");
  auto seconds = [&](const std::string& algorithm) {
    NetworkConfig chosen = net;
    chosen.collectives[OpType::kAllReduce] = CollectiveChoice{algorithm, {}};
    RunRecord record;
    auto outcome = run_star(
        n, chosen,
        [&](Comm& comm) {
          at::Tensor t = at::empty({elements}, at::TensorOptions().device(at::kMeta));
          comm.all_reduce(t);  // opens the connections
          comm.barrier();
          comm.all_reduce(t);
        },
        &record);
    EXPECT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
    int64_t last_start = 0, end = 0;
    for (const Span& s : record.spans) {
      if (s.name == "all_reduce") last_start = std::max(last_start, s.start_ns);
    }
    int64_t start = last_start;
    for (const Span& s : record.spans) {
      if (s.name != "all_reduce" || s.end_ns < last_start) continue;
      start = std::min(start, s.start_ns);
      end = std::max(end, s.end_ns);
    }
    return double(end - start) * 1e-9;
  };
  const double picked = seconds(pick.algorithm), ring = seconds("ring");
  EXPECT_LT(picked, ring) << pick.algorithm;
  std::printf("8 ranks, 4 KiB: auto picks %s, %.0f us; ring %.0f us\n", pick.algorithm.c_str(),
              picked * 1e6, ring * 1e6);
}

// From rank 0's entry to the last rank's exit, in seconds: one `op` (all_to_all or all_gather)
// of `bytes` on 2 ranks at 100 Mbit/s as `preset` runs it, rank 1 entering `late_ns` after
// rank 0.
double pair_exchange_seconds(const std::string& preset, OpType op, uint64_t bytes, int64_t late_ns) {
  NetworkConfig network;
  network.link_rate = ns3::DataRate("100Mbps");
  network.collective_preset = preset;
  int64_t start = 0;
  int64_t end = 0;
  const RunOutcome outcome = run_star(2, network, [&](Comm& comm) {
    at::Tensor input = at::zeros({int64_t(op == OpType::kAllGather ? bytes / 8 : bytes / 4)});
    at::Tensor output = at::zeros({int64_t(bytes / 4)});
    comm.barrier();
    if (comm.rank() == 0) start = this_lp::now_ns();
    if (comm.rank() == 1) this_lp::sleep_until(this_lp::now_ns() + late_ns);
    if (op == OpType::kAllGather) comm.all_gather(output, input);
    else comm.all_to_all(output, input);
    end = std::max(end, this_lp::now_ns());
  });
  EXPECT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  return double(end - start) * 1e-9;
}

// Each rank sends half of `bytes`: at 100 Mbit/s with Ethernet's 1538 wire bytes per 1448 of TCP
// payload, 4 MiB takes T = 2 MiB x 8 / 1e8 x 1538 / 1448 = 178 ms one way.
double one_way_seconds(uint64_t bytes) { return double(bytes / 2) * 8 / 1e8 * 1538.0 / 1448.0; }

constexpr uint64_t kPairBytes = uint64_t(4) << 20;
constexpr int64_t kLateNs = 1'000'000;

TEST(CollectivePresets, GlooAllToAllRunsOneWayAfterTheOtherWhenOneRankIsLate) {
  // Gloo's own alltoall posts the send first. Entering together, both directions travel at
  // once (T). Entering 1 ms late, rank 1 finds rank 0's recv-ready notice waiting, so its data
  // leaves at once and its own notice follows that data: rank 0's data can only leave after
  // it (docs/collectives-backends.md), 2 T in all.
  const double one_way = one_way_seconds(kPairBytes);
  const double together = pair_exchange_seconds("gloo", OpType::kAllToAll, kPairBytes, 0);
  const double late = pair_exchange_seconds("gloo", OpType::kAllToAll, kPairBytes, kLateNs);
  std::printf("gloo::alltoall: together %.1f ms, rank 1 late by 1 ms %.1f ms, one direction %.1f ms\n",
              together * 1e3, late * 1e3, one_way * 1e3);
  EXPECT_GT(together, 0.98 * one_way);
  EXPECT_LT(together, 1.10 * one_way);
  EXPECT_GT(late, 1.90 * one_way);
  EXPECT_LT(late, 2.15 * one_way + 1e-3);
}

TEST(CollectivePresets, GlooAllGatherOnAPairQueuesHalfBlocksBehindData) {
  // Gloo's ring on two ranks sends the block in two halves, each send before its receive. Rank
  // 1, late, finds both of rank 0's notices waiting: its first half leaves, its notice for
  // rank 0's first half queues behind it, then its second half, then the last notice. Rank 0's
  // first half crosses rank 1's second, and its second goes alone: three half-block times,
  // 1.5 T.
  const double one_way = one_way_seconds(kPairBytes);
  const double late = pair_exchange_seconds("gloo", OpType::kAllGather, kPairBytes, kLateNs);
  std::printf("gloo::allgather on 2 ranks: rank 1 late by 1 ms %.1f ms, one direction %.1f ms\n",
              late * 1e3, one_way * 1e3);
  EXPECT_GT(late, 1.45 * one_way);
  EXPECT_LT(late, 1.60 * one_way + 1e-3);
}

TEST(CollectivePresets, ReceiveFirstKeepsBothDirectionsTogetherWhenOneRankIsLate) {
  // GlooComm's exchange posts both receives first: rank 0's notice is on its way before any
  // data, so rank 1's lateness only delays the start, T + 1 ms, for all-to-all and for the
  // 2-rank all-gather alike.
  const double one_way = one_way_seconds(kPairBytes);
  for (OpType op : {OpType::kAllToAll, OpType::kAllGather}) {
    const double late = pair_exchange_seconds("gloo-receive-first", op, kPairBytes, kLateNs);
    std::printf("gloo-receive-first %s: rank 1 late by 1 ms %.1f ms, one direction %.1f ms\n",
                op_name(op), late * 1e3, one_way * 1e3);
    EXPECT_GT(late, 0.98 * one_way + 1e-3) << op_name(op);
    EXPECT_LT(late, 1.10 * one_way + 1e-3) << op_name(op);
  }
}

TEST(CollectivePresets, ReceiveFirstDiffersFromGlooOnlyInItsExchanges) {
  for (OpType op : {OpType::kAllReduce, OpType::kAllGather, OpType::kBroadcast, OpType::kAllToAll,
                    OpType::kGather, OpType::kBarrier}) {
    const CollectiveChoice stock = preset_choice("gloo", op, 1 << 20, 2);
    const CollectiveChoice first = preset_choice("gloo-receive-first", op, 1 << 20, 2);
    EXPECT_EQ(stock.algorithm, first.algorithm) << op_name(op);
    const bool exchange = op == OpType::kAllGather || op == OpType::kAllToAll;
    EXPECT_EQ(attribute(first, "ReceiveFirst"), exchange ? "true" : "") << op_name(op);
    EXPECT_EQ(attribute(stock, "ReceiveFirst"), "") << op_name(op);
  }
}

}  // namespace
}  // namespace uniference::test
