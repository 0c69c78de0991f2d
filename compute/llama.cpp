#include "compute/llama.h"

#include "compute/compute_label.h"
#include "compute/generation.h"
#include "compute/moe/moe_feed_forward.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace uniference {
namespace {

ParamKey key(const WeightSource& weights, int64_t layer, const char* name) {
  return ParamKey{weights.seed, layer, name, weights.shapes_only};
}

at::TensorOptions on(const WeightSource& weights) {
  return at::TensorOptions().dtype(at::kFloat).device(weights.shapes_only ? at::kMeta : at::kCPU);
}

const ModelConfig& checked(const ModelConfig& config, int tp) {
  std::string problem = check_model_config(config);
  if (problem.empty()) problem = check_tensor_parallel(config, tp);
  if (!problem.empty()) throw std::invalid_argument(problem);
  return config;
}

}  // namespace

at::Tensor rms_norm(const at::Tensor& x, const at::Tensor& weight, double eps) {
  return x * at::rsqrt(x.pow(2).mean(-1, /*keepdim=*/true) + eps) * weight;
}

RopeTable rope_table(int64_t head_dim, int64_t max_seq, double theta) {
  // Double precision: at position 2047 float32 angles would already be off by ~1e-4 rad.
  const auto f64 = at::TensorOptions().dtype(at::kDouble);
  const at::Tensor pair = at::arange(0, head_dim / 2, f64);
  const at::Tensor inv_freq = at::pow(theta, pair * (-2.0 / static_cast<double>(head_dim)));
  const at::Tensor angles = at::outer(at::arange(0, max_seq, f64), inv_freq);
  return RopeTable{at::cos(angles).to(at::kFloat), at::sin(angles).to(at::kFloat)};
}

namespace {
// Rotates each feature pair (2i, 2i+1) of x by the angles whose cos and sin broadcast
// against x's [..., head_dim / 2] pairs.
at::Tensor rotate_pairs(const at::Tensor& x, const at::Tensor& cos, const at::Tensor& sin) {
  std::vector<int64_t> pair_sizes = x.sizes().vec();
  pair_sizes.back() = x.size(-1) / 2;
  pair_sizes.push_back(2);
  const at::Tensor pairs = x.reshape(pair_sizes);
  const at::Tensor x0 = pairs.select(-1, 0), x1 = pairs.select(-1, 1);
  return at::stack({x0 * cos - x1 * sin, x0 * sin + x1 * cos}, -1).view(x.sizes());
}
}  // namespace

at::Tensor apply_rope(const at::Tensor& x, const RopeTable& rope, int64_t start_pos) {
  const int64_t seq = x.size(-3);
  return rotate_pairs(x, rope.cos.narrow(0, start_pos, seq).unsqueeze(1),  // [seq, 1, pairs]
                      rope.sin.narrow(0, start_pos, seq).unsqueeze(1));
}

RowPositions row_positions(const RopeTable& rope, const SequenceRows& rows, int64_t seq) {
  std::vector<int64_t> slots, positions;
  slots.reserve(rows.slots.size() * size_t(seq));
  positions.reserve(slots.capacity());
  for (size_t i = 0; i < rows.slots.size(); ++i) {
    for (int64_t s = 0; s < seq; ++s) {
      slots.push_back(rows.slots[i]);
      positions.push_back(rows.starts[i] + s);
    }
  }
  // On the rope table's device (meta in a shapes-only run), where the caches are too.
  const auto index = [&](const std::vector<int64_t>& values) {
    return at::tensor(values, at::kLong).to(rope.cos.device());
  };
  RowPositions placed{index(slots), index(positions), {}, {}};
  const std::vector<int64_t> sizes = {int64_t(rows.slots.size()), seq, 1, rope.cos.size(1)};
  const auto gathered = [&](const at::Tensor& table) {
    // libtorch 1.13 has no meta kernel for index_select: the shape is all there is.
    if (table.is_meta()) return at::empty(sizes, table.options());
    return table.index_select(0, placed.positions).view(sizes);
  };
  placed.cos = gathered(rope.cos);
  placed.sin = gathered(rope.sin);
  return placed;
}

at::Tensor apply_rope(const at::Tensor& x, const RowPositions& placed) {
  return rotate_pairs(x, placed.cos, placed.sin);
}

at::Tensor attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                     int64_t start_pos) {
  if (q.dim() == 3) return attention(q.unsqueeze(0), k.unsqueeze(0), v.unsqueeze(0), start_pos)[0];
  const int64_t batch = q.size(0), seq = q.size(1), n_heads = q.size(2), head_dim = q.size(3);
  const int64_t keys = k.size(1), n_kv_heads = k.size(2), group = n_heads / n_kv_heads;
  const int64_t rows = batch * n_kv_heads;
  // The `group` query heads sharing a KV head become rows of one matrix, so the shared
  // keys and values are read once rather than copied per query head.
  const at::Tensor q_grouped = q.permute({0, 2, 1, 3}).reshape({rows, group * seq, head_dim});
  at::Tensor scores =
      at::bmm(q_grouped, k.permute({0, 2, 3, 1}).reshape({rows, head_dim, keys}));
  scores.mul_(1.0 / std::sqrt(static_cast<double>(head_dim)));
  if (seq > 1 || keys > start_pos + seq) {
    // Query s sits at position start_pos + s and must not see later keys.
    const at::Tensor future =
        at::ones({seq, keys}, q.options().dtype(at::kBool)).triu(start_pos + 1);
    scores = scores.view({rows, group, seq, keys})
                 .masked_fill(future, -std::numeric_limits<float>::infinity())
                 .view({rows, group * seq, keys});
  }
  const at::Tensor out =
      at::bmm(at::softmax(scores, -1), v.permute({0, 2, 1, 3}).reshape({rows, keys, head_dim}));
  return out.view({batch, n_heads, seq, head_dim})
      .permute({0, 2, 1, 3})
      .reshape({batch, seq, n_heads * head_dim});
}

at::Tensor swiglu(const at::Tensor& gate, const at::Tensor& up) { return at::silu(gate) * up; }

namespace {
// Runs f on x with a batch dimension, and returns its result without one when x had none.
template <typename F>
at::Tensor batched(const at::Tensor& x, int64_t unbatched_dims, F f) {
  if (x.dim() == unbatched_dims) return f(x.unsqueeze(0))[0];
  return f(x);
}
}  // namespace

Attention::Attention(const ModelConfig& config, const WeightSource& weights, int64_t layer,
                     TpGroup group, CacheShape cache)
    : layer_(layer),
      n_local_heads_(config.n_heads / group.size),
      n_local_kv_heads_(config.n_kv_heads / group.size),
      head_dim_(config.head_dim()),
      wq_(config.dim, config.n_heads * head_dim_, key(weights, layer, "attention.wq"), group),
      wk_(config.dim, config.n_kv_heads * head_dim_, key(weights, layer, "attention.wk"), group),
      wv_(config.dim, config.n_kv_heads * head_dim_, key(weights, layer, "attention.wv"), group),
      wo_(config.n_heads * head_dim_, config.dim, key(weights, layer, "attention.wo"), group),
      // Allocated here, not in forward(), so a compute meter charges every forward alike.
      cache_k_(at::empty({cache.batch, cache.length > 0 ? cache.length : config.max_seq,
                          n_local_kv_heads_, head_dim_},
                         on(weights))),
      cache_v_(at::empty_like(cache_k_)) {}

at::Tensor Attention::query(const at::Tensor& x, int64_t start_pos, const RopeTable& rope) const {
  label_compute(layer_label(layer_, "q_proj"));
  const int64_t batch = x.size(0), seq = x.size(1);
  return apply_rope(wq_.forward(x).view({batch, seq, n_local_heads_, head_dim_}), rope,
                    start_pos);
}

void Attention::store_keys_values(const at::Tensor& x, int64_t start_pos, const RopeTable& rope,
                                  CacheSlots slots) {
  label_compute(layer_label(layer_, "kv_proj"));
  const int64_t batch = x.size(0), seq = x.size(1);
  if (slots.first < 0 || slots.first + batch > cache_k_.size(0) ||
      start_pos + seq > cache_k_.size(1)) {
    throw std::invalid_argument(
        "KV cache of " + std::to_string(cache_k_.size(0)) + " sequences x " +
        std::to_string(cache_k_.size(1)) + " positions cannot hold sequences " +
        std::to_string(slots.first) + ".." + std::to_string(slots.first + batch - 1) +
        " at positions " + std::to_string(start_pos) + ".." + std::to_string(start_pos + seq - 1));
  }
  const at::Tensor k =
      apply_rope(wk_.forward(x).view({batch, seq, n_local_kv_heads_, head_dim_}), rope, start_pos);
  const at::Tensor v = wv_.forward(x).view({batch, seq, n_local_kv_heads_, head_dim_});
  cache_k_.narrow(0, slots.first, batch).narrow(1, start_pos, seq).copy_(k);
  cache_v_.narrow(0, slots.first, batch).narrow(1, start_pos, seq).copy_(v);
}

at::Tensor Attention::attend(const at::Tensor& q, int64_t start_pos, int64_t keys,
                             CacheSlots slots) const {
  label_compute(layer_label(layer_, "attention"));
  const int64_t batch = q.size(0);
  const at::Tensor out =
      attention(q, cache_k_.narrow(0, slots.first, batch).narrow(1, 0, keys),
                cache_v_.narrow(0, slots.first, batch).narrow(1, 0, keys), start_pos);
  label_compute(layer_label(layer_, "o_proj"));
  return wo_.forward(out);
}

uint64_t Attention::weight_bytes() const {
  return wq_.weight().nbytes() + wk_.weight().nbytes() + wv_.weight().nbytes() +
         wo_.weight().nbytes();
}

at::Tensor Attention::cached(int64_t slot, int64_t positions) const {
  return at::stack({cache_k_[slot].narrow(0, 0, positions), cache_v_[slot].narrow(0, 0, positions)});
}

void Attention::load(int64_t slot, const at::Tensor& keys_values) {
  const int64_t positions = keys_values.size(1);
  cache_k_[slot].narrow(0, 0, positions).copy_(keys_values[0]);
  cache_v_[slot].narrow(0, 0, positions).copy_(keys_values[1]);
}

uint64_t Attention::cache_bytes() const { return cache_k_.nbytes() + cache_v_.nbytes(); }

at::Tensor Attention::forward(const at::Tensor& x, int64_t start_pos, const RopeTable& rope,
                              CacheSlots slots) {
  return batched(x, 2, [&](const at::Tensor& xb) {
    const at::Tensor q = query(xb, start_pos, rope);
    store_keys_values(xb, start_pos, rope, slots);
    return attend(q, start_pos, start_pos + xb.size(1), slots);
  });
}

at::Tensor Attention::forward_rows(const at::Tensor& x, const SequenceRows& rows,
                                   const RowPositions& placed) {
  const int64_t batch = x.size(0), seq = x.size(1);
  label_compute(layer_label(layer_, "q_proj"));
  const at::Tensor q =
      apply_rope(wq_.forward(x).view({batch, seq, n_local_heads_, head_dim_}), placed);
  label_compute(layer_label(layer_, "kv_proj"));
  const at::Tensor k =
      apply_rope(wk_.forward(x).view({batch, seq, n_local_kv_heads_, head_dim_}), placed);
  const at::Tensor v = wv_.forward(x).view({batch, seq, n_local_kv_heads_, head_dim_});
  const c10::List<c10::optional<at::Tensor>> where({placed.slots, placed.positions});
  cache_k_.index_put_(where, k.reshape({batch * seq, n_local_kv_heads_, head_dim_}));
  cache_v_.index_put_(where, v.reshape({batch * seq, n_local_kv_heads_, head_dim_}));
  label_compute(layer_label(layer_, "attention"));
  std::vector<at::Tensor> out;
  out.reserve(size_t(batch));
  for (int64_t i = 0; i < batch; ++i) {
    const int64_t slot = rows.slots[size_t(i)], start = rows.starts[size_t(i)];
    const int64_t keys = start + seq;
    out.push_back(attention(q.narrow(0, i, 1), cache_k_.narrow(0, slot, 1).narrow(1, 0, keys),
                            cache_v_.narrow(0, slot, 1).narrow(1, 0, keys), start));
  }
  label_compute(layer_label(layer_, "o_proj"));
  // A rank with no rows of its own in a pass (expert-parallel serving) still runs the pass.
  return wo_.forward(batch == 0 ? at::empty({0, seq, n_local_heads_ * head_dim_}, x.options())
                                : at::cat(out));
}

FeedForward::FeedForward(const ModelConfig& config, const WeightSource& weights, int64_t layer,
                         TpGroup group)
    : FeedForward(config.dim, config.ffn_dim, weights, layer, "feed_forward", group, "mlp") {}

FeedForward::FeedForward(int64_t dim, int64_t hidden, const WeightSource& weights, int64_t layer,
                         const std::string& name, TpGroup group, const char* label)
    : layer_(layer),
      label_(label),
      w1_(dim, hidden, key(weights, layer, (name + ".w1").c_str()), group),
      w3_(dim, hidden, key(weights, layer, (name + ".w3").c_str()), group),
      w2_(hidden, dim, key(weights, layer, (name + ".w2").c_str()), group) {}

uint64_t FeedForward::weight_bytes() const {
  return w1_.weight().nbytes() + w3_.weight().nbytes() + w2_.weight().nbytes();
}

at::Tensor FeedForward::forward(const at::Tensor& x) const {
  label_compute(layer_label(layer_, label_));
  return w2_.forward(swiglu(w1_.forward(x), w3_.forward(x)));
}

DecoderLayer::DecoderLayer(const ModelConfig& config, const WeightSource& weights, int64_t layer,
                           TpGroup group, CacheShape cache, const ExpertGroup& experts)
    : layer_(layer),
      norm_eps_(config.norm_eps),
      attention_norm_(at::ones({config.dim}, on(weights))),
      ffn_norm_(at::ones({config.dim}, on(weights))),
      attention_(config, weights, layer, group, cache) {
  if (config.is_moe_layer(layer)) {
    experts_ = std::make_unique<MoeFeedForward>(config, weights, layer, experts);
  } else {
    feed_forward_.emplace(config, weights, layer, group);
  }
}

DecoderLayer::DecoderLayer(DecoderLayer&&) noexcept = default;
DecoderLayer::~DecoderLayer() = default;

uint64_t DecoderLayer::weight_bytes() const {
  return attention_norm_.nbytes() + ffn_norm_.nbytes() + attention_.weight_bytes() +
         (experts_ ? experts_->weight_bytes() : feed_forward_->weight_bytes());
}

at::Tensor DecoderLayer::mlp(const at::Tensor& normed) {
  return experts_ ? experts_->forward(normed) : feed_forward_->forward(normed);
}

at::Tensor DecoderLayer::attention_normed(const at::Tensor& x) const {
  label_compute(layer_label(layer_, "attention_norm"));
  return rms_norm(x, attention_norm_, norm_eps_);
}

at::Tensor DecoderLayer::ffn_normed(const at::Tensor& x) const {
  label_compute(layer_label(layer_, "ffn_norm"));
  return rms_norm(x, ffn_norm_, norm_eps_);
}

at::Tensor DecoderLayer::forward(const at::Tensor& x, int64_t start_pos, const RopeTable& rope,
                                 CacheSlots slots) {
  const at::Tensor h = x + attention_.forward(attention_normed(x), start_pos, rope, slots);
  return h + mlp(ffn_normed(h));
}

at::Tensor DecoderLayer::forward_rows(const at::Tensor& x, const SequenceRows& rows,
                                      const RowPositions& placed) {
  const at::Tensor h = x + attention_.forward_rows(attention_normed(x), rows, placed);
  return h + mlp(ffn_normed(h));
}

namespace {
ModelShard whole_model(TpGroup tp) {
  ModelShard shard;
  shard.tp = tp;
  return shard;
}

int64_t end_layer_of(const ModelConfig& config, const ModelShard& shard) {
  return shard.end_layer < 0 ? config.n_layers : shard.end_layer;
}
}  // namespace

LlamaModel::LlamaModel(const ModelConfig& config, uint64_t seed, TpGroup tp)
    : LlamaModel(config, seed, whole_model(tp)) {}

LlamaModel::LlamaModel(const ModelConfig& config, uint64_t seed, const ModelShard& shard)
    : config_(checked(config, shard.tp.size)),
      tp_(shard.tp),
      first_layer_(shard.first_layer),
      end_layer_(end_layer_of(config, shard)),
      cache_batch_(shard.cache.batch),
      cache_length_(shard.cache.length > 0 ? shard.cache.length : config.max_seq),
      shapes_only_(shard.shapes_only),
      norm_(at::ones({config.dim}, on(WeightSource{seed, shard.shapes_only}))),
      rope_(rope_table(config.head_dim(), config.max_seq, config.rope_theta)) {
  const WeightSource weights{seed, shard.shapes_only};
  if (shapes_only_) rope_ = RopeTable{rope_.cos.to(at::kMeta), rope_.sin.to(at::kMeta)};
  if (first_layer_ < 0 || end_layer_ <= first_layer_ || end_layer_ > config.n_layers) {
    throw std::invalid_argument("a model shard holds layers " + std::to_string(first_layer_) +
                                ".." + std::to_string(end_layer_ - 1) + " of a model of " +
                                std::to_string(config.n_layers) + " layers");
  }
  if (shard.cache.batch < 1 || cache_length_ > config.max_seq) {
    throw std::invalid_argument("a KV cache of " + std::to_string(shard.cache.batch) +
                                " sequences x " + std::to_string(cache_length_) +
                                " positions (max_seq " + std::to_string(config.max_seq) + ")");
  }
  if (holds_embedding()) {
    embedding_.emplace(config.vocab, config.dim, key(weights, -1, "tok_embeddings"), tp_);
  }
  layers_.reserve(end_layer_ - first_layer_);
  for (int64_t i = first_layer_; i < end_layer_; ++i) {
    layers_.emplace_back(config, weights, i, tp_, CacheShape{shard.cache.batch, cache_length_},
                         shard.experts);
  }
  if (holds_head()) {
    output_.emplace(config.dim, config.vocab, key(weights, -1, "output"), tp_,
                    /*gather_output=*/true);
  }
}

const VocabParallelEmbedding& LlamaModel::embedding() const {
  if (!embedding_) throw std::logic_error("this model shard does not hold the embedding");
  return *embedding_;
}

const ColumnParallelLinear& LlamaModel::output() const {
  if (!output_) throw std::logic_error("this model shard does not hold the output projection");
  return *output_;
}

DecoderLayer& LlamaModel::layer(int64_t i) {
  if (i < first_layer_ || i >= end_layer_) {
    throw std::out_of_range("this model shard holds layers " + std::to_string(first_layer_) +
                            ".." + std::to_string(end_layer_ - 1) + ", not " + std::to_string(i));
  }
  return layers_[static_cast<size_t>(i - first_layer_)];
}

uint64_t LlamaModel::weight_bytes() const {
  uint64_t bytes = norm_.nbytes();
  if (embedding_) bytes += embedding_->weight().nbytes();
  if (output_) bytes += output_->weight().nbytes();
  for (const DecoderLayer& layer : layers_) bytes += layer.weight_bytes();
  return bytes;
}

at::Tensor LlamaModel::kv_cache(int64_t slot, int64_t positions) {
  check_rows(SequenceRows{{slot}, {0}}, 1, positions);
  std::vector<at::Tensor> layers;
  for (const DecoderLayer& layer : layers_) layers.push_back(layer.attention().cached(slot, positions));
  return at::stack(layers);
}

void LlamaModel::load_kv_cache(int64_t slot, const at::Tensor& kv) {
  if (kv.dim() != 5 || kv.size(0) != int64_t(layers_.size())) {
    throw std::invalid_argument("LlamaModel::load_kv_cache: expected [" +
                                std::to_string(layers_.size()) +
                                ", 2, positions, kv heads, head_dim] for this shard's layers");
  }
  check_rows(SequenceRows{{slot}, {0}}, 1, kv.size(2));
  for (size_t i = 0; i < layers_.size(); ++i) layers_[i].attention().load(slot, kv[int64_t(i)]);
}

uint64_t LlamaModel::cache_bytes() const {
  uint64_t bytes = 0;
  for (const DecoderLayer& layer : layers_) bytes += layer.attention().cache_bytes();
  return bytes;
}

uint64_t LlamaModel::activation_bytes(int64_t batch, int64_t queries, int64_t keys) const {
  const uint64_t rows = uint64_t(batch) * uint64_t(queries);
  const uint64_t local_ffn = uint64_t(config_.ffn_dim / tp_.size);
  const uint64_t local_heads = uint64_t(config_.n_heads / tp_.size);
  const uint64_t floats = 3 * rows * uint64_t(config_.dim) + 3 * rows * local_ffn +
                          uint64_t(batch) * local_heads * uint64_t(queries) * uint64_t(keys) +
                          uint64_t(batch) * uint64_t(config_.vocab);
  return floats * sizeof(float);
}

void LlamaModel::check_tokens(const at::Tensor& tokens, int64_t start_pos) const {
  if (tp_.is_detached()) {
    throw std::logic_error("LlamaModel::forward: a detached shard (rank " +
                           std::to_string(tp_.rank) + " of " + std::to_string(tp_.size) +
                           ") has no communicator; run its layers one by one");
  }
  if (tokens.scalar_type() != at::kLong || tokens.dim() < 1 || tokens.dim() > 2 ||
      tokens.numel() == 0) {
    throw std::invalid_argument(
        "LlamaModel::forward: tokens must be a non-empty int64 [seq] or [batch, seq]");
  }
  const int64_t seq = tokens.size(-1);
  if (start_pos < 0 || start_pos + seq > cache_length_) {
    throw std::invalid_argument("LlamaModel::forward: positions " + std::to_string(start_pos) +
                                ".." + std::to_string(start_pos + seq - 1) + " outside " +
                                (cache_length_ == config_.max_seq ? "max_seq=" : "the cache's ") +
                                std::to_string(cache_length_));
  }
  // Read the ids directly: a sharded embedding would turn a bad id into silent zeros.
  if (tokens.device().is_cpu() && tokens.is_contiguous()) {
    const int64_t* ids = tokens.data_ptr<int64_t>();
    for (int64_t i = 0; i < tokens.numel(); ++i) {
      if (ids[i] < 0 || ids[i] >= config_.vocab) {
        throw std::invalid_argument("LlamaModel::forward: token " + std::to_string(ids[i]) +
                                    " outside vocab=" + std::to_string(config_.vocab));
      }
    }
  }
}

void LlamaModel::check_rows(const SequenceRows& rows, int64_t batch, int64_t seq) const {
  if (rows.slots.size() != size_t(batch) || rows.starts.size() != size_t(batch)) {
    throw std::invalid_argument("LlamaModel::forward_rows: " + std::to_string(batch) +
                                " rows but " + std::to_string(rows.slots.size()) + " slots and " +
                                std::to_string(rows.starts.size()) + " starts");
  }
  for (size_t i = 0; i < rows.slots.size(); ++i) {
    const int64_t slot = rows.slots[i], start = rows.starts[i];
    if (slot < 0 || slot >= cache_batch_ || start < 0 || start + seq > cache_length_) {
      throw std::invalid_argument(
          "LlamaModel::forward_rows: row " + std::to_string(i) + " (slot " +
          std::to_string(slot) + ", positions " + std::to_string(start) + ".." +
          std::to_string(start + seq - 1) + ") is outside the KV cache of " +
          std::to_string(cache_batch_) + " sequences x " + std::to_string(cache_length_) +
          " positions");
    }
  }
}

at::Tensor LlamaModel::forward_layers_rows(at::Tensor hidden, const SequenceRows& rows) {
  check_rows(rows, hidden.size(0), hidden.size(1));
  at::NoGradGuard no_grad;
  const RowPositions placed = row_positions(rope_, rows, hidden.size(1));
  for (DecoderLayer& layer : layers_) hidden = layer.forward_rows(hidden, rows, placed);
  return hidden;
}

at::Tensor LlamaModel::forward_rows(const at::Tensor& tokens, const SequenceRows& rows,
                                    Logits which) {
  if (tokens.dim() != 2) {
    throw std::invalid_argument("LlamaModel::forward_rows: tokens must be int64 [rows, seq]");
  }
  at::NoGradGuard no_grad;
  return logits(forward_layers_rows(embed(tokens, 0), rows), which);
}

at::Tensor LlamaModel::embed(const at::Tensor& tokens, int64_t start_pos) const {
  check_tokens(tokens, start_pos);
  at::NoGradGuard no_grad;
  label_compute("embedding");
  const at::Tensor h = embedding().forward(tokens);
  return tokens.dim() == 1 ? h.unsqueeze(0) : h;
}

at::Tensor LlamaModel::forward_layers(at::Tensor hidden, int64_t start_pos, CacheSlots slots) {
  at::NoGradGuard no_grad;
  for (DecoderLayer& layer : layers_) hidden = layer.forward(hidden, start_pos, rope_, slots);
  return hidden;
}

at::Tensor LlamaModel::logits(const at::Tensor& hidden, Logits which) const {
  at::NoGradGuard no_grad;
  label_compute("head");
  const at::Tensor h =
      which == Logits::kLast ? hidden.narrow(-2, hidden.size(-2) - 1, 1) : hidden;
  return output().forward(rms_norm(h, norm_, config_.norm_eps));
}

std::vector<int64_t> LlamaModel::greedy_next(const at::Tensor& hidden) const {
  if (!tp_.runs_collectives()) return greedy_tokens(logits(hidden, Logits::kLast));
  at::NoGradGuard no_grad;
  label_compute("head");
  const at::Tensor last = hidden.narrow(-2, hidden.size(-2) - 1, 1);
  const at::Tensor local = at::linear(rms_norm(last, norm_, config_.norm_eps), output().weight());
  label_compute("sample");
  const int64_t rows = local.size(0);
  const at::Tensor flat = local.reshape({rows, local.size(-1)});
  const at::Tensor ids = flat.argmax(-1, /*keepdim=*/true);
  const int64_t vocab_start = int64_t(tp_.rank) * output().weight().size(0);
  const at::Tensor pairs =
      at::cat({flat.amax(-1, /*keepdim=*/true).to(at::kDouble), (ids + vocab_start).to(at::kDouble)}, -1);
  at::Tensor all = at::empty({int64_t(tp_.size) * rows, 2}, pairs.options());  // shard-major
  tp_.comm->all_gather(all, pairs);
  std::vector<int64_t> tokens(size_t(rows), 0);
  if (all.is_meta()) return tokens;  // shape-only runs: token 0 stands for every choice
  const at::Tensor best = all.contiguous();
  const double* p = best.data_ptr<double>();
  for (int64_t r = 0; r < rows; ++r) {
    double value = p[r * 2];
    tokens[size_t(r)] = int64_t(p[r * 2 + 1]);
    for (int64_t shard = 1; shard < tp_.size; ++shard) {
      const double* pair = p + (shard * rows + r) * 2;
      // Shards hold ascending slices: a later shard wins only with a strictly larger logit.
      if (pair[0] > value) {
        value = pair[0];
        tokens[size_t(r)] = int64_t(pair[1]);
      }
    }
  }
  return tokens;
}

at::Tensor LlamaModel::forward(const at::Tensor& tokens, int64_t start_pos, Logits which,
                               CacheSlots slots) {
  if (!holds_embedding() || !holds_head()) {
    throw std::logic_error("LlamaModel::forward: this shard holds layers " +
                           std::to_string(first_layer_) + ".." + std::to_string(end_layer_ - 1) +
                           " only; run embed, forward_layers and logits where they live");
  }
  // NoGradGuard rather than InferenceMode: InferenceMode makes inference tensors, which a
  // communicator (or the caller) may not write in place outside InferenceMode, and its state
  // lives in the dispatch-key TLS that a fiber switch must then carry too.
  at::NoGradGuard no_grad;
  const at::Tensor out = logits(forward_layers(embed(tokens, start_pos), start_pos, slots), which);
  return tokens.dim() == 1 ? out[0] : out;
}

}  // namespace uniference
