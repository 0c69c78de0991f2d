// A Llama-like decoder (RMSNorm, RoPE, grouped-query attention with a KV cache, SwiGLU),
// tensor-parallel in the Megatron way. Batch 1, float32.
#pragma once

#include <ATen/ATen.h>

#include <cstdint>
#include <vector>

#include "compute/comm.h"
#include "compute/model_config.h"
#include "compute/parallel_layers.h"

namespace uniference {

// x / sqrt(mean(x^2) + eps) * weight, over the last dim.
at::Tensor rms_norm(const at::Tensor& x, const at::Tensor& weight, double eps);

// cos and sin of the rotary angles p * theta^(-2i / head_dim) for positions
// p < max_seq and pairs i < head_dim / 2: two [max_seq, head_dim / 2] float32 tables.
struct RopeTable {
  at::Tensor cos;
  at::Tensor sin;
};
RopeTable rope_table(int64_t head_dim, int64_t max_seq, double theta);

// Rotates each feature pair (2i, 2i+1) of x [seq, heads, head_dim] by the angle of its
// position start_pos + s, as the reference Llama does with complex numbers.
at::Tensor apply_rope(const at::Tensor& x, const RopeTable& rope, int64_t start_pos);

// Causal grouped-query attention of q [seq, n_heads, head_dim] over the keys and values
// k, v [start_pos + seq, n_kv_heads, head_dim]: query s (at position start_pos + s) sees
// keys 0 .. start_pos + s, and query head h reads KV head h / (n_heads / n_kv_heads).
// Returns [seq, n_heads * head_dim].
at::Tensor attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                     int64_t start_pos);

// silu(gate) * up.
at::Tensor swiglu(const at::Tensor& gate, const at::Tensor& up);

// Self-attention of one layer: q/k/v column-parallel split by heads (this rank holds
// n_heads / tp query heads and the n_kv_heads / tp KV heads they read), the output
// projection row-parallel. Holds this rank's KV cache.
class Attention {
 public:
  Attention(const ModelConfig& config, uint64_t seed, int64_t layer, TpGroup group);

  // x [seq, dim] (normalised) at positions start_pos.. -> [seq, dim]; stores this rank's
  // keys and values for those positions in the cache.
  at::Tensor forward(const at::Tensor& x, int64_t start_pos, const RopeTable& rope);

 private:
  int64_t n_local_heads_;
  int64_t n_local_kv_heads_;
  int64_t head_dim_;
  ColumnParallelLinear wq_, wk_, wv_;
  RowParallelLinear wo_;
  at::Tensor cache_k_, cache_v_;  // [max_seq, n_local_kv_heads, head_dim]
};

// w2(swiglu(w1 x, w3 x)): w1 (gate) and w3 (up) column-parallel, w2 (down) row-parallel.
class FeedForward {
 public:
  FeedForward(const ModelConfig& config, uint64_t seed, int64_t layer, TpGroup group);
  at::Tensor forward(const at::Tensor& x) const;

 private:
  ColumnParallelLinear w1_, w3_;
  RowParallelLinear w2_;
};

// Pre-norm residual block: h = x + attention(norm(x)); out = h + feed_forward(norm(h)).
class DecoderLayer {
 public:
  DecoderLayer(const ModelConfig& config, uint64_t seed, int64_t layer, TpGroup group);
  at::Tensor forward(const at::Tensor& x, int64_t start_pos, const RopeTable& rope);

  Attention& attention() { return attention_; }
  const FeedForward& feed_forward() const { return feed_forward_; }
  const at::Tensor& attention_norm() const { return attention_norm_; }
  const at::Tensor& ffn_norm() const { return ffn_norm_; }

 private:
  double norm_eps_;
  at::Tensor attention_norm_, ffn_norm_;  // [dim], replicated on every rank
  Attention attention_;
  FeedForward feed_forward_;
};

// Which positions forward() returns logits for. Serving needs only the last one; computing
// the others costs a full lm_head per prompt token.
enum class Logits { kAll, kLast };

class LlamaModel {
 public:
  // Random weights from seed, identical for every tensor-parallel degree. tp: a Comm*,
  // nullptr for a single device, or TpGroup::detached(rank, size) to use the layers one by
  // one (forward() then throws). Throws std::invalid_argument when the config is
  // inconsistent or the tensor-parallel degree does not divide it.
  LlamaModel(const ModelConfig& config, uint64_t seed, TpGroup tp = {});

  // tokens int64 [seq] at positions start_pos.. -> float32 logits [seq, vocab] (or
  // [1, vocab] for Logits::kLast), the full vocabulary on every rank. Runs under
  // at::NoGradGuard, which stays in force across the communication calls inside (a fiber
  // switch must carry GradMode). Writes the KV cache for those positions; later calls may
  // attend to every position before theirs.
  at::Tensor forward(const at::Tensor& tokens, int64_t start_pos, Logits which = Logits::kAll);

  const ModelConfig& config() const { return config_; }
  const TpGroup& tp() const { return tp_; }

  // The parts, for running a detached shard step by step.
  const VocabParallelEmbedding& embedding() const { return embedding_; }
  DecoderLayer& layer(int64_t i) { return layers_.at(i); }
  const at::Tensor& norm() const { return norm_; }
  const ColumnParallelLinear& output() const { return output_; }
  const RopeTable& rope() const { return rope_; }

 private:
  void check_tokens(const at::Tensor& tokens, int64_t start_pos) const;

  ModelConfig config_;
  TpGroup tp_;
  VocabParallelEmbedding embedding_;
  std::vector<DecoderLayer> layers_;
  at::Tensor norm_;  // [dim]
  ColumnParallelLinear output_;
  RopeTable rope_;
};

}  // namespace uniference
