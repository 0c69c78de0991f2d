// Every registered strategy over SimComm must generate what one device generates: the same
// greedy tokens for every prompt of the batch, prompt by prompt on a single-device model
// (an independent computation: no communicator, batch 1). Then the traffic the strategies
// make, read from the record's per-label accounting, against the bytes their schedules
// imply, and Kilovolts' overlap in the trace.
#include "compute/compute_label.h"
#include "compute/generation.h"
#include "compute/llama.h"
#include "compute/strategy.h"
#include "bridge/this_lp.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <map>
#include <mutex>

namespace uniference::test {
namespace {

constexpr uint64_t kSeed = 77;
constexpr int64_t kPromptTokens = 12;
constexpr int64_t kNewTokens = 4;

// The single device's tokens for prompt `prompt` of a batch made by make_prompts.
const std::vector<int64_t>& reference_tokens(int64_t prompt) {
  static std::map<int64_t, std::vector<int64_t>> cache;
  auto it = cache.find(prompt);
  if (it != cache.end()) return it->second;
  const ModelConfig config = model_preset("tiny");
  const auto prompts = make_prompts(prompt + 1, kPromptTokens, config.vocab, kSeed);
  LlamaModel model(config, kSeed);
  return cache[prompt] = generate(model, prompts[size_t(prompt)], kNewTokens);
}

struct Case {
  std::string name;
  std::string strategy;
  ParallelDegrees degrees;
  int64_t batch = 1;
};

std::ostream& operator<<(std::ostream& out, const Case& c) { return out << c.name; }

ParallelDegrees degrees(int tp, int pp, int dp, int sp, int micro_batches = 1,
                        std::vector<int64_t> stages = {}) {
  ParallelDegrees d;
  d.tp = tp;
  d.pp = pp;
  d.dp = dp;
  d.sp = sp;
  d.micro_batches = micro_batches;
  d.stages = std::move(stages);
  return d;
}

// Runs the strategy on a star; returns each prompt's tokens as the ranks reported them.
std::map<int64_t, std::vector<int64_t>> run_case(const Case& c, const NetworkConfig& network,
                                                 RunRecord* record = nullptr,
                                                 int64_t new_tokens = kNewTokens) {
  const Strategy& strategy = strategies().at(c.strategy);
  const ModelConfig config = model_preset("tiny");
  WorkloadShape workload{c.batch, kPromptTokens, new_tokens};
  const StrategyProblem problem = check_strategy(strategy, config, c.degrees, workload);
  EXPECT_EQ(problem.detail, "") << c.name << " at /parallel/" << problem.key;

  StrategyInputs inputs;
  inputs.model = config;
  inputs.seed = kSeed;
  inputs.prompts = make_prompts(c.batch, kPromptTokens, config.vocab, kSeed);
  inputs.new_tokens = new_tokens;
  inputs.degrees = c.degrees;
  inputs.weights_loaded = this_lp::discard_compute;
  std::map<int64_t, std::vector<int64_t>> tokens;
  std::map<int64_t, int> reporters;
  inputs.on_token = [&](int64_t prompt, int64_t step, int64_t token) {
    EXPECT_EQ(int64_t(tokens[prompt].size()), step) << "prompt " << prompt << " out of order";
    tokens[prompt].push_back(token);
  };
  const RunOutcome outcome = run_star(c.degrees.world(), network, [&](Comm& world) {
    run_strategy(strategy, world, inputs);
  }, record);
  EXPECT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  return tokens;
}

class Strategies : public ::testing::TestWithParam<Case> {};

TEST_P(Strategies, GenerateTheSingleDeviceTokensForEveryPrompt) {
  const Case& c = GetParam();
  const auto tokens = run_case(c, NetworkConfig{});
  ASSERT_EQ(int64_t(tokens.size()), c.batch) << "every prompt reported by exactly one rank";
  for (int64_t p = 0; p < c.batch; ++p) {
    EXPECT_EQ(tokens.at(p), reference_tokens(p)) << c.name << ", prompt " << p;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, Strategies,
    ::testing::Values(
        Case{"tp2_batch2", "tp", degrees(2, 1, 1, 1), 2},
        Case{"pp2", "pp", degrees(1, 2, 1, 1)},
        Case{"pp4_uneven_chunked_prefill", "pp", degrees(1, 4, 1, 1, 4), 1},
        Case{"pp3_stages_batch4_two_micro_batches", "pp", degrees(1, 3, 1, 1, 2, {1, 3, 2}), 4},
        Case{"tp2_pp2_batch2_two_micro_batches", "tp-pp", degrees(2, 2, 1, 1, 2), 2},
        Case{"tp2_pp4_eight_ranks", "tp-pp", degrees(2, 4, 1, 1, 2), 1},
        Case{"voltage2", "voltage", degrees(1, 1, 1, 2)},
        Case{"voltage8_uneven_slices_batch2", "voltage", degrees(1, 1, 1, 8), 2},
        Case{"kilovolts4", "kilovolts", degrees(1, 1, 1, 4)},
        Case{"dp2_batch3", "dp", degrees(1, 1, 2, 1), 3},
        Case{"tp2_dp2_batch2", "tp", degrees(2, 1, 2, 1), 2}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

// Ring collectives, so the test's byte counts follow from the ring's schedule.
NetworkConfig ring_network(ns3::Time delay = ns3::MicroSeconds(50)) {
  NetworkConfig network;
  network.link_delay = delay;
  network.collectives[OpType::kAllReduce] = CollectiveChoice{"ring", {}};
  network.collectives[OpType::kAllGather] = CollectiveChoice{"ring", {}};
  return network;
}

uint64_t label_bytes(const RunRecord& record, int rank, const std::string& label,
                     const std::string& operation) {
  const auto& by_label = record.ranks.at(size_t(rank)).bytes_by_label;
  auto it = by_label.find(label);
  if (it == by_label.end()) return 0;
  auto op = it->second.find(operation);
  return op == it->second.end() ? 0 : op->second;
}

TEST(StrategyTraffic, VoltageSendsOneGatheredSlicePerLayer) {
  // Prefill only: P ranks, N positions, every layer all-gathers [N / P, dim] float32 slices;
  // in a ring each rank forwards P - 1 of them.
  const int p = 4;
  RunRecord record;
  run_case(Case{"voltage", "voltage", degrees(1, 1, 1, p)}, ring_network(), &record, 1);
  const ModelConfig config = model_preset("tiny");
  const uint64_t expected = uint64_t(p - 1) * (kPromptTokens / p) * config.dim * sizeof(float);
  for (int r = 0; r < p; ++r) {
    for (int64_t l = 0; l < config.n_layers; ++l) {
      EXPECT_EQ(label_bytes(record, r, layer_label(l, "all_gather"), "all_gather"), expected)
          << "rank " << r << " layer " << l;
    }
    EXPECT_EQ(record.ranks[size_t(r)].bytes_sent, expected * uint64_t(config.n_layers))
        << "rank " << r << ": nothing but the per-layer gathers";
  }
}

TEST(StrategyTraffic, TensorParallelAllReducesTwicePerLayer) {
  // Each layer all-reduces [N, dim] after attention (o_proj) and after the MLP; a ring
  // all-reduce sends 2 (P - 1) / P of the tensor from every rank.
  const int p = 2;
  RunRecord record;
  run_case(Case{"tp", "tp", degrees(p, 1, 1, 1)}, ring_network(), &record, 1);
  const ModelConfig config = model_preset("tiny");
  const uint64_t tensor = uint64_t(kPromptTokens) * config.dim * sizeof(float);
  const uint64_t expected = 2 * uint64_t(p - 1) * tensor / p;
  for (int r = 0; r < p; ++r) {
    for (int64_t l = 0; l < config.n_layers; ++l) {
      EXPECT_EQ(label_bytes(record, r, layer_label(l, "o_proj"), "all_reduce"), expected);
      EXPECT_EQ(label_bytes(record, r, layer_label(l, "mlp"), "all_reduce"), expected);
    }
  }
}

TEST(StrategyTraffic, PipelineSendsTheActivationsOnceAndTheTokenBack) {
  // pp 2, batch 1, 3 new tokens: stage 0 sends [N, dim] in prefill and [1, dim] per decode
  // step; stage 1 sends the token back (int64) after every step but the last.
  RunRecord record;
  const int64_t new_tokens = 3;
  run_case(Case{"pp", "pp", degrees(1, 2, 1, 1)}, ring_network(), &record, new_tokens);
  const ModelConfig config = model_preset("tiny");
  const uint64_t activations =
      uint64_t(kPromptTokens + new_tokens - 1) * config.dim * sizeof(float);
  EXPECT_EQ(record.ranks[0].bytes_sent, activations);
  EXPECT_EQ(record.ranks[1].bytes_sent, uint64_t(new_tokens - 1) * sizeof(int64_t));
  EXPECT_EQ(label_bytes(record, 1, "sample", "send"), uint64_t(new_tokens - 1) * sizeof(int64_t));
}

const Span* find_span(const RunRecord& record, int rank, Span::Kind kind, const std::string& name,
                      const std::string& label = "") {
  for (const Span& span : record.spans) {
    if (span.rank == rank && span.kind == kind && span.name == name &&
        (label.empty() || span.label == label)) {
      return &span;
    }
  }
  return nullptr;
}

int64_t compute_named(const RunRecord& record, int rank, const std::string& suffix) {
  int64_t total = 0;
  for (const Span& span : record.spans) {
    if (span.rank != rank || span.kind != Span::Kind::kCompute) continue;
    if (span.name.size() >= suffix.size() &&
        span.name.compare(span.name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      total += span.end_ns - span.start_ns;
    }
  }
  return total;
}

TEST(Kilovolts, TheQueryProjectionRunsInsideTheGatherAndSavesAtMostItsTime) {
  const int p = 2;
  const NetworkConfig network = ring_network(ns3::MilliSeconds(10));
  RunRecord voltage, kilovolts;
  run_case(Case{"voltage", "voltage", degrees(1, 1, 1, p)}, network, &voltage, 1);
  run_case(Case{"kilovolts", "kilovolts", degrees(1, 1, 1, p)}, network, &kilovolts, 1);
  for (int r = 0; r < p; ++r) {
    const Span* gather = find_span(kilovolts, r, Span::Kind::kFlight, "all_gather",
                                   layer_label(0, "all_gather"));
    const Span* query = find_span(kilovolts, r, Span::Kind::kCompute, layer_label(1, "q_proj"));
    ASSERT_NE(gather, nullptr) << "rank " << r << ": layer 0's gather in flight";
    ASSERT_NE(query, nullptr);
    EXPECT_GE(query->start_ns, gather->start_ns) << "rank " << r;
    EXPECT_LE(query->end_ns, gather->end_ns) << "rank " << r;
    EXPECT_EQ(find_span(voltage, r, Span::Kind::kFlight, "all_gather"), nullptr)
        << "Voltage waits for its gathers at once";
  }
  // Kilovolts hides the norm and query projection of layers 1.. behind the gathers: its
  // prefill (the whole run: one token) is faster, by no more than that compute.
  const int64_t hidden = compute_named(voltage, 0, ".q_proj") +
                         compute_named(voltage, 0, ".attention_norm");
  EXPECT_LT(kilovolts.total_ns, voltage.total_ns);
  EXPECT_LE(voltage.total_ns - kilovolts.total_ns, hidden);
}

}  // namespace
}  // namespace uniference::test

namespace uniference::test {
namespace {

TEST(OutOfMemory, IsOneLineNamingTheRankTheSizeAndWhatToChange) {
  const RunOutcome outcome = run_star(2, NetworkConfig{}, [](Comm& comm) {
    if (comm.rank() == 1) at::empty({int64_t(1) << 45});  // 128 TiB of float32
    comm.barrier();
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kError);
  const std::string& report = outcome.report;
  EXPECT_EQ(report.find('\n'), std::string::npos) << report;
  EXPECT_EQ(report.rfind("rank 1 at t=", 0), 0u) << report;
  EXPECT_NE(report.find("out of memory: tried to allocate 140737488355328 bytes"), std::string::npos)
      << report;
  EXPECT_NE(report.find("shapes_only"), std::string::npos) << report;
}

TEST(ShapesOnly, MovesTheBytesOfTheDataRunAndChargesItsCompute) {
  // The same TP-2 and PP-2 runs with data and on meta tensors: equal traffic per label, and
  // equal modeled compute but for the embedding lookup, which has no meta kernel.
  for (const Case& c : {Case{"tp", "tp", degrees(2, 1, 1, 1)}, Case{"pp", "pp", degrees(1, 2, 1, 1)}}) {
    RunRecord data, shapes;
    run_case(c, NetworkConfig{}, &data, 2);
    const Strategy& strategy = strategies().at(c.strategy);
    StrategyInputs inputs;
    inputs.model = model_preset("tiny");
    inputs.seed = kSeed;
    inputs.prompts = make_prompts(1, kPromptTokens, inputs.model.vocab, kSeed);
    inputs.new_tokens = 2;
    inputs.degrees = c.degrees;
    inputs.shapes_only = true;
    inputs.weights_loaded = this_lp::discard_compute;
    int tokens = 0;
    inputs.on_token = [&](int64_t, int64_t, int64_t) { ++tokens; };
    const RunOutcome outcome = run_star(c.degrees.world(), NetworkConfig{}, [&](Comm& world) {
      run_strategy(strategy, world, inputs);
    }, &shapes);
    ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
    EXPECT_EQ(tokens, 2) << c.name;
    for (int r = 0; r < c.degrees.world(); ++r) {
      EXPECT_EQ(shapes.ranks[size_t(r)].bytes_by_label, data.ranks[size_t(r)].bytes_by_label)
          << c.name << " rank " << r;
      int64_t embedding = 0;
      for (const Span& span : data.spans) {
        if (span.rank == r && span.name == "embedding") embedding += span.end_ns - span.start_ns;
      }
      EXPECT_EQ(shapes.ranks[size_t(r)].compute_ns + embedding, data.ranks[size_t(r)].compute_ns)
          << c.name << " rank " << r;

    }
  }
}

}  // namespace
}  // namespace uniference::test
