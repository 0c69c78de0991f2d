// estimate_memory against the strategies themselves: every rank of an in-process Gloo world
// runs the strategy (or builds its serving engine) with shapes-only weights until its model is
// built, and what its on_memory reports must be the estimate for that rank, byte for byte.
// Then one case worked out by hand from the tiny model's shape, and the refusals.
#include "compute/memory_estimate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "compute/serving/serving_loop.h"
#include "compute/strategy.h"
#include "compute/test/gloo_world.h"

namespace uniference {

// For EXPECT_EQ, found by argument-dependent lookup in MemoryUse's namespace.
bool operator==(const MemoryUse& a, const MemoryUse& b) {
  return a.weights == b.weights && a.kv_cache == b.kv_cache && a.activations == b.activations;
}

std::ostream& operator<<(std::ostream& out, const MemoryUse& m) {
  return out << "{weights " << m.weights << ", kv_cache " << m.kv_cache << ", activations "
             << m.activations << "}";
}

namespace {

using test::run_world;

// Thrown from weights_loaded, right after on_memory: the report is in, and no rank goes on
// to generate (so shapes-only tensors never reach a Gloo collective).
struct ModelBuilt {};

// Each world rank's on_memory report when the strategy really runs the layout.
std::vector<MemoryUse> reported(const MemoryEstimateInputs& in) {
  const Strategy& strategy = strategies().at(in.strategy);
  const int world = in.degrees.world();
  std::vector<MemoryUse> reports(static_cast<size_t>(world));
  std::vector<int> calls(static_cast<size_t>(world), 0);
  run_world(world, [&](Comm& comm) {
    const int rank = comm.rank();
    StrategyInputs inputs;
    inputs.model = in.model;
    inputs.prompts.assign(size_t(in.workload.batch),
                          std::vector<int64_t>(size_t(in.workload.prompt_tokens), 1));
    inputs.new_tokens = in.workload.new_tokens;
    inputs.degrees = in.degrees;
    inputs.degrees.strategy = in.strategy;
    inputs.shapes_only = true;
    inputs.ranks_per_server = in.ranks_per_server;
    inputs.on_memory = [&, rank](const MemoryUse& use) {
      reports[size_t(rank)] = use;
      ++calls[size_t(rank)];
    };
    inputs.weights_loaded = [] { throw ModelBuilt{}; };
    try {
      if (in.serving) {
        serve_strategy(strategy, comm, inputs, ServingInputs{}, *in.serving);
      } else {
        run_strategy(strategy, comm, inputs);
      }
    } catch (const ModelBuilt&) {
    }
    // No rank closes its connections while another may still be setting up the strategy's
    // groups with it (a rank of dp alone builds its model at once): a flake under load.
    comm.barrier();
  });
  for (int r = 0; r < world; ++r) EXPECT_EQ(calls[size_t(r)], 1) << "on_memory calls, rank " << r;
  return reports;
}

ModelConfig tiny() { return model_preset("tiny"); }
ModelConfig tiny_moe() { return model_preset("tiny-moe"); }
// A mixture of experts whose first layer stays dense, without shared experts (DeepSeek's
// layout in small): dense and MoE layers on one rank, and the shared-expert term at zero.
ModelConfig tiny_moe_dense_first() {
  ModelConfig c = model_preset("tiny-moe");
  c.name = "tiny-moe-dense-first";
  c.moe.first_dense_layers = 1;
  c.moe.n_shared_experts = 0;
  return c;
}

struct Case {
  std::string name;
  ModelConfig model;
  std::string strategy;
  ParallelDegrees degrees;
  WorkloadShape workload;
  std::optional<CacheShape> serving;
};

std::ostream& operator<<(std::ostream& out, const Case& c) { return out << c.name; }

// Degrees by name: D().tp(2).pp(3).
struct D {
  ParallelDegrees p;
  D tp(int v) const {
    return with([&](ParallelDegrees& d) { d.tp = v; });
  }
  D pp(int v) const {
    return with([&](ParallelDegrees& d) { d.pp = v; });
  }
  D dp(int v) const {
    return with([&](ParallelDegrees& d) { d.dp = v; });
  }
  D sp(int v) const {
    return with([&](ParallelDegrees& d) { d.sp = v; });
  }
  D ep(int v) const {
    return with([&](ParallelDegrees& d) { d.ep = v; });
  }
  D micro_batches(int v) const {
    return with([&](ParallelDegrees& d) { d.micro_batches = v; });
  }
  D stages(std::vector<int64_t> v) const {
    return with([&](ParallelDegrees& d) { d.stages = v; });
  }
  template <typename F>
  D with(F set) const {
    D out = *this;
    set(out.p);
    return out;
  }
};

Case batch(std::string name, ModelConfig model, std::string strategy, const D& d, int64_t prompts,
           int64_t prompt_tokens = 12, int64_t new_tokens = 4) {
  return Case{std::move(name),
              std::move(model),
              std::move(strategy),
              d.p,
              WorkloadShape{prompts, prompt_tokens, new_tokens},
              std::nullopt};
}

Case serving(std::string name, ModelConfig model, std::string strategy, const D& d,
             CacheShape cache) {
  return Case{
      std::move(name), std::move(model), std::move(strategy), d.p, WorkloadShape{1, 12, 4}, cache};
}

MemoryEstimateInputs inputs_of(const Case& c) {
  MemoryEstimateInputs in;
  in.model = c.model;
  in.strategy = c.strategy;
  in.degrees = c.degrees;
  in.workload = c.workload;
  in.serving = c.serving;
  return in;
}

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      // tp: the TP group divides heads, KV heads, FFN and vocabulary.
      batch("tp1", tiny(), "tp", D(), 1),
      batch("tp2_batch2", tiny(), "tp", D().tp(2), 2),
      batch("tp4_batch3_no_new_tokens", tiny(), "tp", D().tp(4), 3, 9, 0),
      batch("tp2_dp2_odd_batch", tiny(), "tp", D().tp(2).dp(2), 3),
      // pp / tp-pp: 6 layers in stages; activations of the first prefill micro-batch.
      batch("pp2", tiny(), "pp", D().pp(2), 1),
      batch("pp4_uneven_split", tiny(), "pp", D().pp(4), 2),
      batch("pp3_stages_132_batch4_mb2", tiny(), "pp", D().pp(3).micro_batches(2).stages({1, 3, 2}),
            4),
      batch("pp2_chunked_prefill", tiny(), "pp", D().pp(2).micro_batches(4), 1, 13),
      batch("pp3_batch5_mb3_dp2", tiny(), "pp", D().pp(3).dp(2).micro_batches(3), 5),
      batch("pp2_moe", tiny_moe(), "pp", D().pp(2), 2),
      batch("tp2_pp2_batch2_mb2", tiny(), "tp-pp", D().tp(2).pp(2).micro_batches(2), 2),
      batch("tp2_pp3_stages_dp2_batch3", tiny(), "tp-pp", D().tp(2).pp(3).dp(2).stages({3, 2, 1}),
            3),
      // voltage / kilovolts: the whole model everywhere, queries the largest slice.
      batch("voltage2", tiny(), "voltage", D().sp(2), 1),
      batch("voltage3_uneven_slices_batch2", tiny(), "voltage", D().sp(3), 2, 13),
      batch("voltage2_dp2_batch3", tiny(), "voltage", D().dp(2).sp(2), 3),
      batch("kilovolts3_batch2", tiny(), "kilovolts", D().sp(3), 2, 10),
      batch("kilovolts2_moe", tiny_moe(), "kilovolts", D().sp(2), 1),
      // dp: prompt p on replica p mod dp, so the replicas' batches differ.
      batch("dp2_batch3", tiny(), "dp", D().dp(2), 3),
      batch("dp3_batch7_moe", tiny_moe(), "dp", D().dp(3), 7),
      // ep: experts spread, each rank's attention its own prompts.
      batch("ep1_moe", tiny_moe(), "ep", D(), 2),
      batch("ep2_batch2", tiny_moe(), "ep", D().ep(2), 2),
      batch("ep4_batch8", tiny_moe(), "ep", D().ep(4), 8),
      batch("ep2_dp2_batch4", tiny_moe(), "ep", D().dp(2).ep(2), 4),
      batch("ep4_dense_first_layer", tiny_moe_dense_first(), "ep", D().ep(4), 4),
      // Serving: the engines' cache, as the scenario sizes it.
      serving("serve_tp1_cache_length_max_seq", tiny(), "tp", D(), CacheShape{3, 0}),
      serving("serve_tp2", tiny(), "tp", D().tp(2), CacheShape{4, 20}),
      serving("serve_tp4_dp2", tiny(), "tp", D().tp(4).dp(2), CacheShape{2, 15}),
      serving("serve_pp3_stages", tiny(), "pp", D().pp(3).stages({2, 3, 1}), CacheShape{3, 16}),
      serving("serve_tp2_pp2", tiny(), "tp-pp", D().tp(2).pp(2), CacheShape{4, 16}),
      serving("serve_ep2_odd_cache", tiny_moe(), "ep", D().ep(2), CacheShape{3, 16}),
      serving("serve_ep4_dp2", tiny_moe(), "ep", D().dp(2).ep(4), CacheShape{6, 16}),
      serving("serve_ep2_dense_first", tiny_moe_dense_first(), "ep", D().ep(2), CacheShape{4, 0}),
  };
  return all;
}

class MemoryEstimate : public ::testing::TestWithParam<Case> {};

TEST_P(MemoryEstimate, IsWhatEveryRankReportsWhenItBuildsItsModel) {
  const Case& c = GetParam();
  const MemoryEstimateInputs in = inputs_of(c);
  const std::vector<MemoryUse> estimate = estimate_memory(in);
  const std::vector<MemoryUse> built = reported(in);
  ASSERT_EQ(estimate.size(), size_t(c.degrees.world()));
  ASSERT_EQ(built.size(), estimate.size());
  for (size_t r = 0; r < built.size(); ++r) {
    EXPECT_EQ(estimate[r], built[r]) << c.name << ", world rank " << r;
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, MemoryEstimate, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.name;
                         });

TEST(MemoryEstimateCases, CoverEveryRegisteredStrategyBatchAndServing) {
  std::set<std::string> run, served;
  for (const Case& c : cases()) (c.serving ? served : run).insert(c.strategy);
  for (const Strategy& s : strategies().entries()) {
    EXPECT_TRUE(run.count(s.name)) << "no batch case for strategy " << s.name;
    if (s.serve) EXPECT_TRUE(served.count(s.name)) << "no serving case for strategy " << s.name;
  }
}

// The tiny model (dim 256, 6 layers, 8 heads of 32, 4 KV heads, FFN 768, vocab 32000) on
// tp = 2, batch 2, prompts of 12, 4 new tokens: a KV cache of 12 + 3 = 15 positions.
TEST(MemoryEstimateByHand, TinyOnTwoTensorParallelRanks) {
  MemoryEstimateInputs in;
  in.model = tiny();
  in.strategy = "tp";
  in.degrees.tp = 2;
  in.workload = WorkloadShape{2, 12, 4};
  const uint64_t layer = 2 * 256                    // attention and FFN norms
                         + 2 * (8 * 32 / 2) * 256   // wq, wo: 4 of 8 heads
                         + 2 * (4 * 32 / 2) * 256   // wk, wv: 2 of 4 KV heads
                         + 3 * 256 * (768 / 2);     // w1, w3, w2: half the FFN
  const uint64_t weights = 256                      // final norm
                           + 2 * (32000 / 2) * 256  // embedding and output: half the vocab
                           + 6 * layer;
  const uint64_t kv = 6 * 2 * 2 * 15 * (4 / 2) * 32;  // layers, K and V, batch, positions, heads
  const uint64_t rows = 2 * 12;                       // the prefill: batch x prompt
  const uint64_t activations = 3 * rows * 256 + 3 * rows * (768 / 2) +
                               2 * (8 / 2) * 12 * 15  // attention scores
                               + 2 * 32000;           // one position's logits per prompt
  const std::vector<MemoryUse> estimate = estimate_memory(in);
  ASSERT_EQ(estimate.size(), 2u);
  for (const MemoryUse& rank : estimate) {
    EXPECT_EQ(rank.weights, weights * 4);
    EXPECT_EQ(rank.kv_cache, kv * 4);
    EXPECT_EQ(rank.activations, activations * 4);
  }
  EXPECT_EQ(estimate[0].weights, 42'218'496u);  // the sums above, worked out
  EXPECT_EQ(estimate[0].total(), 42'218'496u + 92'160u + 446'080u);
}

// Refusals name the key the strategy's check names.
void expect_refused(const MemoryEstimateInputs& in, const std::string& prefix) {
  try {
    estimate_memory(in);
    ADD_FAILURE() << "expected a refusal starting " << prefix;
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
  }
}

TEST(MemoryEstimateRefuses, WhatTheStrategiesRefuse) {
  const auto with = [](Case c) { return inputs_of(c); };
  expect_refused(with(batch("tp3", tiny(), "tp", D().tp(3), 1)), "/parallel/tp:");
  expect_refused(with(batch("tp2_moe", tiny_moe(), "tp", D().tp(2), 1)), "/parallel/tp:");
  expect_refused(with(batch("pp7", tiny(), "pp", D().pp(7), 1)), "/parallel/pp:");
  expect_refused(with(batch("stages", tiny(), "pp", D().pp(2).stages({2, 2}), 1)),
                 "/parallel/stages:");
  expect_refused(with(batch("pp_tp", tiny(), "pp", D().tp(2).pp(2), 1)), "/parallel/tp:");
  expect_refused(with(batch("voltage_tp", tiny(), "voltage", D().tp(2).sp(2), 1)), "/parallel/tp:");
  expect_refused(with(batch("ep3", tiny_moe(), "ep", D().ep(3), 3)), "/parallel/ep:");
  expect_refused(with(batch("ep_dense", tiny(), "ep", D().ep(2), 2)), "/parallel/ep:");
  expect_refused(with(batch("ep_batch", tiny_moe(), "ep", D().ep(2), 3)), "/parallel/ep:");
  expect_refused(with(batch("tp_ep", tiny_moe(), "tp", D().ep(2), 2)), "/parallel/ep:");
  expect_refused(with(batch("dp_idle", tiny(), "dp", D().dp(3), 2)), "/parallel/dp:");
  expect_refused(with(serving("voltage_serves", tiny(), "voltage", D().sp(2), CacheShape{2, 16})),
                 "/parallel/strategy:");
  expect_refused(
      with(serving("pp_mb", tiny(), "pp", D().pp(2).micro_batches(2), CacheShape{2, 16})),
      "/parallel/micro_batches:");
  EXPECT_THROW(estimate_memory(with(batch("unknown", tiny(), "nope", D(), 1))),
               std::invalid_argument);
  // A cache longer than the model's positions: LlamaModel refuses to build it.
  EXPECT_THROW(estimate_memory(with(batch("long", tiny(), "tp", D(), 1, 2048, 2))),
               std::invalid_argument);
}

}  // namespace
}  // namespace uniference
