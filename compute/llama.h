// A Llama-like decoder (RMSNorm, RoPE, grouped-query attention with a KV cache, SwiGLU),
// tensor-parallel in the Megatron way, float32. Activations are [batch, seq, ...]; every
// function also takes them without the batch dimension (one sequence).
//
// A rank may hold only a pipeline stage (a range of layers; the first stage also holds the
// embedding, the last the final norm and output projection), and its parts can be run one
// phase at a time (Voltage). Each phase names its compute with label_compute
// ("layer3.q_proj"), so traces and reports can attribute time and bytes to it.
#pragma once

#include <ATen/ATen.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compute/comm.h"
#include "compute/model_config.h"
#include "compute/moe/expert_group.h"
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

// Rotates each feature pair (2i, 2i+1) of x [batch, seq, heads, head_dim] (or [seq, heads,
// head_dim]) by the angle of its position start_pos + s, as the reference Llama does with
// complex numbers.
at::Tensor apply_rope(const at::Tensor& x, const RopeTable& rope, int64_t start_pos);

// Causal grouped-query attention of q [batch, seq, n_heads, head_dim] over the keys and
// values k, v [batch, keys, n_kv_heads, head_dim] (keys >= start_pos + seq): query s (at
// position start_pos + s) sees keys 0 .. start_pos + s, and query head h reads KV head
// h / (n_heads / n_kv_heads). Returns [batch, seq, n_heads * head_dim]. Without the batch
// dimension in, none out.
at::Tensor attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                     int64_t start_pos);

// silu(gate) * up.
at::Tensor swiglu(const at::Tensor& gate, const at::Tensor& up);

// Where a shard's weights come from: the seed every weight is a function of, and whether
// to build only their shapes (meta tensors: no memory, no numbers).
struct WeightSource {
  uint64_t seed = 1;
  bool shapes_only = false;
};

// Where a forward pass writes its keys and values: the KV cache rows of sequences
// slot .. slot + batch - 1.
struct CacheSlots {
  int64_t first = 0;
};

// Sequences that share a forward pass but not their positions (continuous batching): row i
// of the batch continues the sequence held in KV-cache slot slots[i], its first new
// position being starts[i]. Every row has the same number of new positions.
struct SequenceRows {
  std::vector<int64_t> slots;
  std::vector<int64_t> starts;
};

// Where the rows of a [rows, seq, ...] batch sit when each starts where it pleases (row i
// at positions starts[i] .. starts[i] + seq - 1 of KV-cache slot slots[i]): worked out once
// per forward pass, so every layer rotates and caches its whole batch in one go.
struct RowPositions {
  at::Tensor slots;      // [rows * seq] int64: the cache slot of each (row, s)
  at::Tensor positions;  // [rows * seq] int64: its position
  at::Tensor cos;        // [rows, seq, 1, head_dim / 2]: its rotary angles
  at::Tensor sin;
};
RowPositions row_positions(const RopeTable& rope, const SequenceRows& rows, int64_t seq);
at::Tensor apply_rope(const at::Tensor& x, const RowPositions& placed);

// The KV cache's size: `batch` sequences of `length` positions (0: the model's max_seq).
struct CacheShape {
  int64_t batch = 1;
  int64_t length = 0;
};

// Self-attention of one layer: q/k/v column-parallel split by heads (this rank holds
// n_heads / tp query heads and the n_kv_heads / tp KV heads they read), the output
// projection row-parallel. Holds this rank's KV cache.
class Attention {
 public:
  Attention(const ModelConfig& config, const WeightSource& weights, int64_t layer, TpGroup group,
            CacheShape cache = {});

  // x [batch, seq, dim] (normalised) at positions start_pos.. -> [batch, seq, dim]; stores
  // this rank's keys and values for those positions in the cache. It is query(), then
  // store_keys_values(), then attend() over every key up to the last of x.
  at::Tensor forward(const at::Tensor& x, int64_t start_pos, const RopeTable& rope,
                     CacheSlots slots = {});

  // The phases of forward(), for schedules that split them (Voltage). Queries of x
  // [batch, seq, dim] at positions start_pos.. -> [batch, seq, local heads, head_dim].
  at::Tensor query(const at::Tensor& x, int64_t start_pos, const RopeTable& rope) const;
  // Keys and values of x at positions start_pos.., written into the cache.
  void store_keys_values(const at::Tensor& x, int64_t start_pos, const RopeTable& rope,
                         CacheSlots slots);
  // Attention of q (positions start_pos..) over cached keys 0 .. keys - 1, then the output
  // projection: [batch, seq, dim].
  at::Tensor attend(const at::Tensor& q, int64_t start_pos, int64_t keys, CacheSlots slots) const;

  // forward() for rows at positions of their own, x [rows, seq, dim]: the projections, the
  // rotation and the cache writes run over the whole batch, attention row by row (each row
  // reads only its own keys, as paged attention does).
  at::Tensor forward_rows(const at::Tensor& x, const SequenceRows& rows,
                          const RowPositions& placed);

  uint64_t weight_bytes() const;
  uint64_t cache_bytes() const;

  // A copy of this rank's keys and values of slot `slot`, positions 0 .. positions - 1:
  // [2, positions, local KV heads, head_dim]; and the way back in.
  at::Tensor cached(int64_t slot, int64_t positions) const;
  void load(int64_t slot, const at::Tensor& keys_values);

 private:
  int64_t layer_;
  int64_t n_local_heads_;
  int64_t n_local_kv_heads_;
  int64_t head_dim_;
  ColumnParallelLinear wq_, wk_, wv_;
  RowParallelLinear wo_;
  at::Tensor cache_k_, cache_v_;  // [cache batch, cache length, n_local_kv_heads, head_dim]
};

// w2(swiglu(w1 x, w3 x)): w1 (gate) and w3 (up) column-parallel, w2 (down) row-parallel.
class FeedForward {
 public:
  // The dense MLP of a layer: width ffn_dim, weights "feed_forward.w1" ..., label "mlp".
  FeedForward(const ModelConfig& config, const WeightSource& weights, int64_t layer,
              TpGroup group);
  // Any SwiGLU MLP of `hidden` features: weights `name` + ".w1" ..., compute labelled
  // layer_label(layer, label) (an expert: "moe.expert5", "experts").
  FeedForward(int64_t dim, int64_t hidden, const WeightSource& weights, int64_t layer,
              const std::string& name, TpGroup group, const char* label);
  at::Tensor forward(const at::Tensor& x) const;
  uint64_t weight_bytes() const;

 private:
  int64_t layer_;
  const char* label_;
  ColumnParallelLinear w1_, w3_;
  RowParallelLinear w2_;
};

class MoeFeedForward;

// Pre-norm residual block: h = x + attention(norm(x)); out = h + mlp(norm(h)), the MLP dense
// or, in a mixture of experts' MoE layers, routed to experts (compute/moe/).
class DecoderLayer {
 public:
  DecoderLayer(const ModelConfig& config, const WeightSource& weights, int64_t layer,
               TpGroup group, CacheShape cache = {}, const ExpertGroup& experts = {});
  DecoderLayer(DecoderLayer&&) noexcept;
  ~DecoderLayer();
  at::Tensor forward(const at::Tensor& x, int64_t start_pos, const RopeTable& rope,
                     CacheSlots slots = {});
  at::Tensor forward_rows(const at::Tensor& x, const SequenceRows& rows,
                          const RowPositions& placed);

  int64_t index() const { return layer_; }
  // rms_norm with this layer's attention (or feed-forward) norm weight, labelled.
  at::Tensor attention_normed(const at::Tensor& x) const;
  at::Tensor ffn_normed(const at::Tensor& x) const;

  Attention& attention() { return attention_; }
  const Attention& attention() const { return attention_; }
  // The MLP of normed input [..., dim]: dense, or the experts'.
  at::Tensor mlp(const at::Tensor& normed);
  const at::Tensor& attention_norm() const { return attention_norm_; }
  const at::Tensor& ffn_norm() const { return ffn_norm_; }
  uint64_t weight_bytes() const;

 private:
  int64_t layer_;
  double norm_eps_;
  at::Tensor attention_norm_, ffn_norm_;  // [dim], replicated on every rank
  Attention attention_;
  std::optional<FeedForward> feed_forward_;  // a dense layer's
  std::unique_ptr<MoeFeedForward> experts_;  // an MoE layer's
};

// Which positions forward() returns logits for. Serving needs only the last one; computing
// the others costs a full lm_head per prompt token.
enum class Logits { kAll, kLast };

// The part of the model one rank holds.
struct ModelShard {
  TpGroup tp;               // its tensor-parallel group
  int64_t first_layer = 0;  // its decoder layers: first_layer .. end_layer - 1
  int64_t end_layer = -1;   // -1: through the last layer
  CacheShape cache;         // its KV cache
  bool shapes_only = false;  // meta tensors throughout: shapes and costs, no numbers
  ExpertGroup experts;      // a mixture of experts': where its experts live
};

class LlamaModel {
 public:
  // Random weights from seed, identical for every tensor-parallel degree. tp: a Comm*,
  // nullptr for a single device, or TpGroup::detached(rank, size) to use the layers one by
  // one (forward() then throws). Throws std::invalid_argument when the config is
  // inconsistent or the tensor-parallel degree does not divide it.
  LlamaModel(const ModelConfig& config, uint64_t seed, TpGroup tp = {});
  // Only the shard's layers; the embedding when it holds layer 0, the final norm and output
  // projection when it holds the last layer. Throws std::invalid_argument for an empty or
  // out-of-range layer range as well.
  LlamaModel(const ModelConfig& config, uint64_t seed, const ModelShard& shard);

  // tokens int64 [batch, seq] (or [seq]) at positions start_pos.. -> float32 logits
  // [batch, seq, vocab] (or [batch, 1, vocab] for Logits::kLast; without the batch
  // dimension when tokens had none), the full vocabulary on every rank. The whole model
  // only. Runs under at::NoGradGuard, which stays in force across the communication calls
  // inside (a fiber switch must carry GradMode). Writes the KV cache of sequences slots..
  // for those positions; later calls may attend to every position before theirs.
  at::Tensor forward(const at::Tensor& tokens, int64_t start_pos, Logits which = Logits::kAll,
                     CacheSlots slots = {});

  // forward() for a batch whose rows sit at positions of their own: tokens [rows, seq] ->
  // logits [rows, seq or 1, vocab]. Throws std::invalid_argument when a row's slot or
  // positions fall outside the cache.
  at::Tensor forward_rows(const at::Tensor& tokens, const SequenceRows& rows,
                          Logits which = Logits::kLast);
  // forward_layers() for such a batch (a pipeline stage's part of forward_rows).
  at::Tensor forward_layers_rows(at::Tensor hidden, const SequenceRows& rows);

  // The three parts of forward(), for a pipeline stage. tokens [batch, seq] (or [seq])
  // -> hidden [batch, seq, dim]: needs the embedding.
  at::Tensor embed(const at::Tensor& tokens, int64_t start_pos) const;
  // hidden [batch, seq, dim] through this shard's layers.
  at::Tensor forward_layers(at::Tensor hidden, int64_t start_pos, CacheSlots slots = {});
  // hidden [batch, seq, dim] -> logits [batch, seq or 1, vocab]: needs the head.
  at::Tensor logits(const at::Tensor& hidden, Logits which) const;

  // The greedy next token of each row of hidden [rows, seq, dim] (its last position), on
  // every rank: each rank takes the best logit of its vocabulary slice and an all-gather
  // of (logit, id) pairs picks the best overall, the lowest id on ties as argmax over the
  // whole vocabulary does. The same tokens as greedy_tokens(logits(hidden, kLast)) for
  // 16 bytes per row and rank instead of the whole vocabulary's logits. Needs the head.
  std::vector<int64_t> greedy_next(const at::Tensor& hidden) const;

  const ModelConfig& config() const { return config_; }
  const TpGroup& tp() const { return tp_; }
  bool holds_embedding() const { return first_layer_ == 0; }
  bool holds_head() const { return end_layer_ == config_.n_layers; }
  int64_t first_layer() const { return first_layer_; }
  int64_t end_layer() const { return end_layer_; }

  // The parts, for running a detached shard step by step. layer(i) takes the model's layer
  // index; embedding() and output() throw when this shard does not hold them.
  const VocabParallelEmbedding& embedding() const;
  DecoderLayer& layer(int64_t i);
  const at::Tensor& norm() const { return norm_; }
  const ColumnParallelLinear& output() const;
  const RopeTable& rope() const { return rope_; }
  bool shapes_only() const { return shapes_only_; }

  // A copy of this shard's KV cache of slot `slot`, positions 0 .. positions - 1, every
  // layer: [layers, 2, positions, local KV heads, head_dim] (what a prefill pool hands a
  // decode pool); load_kv_cache() puts one back into a slot.
  at::Tensor kv_cache(int64_t slot, int64_t positions);
  void load_kv_cache(int64_t slot, const at::Tensor& kv);

  // What this shard holds, in bytes: its weights, and its KV cache.
  uint64_t weight_bytes() const;
  uint64_t cache_bytes() const;
  // An estimate of the largest set of activations alive in one forward pass of `batch`
  // sequences, `queries` new positions each, attending to `keys` positions: a layer's input,
  // residual and normed copies [batch, queries, dim], its MLP's three [batch, queries, local
  // ffn] tensors, its attention scores [batch, local heads, queries, keys], and the logits of
  // one position per sequence [batch, vocab]; float32.
  uint64_t activation_bytes(int64_t batch, int64_t queries, int64_t keys) const;
  // Options of the tensors this shard computes on (float32; meta when shapes_only).
  at::TensorOptions activation_options() const { return norm_.options(); }

 private:
  void check_tokens(const at::Tensor& tokens, int64_t start_pos) const;
  void check_rows(const SequenceRows& rows, int64_t batch, int64_t seq) const;

  ModelConfig config_;
  TpGroup tp_;
  int64_t first_layer_;
  int64_t end_layer_;
  int64_t cache_batch_;
  int64_t cache_length_;
  bool shapes_only_;
  std::optional<VocabParallelEmbedding> embedding_;
  std::vector<DecoderLayer> layers_;
  at::Tensor norm_;  // [dim]
  std::optional<ColumnParallelLinear> output_;
  RopeTable rope_;
};

}  // namespace uniference
