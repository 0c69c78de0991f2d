// The MoE layer on one device against the mixture written out here from its definition:
// softmax over the router's logits, the top-k experts renormalised, each a SwiGLU MLP of
// the layer's seeded weights, plus the shared expert. Then the pieces the dispatch schemes
// stand on: data-as-flag blocks, drawn routing and expert placement.
#include "compute/moe/flagged_blocks.h"
#include "compute/moe/moe_feed_forward.h"
#include "compute/moe/router.h"
#include "compute/test/small_model.h"

#include <ATen/CPUGeneratorImpl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

namespace uniference {
namespace {

ModelConfig small_moe() {
  ModelConfig c = small_config();
  c.moe = MoeShape{6, 2, 32, 1, 0};
  return c;
}

at::Tensor random_rows(int64_t rows, int64_t dim, uint64_t seed) {
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(seed);
  return at::randn({rows, dim}, generator, at::TensorOptions().dtype(at::kFloat));
}

// w2(silu(w1 x) * w3 x) with the weights of `name`, as the dense MLP defines it.
at::Tensor swiglu_mlp(const at::Tensor& x, uint64_t seed, int64_t layer, const std::string& name,
                      int64_t dim, int64_t hidden) {
  const auto weight = [&](const char* w, int64_t rows, int64_t cols) {
    return full_weight(ParamKey{seed, layer, name + w}, rows, cols, 1.0 / std::sqrt(double(cols)));
  };
  const at::Tensor gate = at::matmul(x, weight(".w1", hidden, dim).t());
  const at::Tensor up = at::matmul(x, weight(".w3", hidden, dim).t());
  return at::matmul(gate / (1 + at::exp(-gate)) * up, weight(".w2", dim, hidden).t());
}

TEST(MoeFeedForward, IsTheGateWeightedSumOfTheTopKExpertsPlusTheSharedOne) {
  const ModelConfig c = small_moe();
  const uint64_t seed = 5;
  const int64_t layer = 1, tokens = 7;
  MoeFeedForward moe(c, WeightSource{seed, false}, layer, ExpertGroup{});
  const at::Tensor x = random_rows(tokens, c.dim, 11);
  const at::Tensor y = moe.forward(x);

  const at::Tensor router = full_weight(ParamKey{seed, layer, "moe.router"}, c.moe.n_experts, c.dim,
                                        1.0 / std::sqrt(double(c.dim)));
  const at::Tensor logits = at::matmul(x, router.t());
  for (int64_t t = 0; t < tokens; ++t) {
    // Softmax probabilities, the two largest, renormalised.
    std::vector<std::pair<double, int64_t>> p;
    double total = 0;
    for (int64_t e = 0; e < c.moe.n_experts; ++e) total += std::exp(logits[t][e].item<double>());
    for (int64_t e = 0; e < c.moe.n_experts; ++e) p.push_back({std::exp(logits[t][e].item<double>()) / total, e});
    std::sort(p.rbegin(), p.rend());
    const double kept = p[0].first + p[1].first;
    at::Tensor expected = swiglu_mlp(x[t], seed, layer, "moe.shared", c.dim, c.moe.expert_ffn_dim);
    for (int k = 0; k < 2; ++k) {
      expected = expected + (p[size_t(k)].first / kept) *
                                swiglu_mlp(x[t], seed, layer, "moe.expert" + std::to_string(p[size_t(k)].second),
                                           c.dim, c.moe.expert_ffn_dim);
    }
    EXPECT_TRUE(at::allclose(y[t], expected, 1e-4, 1e-5))
        << "token " << t << ": max difference " << (y[t] - expected).abs().max().item<double>();
  }
}

TEST(MoeFeedForward, OneDeviceHoldsTheRouterEveryExpertAndTheSharedOne) {
  const ModelConfig c = small_moe();
  MoeFeedForward whole(c, WeightSource{5, true}, 0, ExpertGroup{});
  // Router [6, 64], six experts of 3 x 32 x 64, one shared expert of the same size; floats.
  const uint64_t expert = 3 * 32 * 64 * 4;
  EXPECT_EQ(whole.weight_bytes(), 6 * 64 * 4 + 6 * expert + expert);
}

TEST(FlaggedBlocks, CarryThePayloadIn480ByteSlicesEachWithItsFlag) {
  const at::Tensor rows = random_rows(5, 48, 3);  // 960 bytes: two full blocks
  const at::Tensor blocks = pack_flagged(rows, 42);
  ASSERT_EQ(blocks.size(0), 2);
  EXPECT_EQ(blocks.numel() * 4, 2 * 512);
  EXPECT_TRUE(blocks.narrow(1, 120, 8).eq(42).all().item<bool>());
  EXPECT_TRUE(at::equal(unpack_flagged(blocks, 5, 48, 42, "rank 3"), rows));

  const at::Tensor odd = random_rows(3, 41, 4);  // 492 bytes: a full block and 12 bytes
  EXPECT_EQ(flagged_blocks(492), 2);
  EXPECT_TRUE(at::equal(unpack_flagged(pack_flagged(odd, 7), 3, 41, 7, "rank 1"), odd));
  EXPECT_EQ(flagged_blocks(0), 0);
}

TEST(FlaggedBlocks, ABlockWithTheWrongFlagIsRefusedNamingItsSender) {
  at::Tensor blocks = pack_flagged(random_rows(4, 60, 5), 9);
  blocks[1][125] = 8;  // a block whose flag is not yet this exchange's
  try {
    unpack_flagged(blocks, 4, 60, 9, "rank 6");
    FAIL() << "a stale flag was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("tokens from rank 6: block 1 of 2"), std::string::npos)
        << e.what();
  }
}

TEST(DrawnExperts, AreDistinctPerTokenUniformAndRepeatable) {
  const int64_t tokens = 4000, k = 8, experts = 64;
  const std::vector<int64_t> drawn = drawn_experts(1, 3, 2, 0, tokens, k, experts);
  ASSERT_EQ(drawn.size(), size_t(tokens * k));
  std::map<int64_t, int64_t> hits;
  for (int64_t t = 0; t < tokens; ++t) {
    const std::set<int64_t> mine(drawn.begin() + t * k, drawn.begin() + (t + 1) * k);
    EXPECT_EQ(mine.size(), size_t(k)) << "token " << t;
    for (int64_t e : mine) ++hits[e];
  }
  // Each expert's hits are binomial(tokens, k / experts): mean 500, sd 20.7; 5 sd either way.
  const double mean = double(tokens) * k / experts;
  const double sd = std::sqrt(mean * (1 - double(k) / experts));
  for (int64_t e = 0; e < experts; ++e) EXPECT_NEAR(double(hits[e]), mean, 5 * sd) << "expert " << e;
  EXPECT_EQ(drawn, drawn_experts(1, 3, 2, 0, tokens, k, experts));
  EXPECT_NE(drawn, drawn_experts(1, 3, 2, 1, tokens, k, experts));  // the next call
}

TEST(DispatchSchemes, PlaceEveryExpertOnceAndEvenly) {
  for (const DispatchScheme& scheme : dispatch_schemes().entries()) {
    std::map<std::pair<int, int64_t>, int> slots;
    std::map<int, int> per_rank;
    for (int64_t e = 0; e < 32; ++e) {
      const ExpertSlot slot = scheme.place(e, 32, 8);
      ++slots[{slot.rank, slot.local}];
      ++per_rank[slot.rank];
      EXPECT_LT(slot.local, 4) << scheme.name;
    }
    EXPECT_EQ(slots.size(), 32u) << scheme.name;
    for (const auto& [rank, count] : per_rank) EXPECT_EQ(count, 4) << scheme.name << " rank " << rank;
  }
  // Hierarchical deals experts round robin: 4 consecutive experts on 4 ranks, two servers.
  const DispatchScheme& hierarchical = dispatch_schemes().at("hierarchical");
  std::set<int> servers;
  for (int64_t e = 2; e < 6; ++e) servers.insert(hierarchical.place(e, 32, 8).rank / 4);
  EXPECT_EQ(servers.size(), 2u);
  EXPECT_EQ(hop_distance(3, 3, 4), 0);
  EXPECT_EQ(hop_distance(3, 0, 4), 1);
  EXPECT_EQ(hop_distance(3, 4, 4), 2);
}

TEST(ModelConfig, AMixtureOfExpertsIsSpreadByExpertParallelismNotTensorParallelism) {
  const ModelConfig moe = model_preset("tiny-moe");
  EXPECT_EQ(check_tensor_parallel(moe, 1), "");
  EXPECT_NE(check_tensor_parallel(moe, 2).find("strategy ep"), std::string::npos);
  EXPECT_EQ(check_expert_parallel(moe, 4), "");
  EXPECT_EQ(check_expert_parallel(moe, 3),
            "ep=3 does not divide the 8 experts of model 'tiny-moe'");
  EXPECT_EQ(check_expert_parallel(model_preset("tiny"), 2),
            "model 'tiny' is dense; expert parallelism needs a mixture of experts");
  const ModelConfig v3 = model_preset("deepseek-v3");
  EXPECT_FALSE(v3.is_moe_layer(2));
  EXPECT_TRUE(v3.is_moe_layer(3));
}

}  // namespace
}  // namespace uniference
