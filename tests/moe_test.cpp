// Expert parallelism over SimComm: the same tokens as one device holding every expert, for
// every dispatch scheme on 2, 4 and 8 ranks; the bytes each scheme puts on the wire, computed
// here from the routing (every token to every expert: each peer gets every token); and the
// schemes' times on the superpod and H800 presets against each other and against the
// bandwidth bound tokens x top-k x hidden x bytes / NIC rate.
#include "apps/run_scenario.h"
#include "apps/scenario.h"
#include "bridge/chrome_trace.h"
#include "bridge/test/trace_nesting.h"
#include "bridge/this_lp.h"
#include "compute/generation.h"
#include "compute/llama.h"
#include "compute/moe/moe_feed_forward.h"
#include "test_support.h"

#include <ATen/CPUGeneratorImpl.h>
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <map>

namespace uniference {
namespace {

constexpr uint64_t kSeed = 23;

Scenario scenario_of(const std::string& text) { return parse_scenario_text(text, "moe-test.json"); }

ScenarioRun run(const Scenario& scenario) {
  ScenarioRun run = run_scenario(scenario, false);
  EXPECT_EQ(run.outcome.status, RunOutcome::Status::kCompleted) << run.outcome.report;
  return run;
}

// ----- the tokens of one device -----

struct TokensCase {
  int ep;
  std::string dispatch;
};

std::ostream& operator<<(std::ostream& out, const TokensCase& c) {
  return out << "ep" << c.ep << "_" << c.dispatch;
}

class ExpertParallelTokens : public testing::TestWithParam<TokensCase> {};

TEST_P(ExpertParallelTokens, AreTheSingleDeviceTokens) {
  const TokensCase c = GetParam();
  constexpr int64_t kBatch = 8, kPrompt = 6, kNew = 3;
  // Servers of two ranks, so 4 and 8 ranks exchange across the second tier too.
  const ScenarioRun ep = run(scenario_of(R"({
    "seed": )" + std::to_string(kSeed) + R"(,
    "model": { "preset": "tiny-moe" },
    "parallel": { "strategy": "ep", "ep": )" + std::to_string(c.ep) + R"(, "dispatch": ")" +
                                          c.dispatch + R"(" },
    "workload": { "batch": 8, "prompt_tokens": 6, "new_tokens": 3 },
    "devices": { "profile": "h100" },
    "network": { "preset": "cm384", "topology_options": { "gpus_per_server": 2 } },
    "outputs": { "trace": false, "results": false } })"));

  const ModelConfig config = model_preset("tiny-moe");
  const auto prompts = make_prompts(kBatch, kPrompt, config.vocab, kSeed);
  for (int64_t p = 0; p < kBatch; ++p) {
    LlamaModel one_device(config, kSeed);
    const std::vector<int64_t> expected = generate(one_device, prompts[size_t(p)], kNew);
    std::vector<int64_t> got;
    for (size_t i = 0; i < ep.record.tokens.size(); ++i) {
      if (ep.record.token_prompts[i] == p) got.push_back(ep.record.tokens[i]);
    }
    EXPECT_EQ(got, expected) << "prompt " << p;
  }
  // One dispatch and one combine per MoE layer and forward pass (prefill, then kNew - 1
  // decode steps), each joining every rank.
  const auto steps = ep.record.phase_steps();
  for (const char* phase : {"moe.dispatch", "moe.combine"}) {
    ASSERT_EQ(steps.count(phase), 1u) << phase;
    EXPECT_EQ(steps.at(phase).size(), size_t(config.n_layers * kNew)) << phase;
    for (const PhaseStep& step : steps.at(phase)) EXPECT_EQ(step.ranks, c.ep) << phase;
  }
  // The trace shows them on a track per rank, and its slices nest.
  const nlohmann::json trace = chrome_trace(ep.record, "moe");
  EXPECT_EQ(check_trace_nesting(trace), "");
  size_t phase_slices = 0;
  for (const nlohmann::json& event : trace.at("traceEvents")) {
    if (event.value("cat", "") == "phase" && event.at("ph") == "B") ++phase_slices;
  }
  EXPECT_EQ(phase_slices, size_t(2 * config.n_layers * kNew * c.ep));
}

INSTANTIATE_TEST_SUITE_P(Schemes, ExpertParallelTokens,
                         testing::Values(TokensCase{2, "bsp"}, TokensCase{2, "decomposed"},
                                         TokensCase{2, "hierarchical"}, TokensCase{4, "bsp"},
                                         TokensCase{4, "decomposed"}, TokensCase{4, "hierarchical"},
                                         TokensCase{8, "bsp"}, TokensCase{8, "decomposed"},
                                         TokensCase{8, "hierarchical"}),
                         [](const testing::TestParamInfo<TokensCase>& info) {
                           return "ep" + std::to_string(info.param.ep) + "_" + info.param.dispatch;
                         });

// ----- bytes on the wire -----

constexpr int kRanks = 4;
constexpr int64_t kTokens = 5, kDim = 64;

// Four experts, each token routed to all four: every rank sends each of its tokens to
// every peer once, whatever the router's numbers.
ModelConfig every_token_everywhere() {
  ModelConfig c;
  c.name = "all-experts";
  c.dim = kDim;
  c.n_layers = 1;
  c.n_heads = 4;
  c.n_kv_heads = 4;
  c.ffn_dim = 32;
  c.vocab = 64;
  c.moe = MoeShape{kRanks, kRanks, 32, 0, 0};
  return c;
}

at::Tensor tokens_of(int rank) {
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(100 + uint64_t(rank));
  return at::randn({kTokens, kDim}, generator, at::TensorOptions().dtype(at::kFloat));
}

// Each rank's bytes by label (summed over operations), and whether every rank's output was
// the single device's.
std::map<std::string, uint64_t> bytes_of(const std::string& scheme, bool* exact) {
  const ModelConfig config = every_token_everywhere();
  NetworkConfig network;
  network.topology = "star";
  network.transport = "rdma";
  network.link_rate = ns3::DataRate("100Gbps");
  network.link_delay = ns3::NanoSeconds(500);
  *exact = true;
  RunRecord record;
  const RunOutcome outcome = test::run_star(kRanks, network, [&](Comm& world) {
    MoeFeedForward spread(config, WeightSource{kSeed, false}, 0,
                          ExpertGroup{&world, &dispatch_schemes().at(scheme), 2});
    const at::Tensor x = tokens_of(world.rank());
    const at::Tensor y = spread.forward(x);
    this_lp::discard_compute();
    MoeFeedForward whole(config, WeightSource{kSeed, false}, 0, ExpertGroup{});
    if (!at::allclose(y, whole.forward(x), 1e-5, 1e-6)) *exact = false;
  }, &record);
  EXPECT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  // Labels by bytes, and operations by the name "op:<operation>" (barriers carry no payload).
  std::map<std::string, uint64_t> bytes;
  for (const auto& [label, operations] : record.ranks[1].bytes_by_label) {
    for (const auto& [operation, n] : operations) {
      bytes[label] += n;
      bytes["op:" + operation] += n;
    }
  }
  return bytes;
}

TEST(DispatchBytes, EverySchemeMovesTheSameTokensAndReportsItsCountsAndFlagsApart) {
  const uint64_t peers = kRanks - 1;
  const uint64_t row_bytes = uint64_t(kDim) * 4;
  const uint64_t payload = peers * kTokens * row_bytes;  // to every peer, each of its tokens
  const uint64_t counts = peers * 1 * 8;                 // one int64 count per peer's expert
  // Data as flag: 512-byte blocks of 480 bytes of payload, per message.
  const uint64_t blocks_per_peer = (kTokens * row_bytes + 479) / 480;
  const uint64_t flagged = peers * blocks_per_peer * 512;

  bool exact = false;
  const auto bsp = bytes_of("bsp", &exact);
  EXPECT_TRUE(exact) << "bsp";
  EXPECT_EQ(bsp.at("layer0.dispatch.tokens"), payload);
  EXPECT_EQ(bsp.at("layer0.combine.tokens"), payload);
  EXPECT_EQ(bsp.at("layer0.dispatch.counts"), counts);
  EXPECT_EQ(bsp.at("layer0.dispatch.flags"), peers * 32);
  EXPECT_EQ(bsp.at("layer0.combine.flags"), peers * 32);
  EXPECT_EQ(bsp.count("op:barrier"), 1u) << "bsp separates its phases by barriers";
  for (const char* scheme : {"decomposed", "hierarchical"}) {
    const auto p2p = bytes_of(scheme, &exact);
    EXPECT_TRUE(exact) << scheme;
    EXPECT_EQ(p2p.at("layer0.dispatch.tokens"), flagged) << scheme;
    EXPECT_EQ(p2p.at("layer0.combine.tokens"), flagged) << scheme;
    EXPECT_EQ(p2p.at("layer0.dispatch.counts"), counts) << scheme;
    EXPECT_EQ(p2p.count("layer0.dispatch.flags") + p2p.count("op:barrier") +
                  p2p.count("op:all_to_all"),
              0u)
        << scheme << " has no flag phase, no barrier and no collective";
    std::cout << scheme << ": " << flagged << " bytes of blocks carry " << payload
              << " bytes of tokens (" << 100.0 * double(payload) / double(flagged)
              << "%); bsp sends its " << payload << " bytes of tokens plus "
              << bsp.at("layer0.dispatch.flags") << " bytes of flags and three barriers\n";
  }
}

// ----- time -----

// One MoE layer of DeepSeek-V3's shape (3 dense layers before it) on `ep` ranks with
// `per_rank` tokens each, shapes only: the dispatch and combine latencies.
struct Latency {
  int64_t dispatch_ns, combine_ns;
};

Latency latency(const std::string& preset, int ep, int per_rank, const std::string& dispatch) {
  const ScenarioRun r = run(scenario_of(R"({
    "model": { "preset": "deepseek-v3", "layers": 4 },
    "parallel": { "strategy": "ep", "ep": )" + std::to_string(ep) + R"(, "dispatch": ")" +
                                         dispatch + R"(" },
    "workload": { "batch": )" + std::to_string(ep * per_rank) + R"(, "prompt_tokens": 1, "new_tokens": 1 },
    "devices": { "profile": "h100", "dtype": "bf16" },
    "compute": { "mode": "modeled", "shapes_only": true },
    "network": { "preset": ")" + preset + R"(" },
    "outputs": { "trace": false, "results": false } })"));
  const auto steps = r.record.phase_steps();
  return Latency{steps.at("moe.dispatch").at(0).latency_ns(), steps.at("moe.combine").at(0).latency_ns()};
}

// README.md and docs/moe.md claim that on cm384 at EP 64 `decomposed` cuts the dispatch by
// 83% at 8 tokens per rank and 32% at 128 (docs/moe-study/cm384.md: -83.4% and -32.1%, with
// `hierarchical` within a point of it); this is that configuration, and the claim is held to
// at least 75% and 25%. Why that much slack and no more: the flow level, a different model of
// the same exchanges (max-min fair flows over ECMP instead of packets over adaptive routing),
// gives -83.4% and -28.6% in the same study, so the cut moves by up to 4 points with how the
// fabric is modelled; the bounds allow about twice that. What they exclude: one barrier more
// in the decomposed dispatch (six dissemination rounds at EP 64) adds 25-30 µs and leaves
// cuts of 58% and 21%, which fail both, where a bare "never slower" passed any cut down to 0%.
TEST(DispatchTime, DecomposedAndHierarchicalCutTheSuperpodsDispatchAsClaimed) {
  const std::map<int, double> least_cut = {{8, 0.75}, {128, 0.25}};
  for (const auto& [per_rank, cut] : least_cut) {
    const Latency bsp = latency("cm384", 64, per_rank, "bsp");
    for (const char* scheme : {"decomposed", "hierarchical"}) {
      const Latency other = latency("cm384", 64, per_rank, scheme);
      const double gain = 1 - double(other.dispatch_ns) / double(bsp.dispatch_ns);
      std::cout << "cm384, ep 64, " << per_rank << " tokens per rank: " << scheme
                << " dispatch " << other.dispatch_ns << " ns against bsp " << bsp.dispatch_ns
                << " (-" << 100 * gain << "%), combine " << other.combine_ns << " against "
                << bsp.combine_ns << "\n";
      EXPECT_GE(gain, cut) << scheme << " at " << per_rank << " tokens per rank";
      EXPECT_LE(other.combine_ns, bsp.combine_ns) << scheme << " at " << per_rank;
    }
  }
}

TEST(DispatchTime, OnTheH800PresetALargeBatchTakesItsBytesAtTheNicRate) {
  // DeepEP's bandwidth bound: every routed copy leaves its rank's 400 Gbit/s NIC, no
  // per-node deduplication; float32 on the wire.
  const double bound_ns = 128.0 * 8 * 7168 * 4 / (400e9 / 8) * 1e9;
  for (const char* scheme : {"bsp", "decomposed"}) {
    const Latency l = latency("h800-400g", 16, 128, scheme);
    std::cout << "h800-400g, ep 16, 128 tokens per rank, " << scheme << ": dispatch "
              << l.dispatch_ns << " ns, bound " << bound_ns << " ns (ratio "
              << double(l.dispatch_ns) / bound_ns << ")\n";
    EXPECT_NEAR(double(l.dispatch_ns), bound_ns, 0.15 * bound_ns) << scheme;
  }
}

}  // namespace
}  // namespace uniference
