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

std::vector<std::string> model_preset_names() { return {"tiny", "1b", "8b"}; }

ModelConfig model_preset(const std::string& name) {
  ModelConfig config;
  config.name = name;
  if (name == "tiny") {
    config.dim = 256;
    config.n_layers = 6;
    config.n_heads = 8;
    config.n_kv_heads = 4;
    config.ffn_dim = 768;
    config.vocab = 32000;
  } else if (name == "1b") {
    config.dim = 2048;
    config.n_layers = 16;
    config.n_heads = 32;
    config.n_kv_heads = 8;
    config.ffn_dim = 8192;
    config.vocab = 128256;
  } else if (name == "8b") {
    config.dim = 4096;
    config.n_layers = 32;
    config.n_heads = 32;
    config.n_kv_heads = 8;
    config.ffn_dim = 14336;
    config.vocab = 128256;
  } else {
    throw std::invalid_argument("unknown model preset '" + name +
                                "'; known presets: " + join(model_preset_names(), ", "));
  }
  return config;
}

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
