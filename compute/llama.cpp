#include "compute/llama.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace uniference {
namespace {

ParamKey key(uint64_t seed, int64_t layer, const char* name) { return ParamKey{seed, layer, name}; }

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

at::Tensor apply_rope(const at::Tensor& x, const RopeTable& rope, int64_t start_pos) {
  const int64_t seq = x.size(0), heads = x.size(1), head_dim = x.size(2);
  const at::Tensor pairs = x.reshape({seq, heads, head_dim / 2, 2});
  const at::Tensor x0 = pairs.select(-1, 0), x1 = pairs.select(-1, 1);
  const at::Tensor cos = rope.cos.narrow(0, start_pos, seq).unsqueeze(1);  // [seq, 1, pairs]
  const at::Tensor sin = rope.sin.narrow(0, start_pos, seq).unsqueeze(1);
  return at::stack({x0 * cos - x1 * sin, x0 * sin + x1 * cos}, -1).view({seq, heads, head_dim});
}

at::Tensor attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                     int64_t start_pos) {
  const int64_t seq = q.size(0), n_heads = q.size(1), head_dim = q.size(2);
  const int64_t keys = k.size(0), n_kv_heads = k.size(1), group = n_heads / n_kv_heads;
  // The `group` query heads sharing a KV head become rows of one matrix, so the shared
  // keys and values are read once rather than copied per query head.
  const at::Tensor q_grouped = q.permute({1, 0, 2}).reshape({n_kv_heads, group * seq, head_dim});
  at::Tensor scores = at::bmm(q_grouped, k.permute({1, 2, 0}));  // [kv_heads, group*seq, keys]
  scores.mul_(1.0 / std::sqrt(static_cast<double>(head_dim)));
  if (seq > 1) {
    // Query s sits at position start_pos + s and must not see later keys.
    const at::Tensor future =
        at::ones({seq, keys}, q.options().dtype(at::kBool)).triu(start_pos + 1);
    scores = scores.view({n_kv_heads, group, seq, keys})
                 .masked_fill(future, -std::numeric_limits<float>::infinity())
                 .view({n_kv_heads, group * seq, keys});
  }
  const at::Tensor out = at::bmm(at::softmax(scores, -1), v.permute({1, 0, 2}));
  return out.view({n_heads, seq, head_dim}).permute({1, 0, 2}).reshape({seq, n_heads * head_dim});
}

at::Tensor swiglu(const at::Tensor& gate, const at::Tensor& up) { return at::silu(gate) * up; }

Attention::Attention(const ModelConfig& config, uint64_t seed, int64_t layer, TpGroup group)
    : n_local_heads_(config.n_heads / group.size),
      n_local_kv_heads_(config.n_kv_heads / group.size),
      head_dim_(config.head_dim()),
      wq_(config.dim, config.n_heads * head_dim_, key(seed, layer, "attention.wq"), group),
      wk_(config.dim, config.n_kv_heads * head_dim_, key(seed, layer, "attention.wk"), group),
      wv_(config.dim, config.n_kv_heads * head_dim_, key(seed, layer, "attention.wv"), group),
      wo_(config.n_heads * head_dim_, config.dim, key(seed, layer, "attention.wo"), group),
      // Allocated here, not in forward(), so a compute meter charges every forward alike.
      cache_k_(at::empty({config.max_seq, n_local_kv_heads_, head_dim_})),
      cache_v_(at::empty({config.max_seq, n_local_kv_heads_, head_dim_})) {}

at::Tensor Attention::forward(const at::Tensor& x, int64_t start_pos, const RopeTable& rope) {
  const int64_t seq = x.size(0);
  const at::Tensor q =
      apply_rope(wq_.forward(x).view({seq, n_local_heads_, head_dim_}), rope, start_pos);
  const at::Tensor k =
      apply_rope(wk_.forward(x).view({seq, n_local_kv_heads_, head_dim_}), rope, start_pos);
  const at::Tensor v = wv_.forward(x).view({seq, n_local_kv_heads_, head_dim_});
  cache_k_.narrow(0, start_pos, seq).copy_(k);
  cache_v_.narrow(0, start_pos, seq).copy_(v);
  const int64_t keys = start_pos + seq;
  return wo_.forward(
      attention(q, cache_k_.narrow(0, 0, keys), cache_v_.narrow(0, 0, keys), start_pos));
}

FeedForward::FeedForward(const ModelConfig& config, uint64_t seed, int64_t layer, TpGroup group)
    : w1_(config.dim, config.ffn_dim, key(seed, layer, "feed_forward.w1"), group),
      w3_(config.dim, config.ffn_dim, key(seed, layer, "feed_forward.w3"), group),
      w2_(config.ffn_dim, config.dim, key(seed, layer, "feed_forward.w2"), group) {}

at::Tensor FeedForward::forward(const at::Tensor& x) const {
  return w2_.forward(swiglu(w1_.forward(x), w3_.forward(x)));
}

DecoderLayer::DecoderLayer(const ModelConfig& config, uint64_t seed, int64_t layer, TpGroup group)
    : norm_eps_(config.norm_eps),
      attention_norm_(at::ones({config.dim})),
      ffn_norm_(at::ones({config.dim})),
      attention_(config, seed, layer, group),
      feed_forward_(config, seed, layer, group) {}

at::Tensor DecoderLayer::forward(const at::Tensor& x, int64_t start_pos, const RopeTable& rope) {
  const at::Tensor h =
      x + attention_.forward(rms_norm(x, attention_norm_, norm_eps_), start_pos, rope);
  return h + feed_forward_.forward(rms_norm(h, ffn_norm_, norm_eps_));
}

LlamaModel::LlamaModel(const ModelConfig& config, uint64_t seed, TpGroup tp)
    : config_(checked(config, tp.size)),
      tp_(tp),
      embedding_(config.vocab, config.dim, key(seed, -1, "tok_embeddings"), tp),
      norm_(at::ones({config.dim})),
      output_(config.dim, config.vocab, key(seed, -1, "output"), tp, /*gather_output=*/true),
      rope_(rope_table(config.head_dim(), config.max_seq, config.rope_theta)) {
  layers_.reserve(config.n_layers);
  for (int64_t i = 0; i < config.n_layers; ++i) layers_.emplace_back(config, seed, i, tp);
}

void LlamaModel::check_tokens(const at::Tensor& tokens, int64_t start_pos) const {
  if (tp_.is_detached()) {
    throw std::logic_error("LlamaModel::forward: a detached shard (rank " +
                           std::to_string(tp_.rank) + " of " + std::to_string(tp_.size) +
                           ") has no communicator; run its layers one by one");
  }
  if (tokens.scalar_type() != at::kLong || tokens.dim() != 1 || tokens.numel() == 0) {
    throw std::invalid_argument("LlamaModel::forward: tokens must be a non-empty int64 [seq]");
  }
  if (start_pos < 0 || start_pos + tokens.numel() > config_.max_seq) {
    throw std::invalid_argument("LlamaModel::forward: positions " + std::to_string(start_pos) +
                                ".." + std::to_string(start_pos + tokens.numel() - 1) +
                                " outside max_seq=" + std::to_string(config_.max_seq));
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

at::Tensor LlamaModel::forward(const at::Tensor& tokens, int64_t start_pos, Logits which) {
  check_tokens(tokens, start_pos);
  // NoGradGuard rather than InferenceMode: InferenceMode makes inference tensors, which a
  // communicator (or the caller) may not write in place outside InferenceMode, and its state
  // lives in the dispatch-key TLS that a fiber switch must then carry too.
  at::NoGradGuard no_grad;
  at::Tensor h = embedding_.forward(tokens);
  for (DecoderLayer& layer : layers_) h = layer.forward(h, start_pos, rope_);
  if (which == Logits::kLast) h = h.narrow(0, h.size(0) - 1, 1);
  return output_.forward(rms_norm(h, norm_, config_.norm_eps));
}

}  // namespace uniference
