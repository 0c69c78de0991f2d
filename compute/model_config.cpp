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

ModelConfig with_experts(ModelConfig c, int64_t n_experts, int64_t top_k, int64_t expert_ffn_dim,
                         int64_t n_shared_experts, int64_t first_dense_layers) {
  c.moe = MoeShape{n_experts, top_k, expert_ffn_dim, n_shared_experts, first_dense_layers};
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
          {"tiny-moe",
           "a small mixture of experts for tests (dim 256, 4 layers, 8 experts of width 256, "
           "top-2, one shared expert)",
           with_experts(shape("tiny-moe", 256, 4, 8, 4, 768, 32000), 8, 2, 256, 1, 0)},
          {"mixtral-8x7b", "the shape of Mixtral 8x7B: 8 experts of width 14336, top-2",
           with_experts(shape("mixtral-8x7b", 4096, 32, 32, 8, 14336, 32000), 8, 2, 14336, 0,
                        0)},
          {"qwen3-30b-a3b",
           "the shape of Qwen3-30B-A3B: 128 experts of width 768, top-8, every layer MoE "
           "(heads of dim/n_heads = 64 features, where Qwen3 has 128)",
           with_experts(shape("qwen3-30b-a3b", 2048, 48, 32, 4, 6144, 151936), 128, 8, 768, 0,
                        0)},
          {"deepseek-v3",
           "the MoE shape of DeepSeek-V3: 256 routed experts of width 2048 and one shared, "
           "top-8, the first 3 of 61 layers dense (attention as plain multi-head, not MLA; "
           "run it with compute.shapes_only)",
           with_experts(shape("deepseek-v3", 7168, 61, 128, 128, 18432, 129280), 256, 8, 2048, 1,
                        3)},
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
  const MoeShape& m = c.moe;
  if (m.n_experts < 0 || m.n_shared_experts < 0 || m.first_dense_layers < 0) {
    return who + "n_experts, n_shared_experts and first_dense_layers must not be negative";
  }
  if (m.n_experts > 0 && (m.top_k < 1 || m.top_k > m.n_experts || m.expert_ffn_dim <= 0)) {
    return who + "a mixture of experts needs 1 <= top_k <= n_experts and a positive expert_ffn_dim";
  }
  return "";
}

std::string check_tensor_parallel(const ModelConfig& config, int tp) {
  if (tp < 1) return "tp=" + std::to_string(tp) + " must be at least 1";
  if (config.is_moe() && tp > 1) {
    return "model '" + config.name +
           "' is a mixture of experts, whose layers are not tensor-parallel; spread its "
           "experts with strategy ep";
  }
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

std::string check_expert_parallel(const ModelConfig& config, int ep) {
  if (ep < 1) return "ep=" + std::to_string(ep) + " must be at least 1";
  if (!config.is_moe()) {
    return "model '" + config.name + "' is dense; expert parallelism needs a mixture of experts";
  }
  if (config.moe.n_experts % ep != 0) {
    return "ep=" + std::to_string(ep) + " does not divide the " +
           std::to_string(config.moe.n_experts) + " experts of model '" + config.name + "'";
  }
  return "";
}

}  // namespace uniference
