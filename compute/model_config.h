// The shape of a Llama-like decoder, and the named presets scenarios refer to.
#pragma once

#include "compute/registry.h"

#include <cstdint>
#include <string>
#include <vector>

namespace uniference {

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

  int64_t head_dim() const { return dim / n_heads; }
};

struct ModelPreset {
  std::string name;
  std::string description;
  ModelConfig config;
};

// Every preset scenarios may name in /model/preset: "tiny" (for tests), "1b", "8b" and
// "70b" (the shapes of Llama 3.2 1B, Llama 3 8B and Llama 3 70B).
const NamedRegistry<ModelPreset>& model_presets();

// The preset's shape. Throws std::invalid_argument naming the known presets.
ModelConfig model_preset(const std::string& name);
std::vector<std::string> model_preset_names();

// "" when the config is self-consistent (positive sizes, dim split evenly into heads of an
// even head_dim, query heads grouped evenly over KV heads), else a sentence saying what is
// wrong.
std::string check_model_config(const ModelConfig& config);

// "" when tensor parallelism of degree tp can shard this model, else a sentence naming
// each size that tp does not divide (query heads, KV heads, FFN width, vocabulary).
std::string check_tensor_parallel(const ModelConfig& config, int tp);

}  // namespace uniference
