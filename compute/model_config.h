// The shape of a Llama-like decoder, and the named presets scenarios refer to.
#pragma once

#include "compute/registry.h"

#include <cstdint>
#include <string>
#include <vector>

namespace uniference {

// The mixture-of-experts part of a decoder: each MoE layer's MLP is n_experts SwiGLU experts
// of width expert_ffn_dim, top_k of them chosen per token by a router, plus
// n_shared_experts that every token passes through. The first first_dense_layers layers
// keep the dense MLP (ffn_dim), as DeepSeek-V3's first three do. n_experts 0: a dense model.
struct MoeShape {
  int64_t n_experts = 0;
  int64_t top_k = 0;
  int64_t expert_ffn_dim = 0;
  int64_t n_shared_experts = 0;
  int64_t first_dense_layers = 0;
};

struct ModelConfig {
  std::string name;
  int64_t dim;
  int64_t n_layers;
  int64_t n_heads;
  int64_t n_kv_heads;
  int64_t ffn_dim;
  int64_t vocab;
  double rope_theta = 500000;
  double norm_eps = 1e-5;
  int64_t max_seq = 2048;
  MoeShape moe;

  int64_t head_dim() const { return dim / n_heads; }
  bool is_moe() const { return moe.n_experts > 0; }
  // Whether decoder layer `layer` routes its tokens to experts.
  bool is_moe_layer(int64_t layer) const { return is_moe() && layer >= moe.first_dense_layers; }
};

struct ModelPreset {
  std::string name;
  std::string description;
  ModelConfig config;
};

// Every preset scenarios may name in /model/preset: "tiny" (for tests), "1b", "8b" and
// "70b" (the shapes of Llama 3.2 1B, Llama 3 8B and Llama 3 70B); the mixtures of experts
// "tiny-moe" (for tests), "mixtral-8x7b", "qwen3-30b-a3b" and "deepseek-v3".
const NamedRegistry<ModelPreset>& model_presets();

// The preset's shape. Throws std::invalid_argument naming the known presets.
ModelConfig model_preset(const std::string& name);
std::vector<std::string> model_preset_names();

// "" when the config is self-consistent (positive sizes, dim split evenly into heads of an
// even head_dim, query heads grouped evenly over KV heads), else a sentence saying what is
// wrong.
std::string check_model_config(const ModelConfig& config);

// "" when tensor parallelism of degree tp can shard this model, else a sentence naming
// each size that tp does not divide (query heads, KV heads, FFN width, vocabulary), or
// saying that a mixture of experts is not tensor-parallel (its experts are spread by
// expert parallelism instead).
std::string check_tensor_parallel(const ModelConfig& config, int tp);

// "" when expert parallelism over `ep` ranks can spread this model's experts evenly, else a
// sentence saying why not (a dense model, or ep not dividing the experts).
std::string check_expert_parallel(const ModelConfig& config, int ep);

}  // namespace uniference
