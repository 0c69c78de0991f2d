#include "compute/llama.h"

#include <ATen/CPUGeneratorImpl.h>
#include "compute/test/small_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "compute/generation.h"

namespace uniference {
namespace {

at::Tensor random_input(std::vector<int64_t> sizes, uint64_t seed) {
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(seed);
  return at::randn(sizes, generator, at::TensorOptions().dtype(at::kFloat));
}

at::Tensor ids(const std::vector<int64_t>& values) {
  return at::tensor(values, at::TensorOptions().dtype(at::kLong));
}

TEST(RmsNorm, MatchesTheFormula) {
  const at::Tensor x = random_input({3, 16}, 1);
  const at::Tensor w = random_input({16}, 2);
  const double eps = 1e-5;
  const at::Tensor y = rms_norm(x, w, eps);
  auto xa = x.accessor<float, 2>();
  auto wa = w.accessor<float, 1>();
  auto ya = y.accessor<float, 2>();
  for (int64_t r = 0; r < 3; ++r) {
    double sum_sq = 0;
    for (int64_t i = 0; i < 16; ++i) sum_sq += double(xa[r][i]) * xa[r][i];
    const double scale = 1.0 / std::sqrt(sum_sq / 16 + eps);
    for (int64_t i = 0; i < 16; ++i) {
      EXPECT_NEAR(ya[r][i], xa[r][i] * scale * wa[i], 1e-5) << r << "," << i;
    }
  }
}

TEST(Rope, RotatesPairsByPositionTimesFrequency) {
  const int64_t seq = 3, heads = 2, head_dim = 8, start = 5;
  const double theta = 10000;
  const RopeTable rope = rope_table(head_dim, 16, theta);
  const at::Tensor x = random_input({seq, heads, head_dim}, 3);
  const at::Tensor y = apply_rope(x, rope, start);
  auto xa = x.accessor<float, 3>();
  auto ya = y.accessor<float, 3>();
  for (int64_t s = 0; s < seq; ++s) {
    for (int64_t h = 0; h < heads; ++h) {
      for (int64_t i = 0; i < head_dim / 2; ++i) {
        const double angle = double(start + s) * std::pow(theta, -2.0 * i / head_dim);
        const double x0 = xa[s][h][2 * i], x1 = xa[s][h][2 * i + 1];
        EXPECT_NEAR(ya[s][h][2 * i], x0 * std::cos(angle) - x1 * std::sin(angle), 1e-5);
        EXPECT_NEAR(ya[s][h][2 * i + 1], x0 * std::sin(angle) + x1 * std::cos(angle), 1e-5);
      }
    }
  }
}

TEST(Rope, RowsAtTheirOwnPositionsRotateAsEachRowAlone) {
  const RopeTable rope = rope_table(8, 32, 10000);
  const SequenceRows rows{{2, 0, 1}, {0, 9, 30}};
  const int64_t seq = 2;
  const at::Tensor x = random_input({3, seq, 2, 8}, 6);
  const RowPositions placed = row_positions(rope, rows, seq);
  const at::Tensor together = apply_rope(x, placed);
  for (int64_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(at::allclose(together[i], apply_rope(x[i], rope, rows.starts[size_t(i)])))
        << "row " << i;
    for (int64_t s = 0; s < seq; ++s) {
      EXPECT_EQ(placed.slots[i * seq + s].item<int64_t>(), rows.slots[size_t(i)]);
      EXPECT_EQ(placed.positions[i * seq + s].item<int64_t>(), rows.starts[size_t(i)] + s);
    }
  }
}

TEST(Rope, DotProductsDependOnlyOnRelativePosition) {
  const RopeTable rope = rope_table(16, 64, 500000);
  const at::Tensor q = random_input({1, 1, 16}, 4), k = random_input({1, 1, 16}, 5);
  auto score = [&](int64_t q_pos, int64_t k_pos) {
    return (apply_rope(q, rope, q_pos) * apply_rope(k, rope, k_pos)).sum().item<double>();
  };
  EXPECT_NEAR(score(7, 3), score(40, 36), 1e-4);
  EXPECT_NEAR(score(0, 0), (q * k).sum().item<double>(), 1e-5);
}

TEST(Attention, MatchesANaiveCausalGroupedSoftmax) {
  const int64_t seq = 3, start = 2, keys = start + seq, heads = 4, kv_heads = 2, d = 8;
  const at::Tensor q = random_input({seq, heads, d}, 6);
  const at::Tensor k = random_input({keys, kv_heads, d}, 7);
  const at::Tensor v = random_input({keys, kv_heads, d}, 8);
  const at::Tensor out = attention(q, k, v, start);
  ASSERT_EQ(out.sizes(), (at::IntArrayRef{seq, heads * d}));
  auto qa = q.accessor<float, 3>();
  auto ka = k.accessor<float, 3>();
  auto va = v.accessor<float, 3>();
  auto oa = out.accessor<float, 2>();
  for (int64_t s = 0; s < seq; ++s) {
    for (int64_t h = 0; h < heads; ++h) {
      const int64_t g = h / (heads / kv_heads);
      const int64_t visible = start + s + 1;
      std::vector<double> weights(visible);
      double max_score = -1e300, total = 0;
      for (int64_t j = 0; j < visible; ++j) {
        double dot = 0;
        for (int64_t i = 0; i < d; ++i) dot += double(qa[s][h][i]) * ka[j][g][i];
        weights[j] = dot / std::sqrt(double(d));
        max_score = std::max(max_score, weights[j]);
      }
      for (double& w : weights) total += (w = std::exp(w - max_score));
      for (int64_t i = 0; i < d; ++i) {
        double expected = 0;
        for (int64_t j = 0; j < visible; ++j) expected += weights[j] / total * va[j][g][i];
        EXPECT_NEAR(oa[s][h * d + i], expected, 1e-5) << s << " " << h << " " << i;
      }
    }
  }
}

TEST(Swiglu, IsSiluGateTimesUp) {
  const at::Tensor gate = random_input({10}, 9), up = random_input({10}, 10);
  const at::Tensor expected = gate / (1 + at::exp(-gate)) * up;
  EXPECT_TRUE(at::allclose(swiglu(gate, up), expected, 1e-5, 1e-6));
}

TEST(LlamaModel, LogitsForEveryPositionOrTheLast) {
  LlamaModel model(small_config(), 1);
  const at::Tensor tokens = ids({1, 2, 3, 4, 5});
  const at::Tensor all = model.forward(tokens, 0);
  ASSERT_EQ(all.sizes(), (at::IntArrayRef{5, 512}));
  EXPECT_EQ(all.scalar_type(), at::kFloat);
  EXPECT_TRUE(at::isfinite(all).all().item<bool>());
  // Random weights scaled by 1/sqrt(fan-in) keep the logits of order one.
  EXPECT_GT(all.std().item<double>(), 0.1);
  EXPECT_LT(all.std().item<double>(), 10);
  const at::Tensor last = model.forward(tokens, 0, Logits::kLast);
  EXPECT_TRUE(at::allclose(last, all.narrow(0, 4, 1), 1e-4, 1e-5));
}

TEST(LlamaModel, DecodingWithTheCacheMatchesOnePrefill) {
  LlamaModel model(small_config(), 2);
  const std::vector<int64_t> prompt = {10, 20, 30, 40, 50, 60};
  const at::Tensor full = model.forward(ids(prompt), 0);
  model.forward(ids({10, 20, 30}), 0);
  const at::Tensor chunk = model.forward(ids({40, 50}), 3);  // causal mask with an offset
  const at::Tensor step = model.forward(ids({60}), 5);
  EXPECT_TRUE(at::allclose(chunk, full.narrow(0, 3, 2), 1e-4, 1e-4));
  EXPECT_TRUE(at::allclose(step, full.narrow(0, 5, 1), 1e-4, 1e-4));
}

TEST(LlamaModel, RejectsBadInput) {
  LlamaModel model(small_config(), 3);
  EXPECT_THROW(model.forward(ids({512}), 0), std::invalid_argument);
  EXPECT_THROW(model.forward(ids({-1}), 0), std::invalid_argument);
  EXPECT_THROW(model.forward(ids({1, 2}), 63), std::invalid_argument);
  EXPECT_THROW(model.forward(at::ones({2}), 0), std::invalid_argument);
}

TEST(LlamaModel, RejectsTensorParallelDegreesThatDoNotDivide) {
  try {
    LlamaModel model(model_preset("tiny"), 1, TpGroup::detached(0, 3));
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("tp=3 does not divide n_heads=8"), std::string::npos)
        << e.what();
  }
  LlamaModel shard(small_config(), 1, TpGroup::detached(0, 2));
  EXPECT_THROW(shard.forward(ids({1}), 0), std::logic_error);
}

// Runs every rank's detached shard layer by layer and combines their shares as the
// collectives would (sum for all-reduce, side by side for all-gather): the result must be
// the single-device model's.
at::Tensor sharded_forward(std::vector<LlamaModel>& shards, const at::Tensor& tokens,
                           int64_t start_pos) {
  at::NoGradGuard no_grad;
  const ModelConfig& config = shards.front().config();
  auto all_reduce = [&](auto share_of_rank) {
    at::Tensor sum = share_of_rank(shards[0]);
    for (size_t r = 1; r < shards.size(); ++r) sum = sum + share_of_rank(shards[r]);
    return sum;
  };
  at::Tensor h = all_reduce([&](LlamaModel& m) { return m.embedding().forward(tokens); });
  for (int64_t l = 0; l < config.n_layers; ++l) {
    const at::Tensor x = h;
    h = x + all_reduce([&](LlamaModel& m) {
          DecoderLayer& layer = m.layer(l);
          return layer.attention().forward(rms_norm(x, layer.attention_norm(), config.norm_eps),
                                           start_pos, m.rope());
        });
    const at::Tensor y = h;
    h = y + all_reduce([&](LlamaModel& m) {
          DecoderLayer& layer = m.layer(l);
          return layer.mlp(rms_norm(y, layer.ffn_norm(), config.norm_eps));
        });
  }
  std::vector<at::Tensor> vocab_slices;
  for (LlamaModel& m : shards) {
    vocab_slices.push_back(m.output().forward(rms_norm(h, m.norm(), config.norm_eps)));
  }
  return at::cat(vocab_slices, -1);
}

TEST(LlamaModel, TensorParallelShardsComputeTheSingleDeviceModel) {
  const ModelConfig config = small_config();
  LlamaModel single(config, 7);
  const at::Tensor prompt = ids({3, 141, 59, 265, 358, 97});
  const at::Tensor expected_prefill = single.forward(prompt, 0);
  const at::Tensor expected_decode = single.forward(ids({323}), 6);
  for (int tp : {2, 4}) {
    std::vector<LlamaModel> shards;
    for (int rank = 0; rank < tp; ++rank)
      shards.emplace_back(config, 7, TpGroup::detached(rank, tp));
    EXPECT_TRUE(at::allclose(sharded_forward(shards, prompt, 0), expected_prefill, 1e-4, 1e-4))
        << "tp " << tp;
    EXPECT_TRUE(at::allclose(sharded_forward(shards, ids({323}), 6), expected_decode, 1e-4, 1e-4))
        << "tp " << tp;
  }
}

TEST(Generation, GreedyTokensAreTheArgmaxAndDeterministic) {
  const ModelConfig tiny = model_preset("tiny");
  const std::vector<int64_t> prompt = make_prompt(8, tiny.vocab, 11);
  LlamaModel model(tiny, 1);
  std::vector<std::pair<int64_t, int64_t>> seen;
  const std::vector<int64_t> tokens = generate(
      model, prompt, 4, [&](int64_t step, int64_t token) { seen.emplace_back(step, token); });
  ASSERT_EQ(tokens.size(), 4u);
  ASSERT_EQ(seen.size(), 4u);
  for (int64_t i = 0; i < 4; ++i) {
    EXPECT_EQ(seen[i].first, i);
    EXPECT_EQ(seen[i].second, tokens[i]);
    EXPECT_GE(tokens[i], 0);
    EXPECT_LT(tokens[i], tiny.vocab);
  }
  // The first token is the argmax of the prompt's last logits, computed here directly.
  LlamaModel again(tiny, 1);
  const at::Tensor logits =
      again.forward(at::tensor(prompt, at::TensorOptions().dtype(at::kLong)), 0);
  EXPECT_EQ(tokens[0], logits[-1].argmax().item<int64_t>());
  EXPECT_EQ(generate(again, prompt, 4), tokens);
  LlamaModel other(tiny, 2);
  EXPECT_NE(generate(other, prompt, 4), tokens);
}

TEST(Generation, EdgeCases) {
  LlamaModel model(small_config(), 4);
  EXPECT_TRUE(generate(model, {1, 2}, 0).empty());
  EXPECT_THROW(generate(model, {}, 2), std::invalid_argument);
  EXPECT_THROW(generate(model, std::vector<int64_t>(60, 1), 6), std::invalid_argument);
  EXPECT_EQ(generate(model, std::vector<int64_t>(60, 1), 5).size(), 5u);  // fills max_seq
}

TEST(Generation, PromptsAreDeterministicAndInRange) {
  const std::vector<int64_t> a = make_prompt(100, 50, 3);
  EXPECT_EQ(a, make_prompt(100, 50, 3));
  EXPECT_NE(a, make_prompt(100, 50, 4));
  for (int64_t id : a) {
    EXPECT_GE(id, 0);
    EXPECT_LT(id, 50);
  }
}

}  // namespace
}  // namespace uniference
