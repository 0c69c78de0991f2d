#include "compute/model_config.h"

#include <stdexcept>

namespace uniference {
namespace {

std::string join(const std::vector<std::string>& parts, const std::string& last_separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += (i + 1 == parts.size()) ? last_separator : ", ";
    out += parts[i];
  }
  return out;
}

}  // namespace

namespace {

ModelConfig shape(const char* name, int64_t dim, int64_t n_layers, int64_t n_heads,
                  int64_t n_kv_heads, int64_t ffn_dim, int64_t vocab) {
  ModelConfig c;
  c.name = name;
  c.dim = dim;
  c.n_layers = n_layers;
  c.n_heads = n_heads;
  c.n_kv_heads = n_kv_heads;
  c.ffn_dim = ffn_dim;
  c.vocab = vocab;
  return c;
}

}  // namespace

const NamedRegistry<ModelPreset>& model_presets() {
  static const NamedRegistry<ModelPreset> registry(
      "model preset",
      {
          {"tiny", "a small Llama-like decoder for tests (dim 256, 6 layers)",
           shape("tiny", 256, 6, 8, 4, 768, 32000)},
          {"1b", "the shape of Llama 3.2 1B", shape("1b", 2048, 16, 32, 8, 8192, 128256)},
          {"8b", "the shape of Llama 3 8B", shape("8b", 4096, 32, 32, 8, 14336, 128256)},
          {"70b", "the shape of Llama 3 70B (run it with compute.shapes_only)",
           shape("70b", 8192, 80, 64, 8, 28672, 128256)},
      });
  return registry;
}

std::vector<std::string> model_preset_names() { return model_presets().names(); }

ModelConfig model_preset(const std::string& name) { return model_presets().at(name).config; }

std::string check_model_config(const ModelConfig& c) {
  const std::string who = "model '" + c.name + "': ";
  if (c.dim <= 0 || c.n_layers <= 0 || c.n_heads <= 0 || c.n_kv_heads <= 0 || c.ffn_dim <= 0 ||
      c.vocab <= 0 || c.max_seq <= 0) {
    return who + "dim, n_layers, n_heads, n_kv_heads, ffn_dim, vocab and max_seq must be positive";
  }
  if (c.dim % c.n_heads != 0) {
    return who + "n_heads=" + std::to_string(c.n_heads) +
           " does not divide dim=" + std::to_string(c.dim);
  }
  // Rotary embeddings turn pairs of features, so a head needs an even width.
  if (c.head_dim() % 2 != 0) {
    return who + "head_dim=" + std::to_string(c.head_dim()) + " must be even for RoPE";
  }
  if (c.n_heads % c.n_kv_heads != 0) {
    return who + "n_kv_heads=" + std::to_string(c.n_kv_heads) +
           " does not divide n_heads=" + std::to_string(c.n_heads);
  }
  if (!(c.rope_theta > 0) || !(c.norm_eps > 0)) {
    return who + "rope_theta and norm_eps must be positive";
  }
  return "";
}

std::string check_tensor_parallel(const ModelConfig& config, int tp) {
  if (tp < 1) return "tp=" + std::to_string(tp) + " must be at least 1";
  std::vector<std::string> not_divided;
  auto check = [&](const char* what, int64_t size) {
    if (size % tp != 0) not_divided.push_back(std::string(what) + "=" + std::to_string(size));
  };
  check("n_heads", config.n_heads);
  check("n_kv_heads", config.n_kv_heads);
  check("ffn_dim", config.ffn_dim);
  check("vocab", config.vocab);
  if (not_divided.empty()) return "";
  return "tp=" + std::to_string(tp) + " does not divide " + join(not_divided, " or ") +
         " of model '" + config.name + "'";
}

}  // namespace uniference
