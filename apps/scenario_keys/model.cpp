// /model: the model the shards run.
#include "apps/scenario_keys/sections.h"

namespace uniference {

std::vector<ScenarioKey> model_keys() {
  return {
      ScenarioKey("/model", "object", "The model the shards run.",
                  R"({"type": "object", "additionalProperties": false})")
          .required(),
      ScenarioKey("/model/preset", "a [model preset](#model-presets)",
                  "Built-in Llama-like model shape; the mixtures of experts (`tiny-moe`, "
                  "`mixtral-8x7b`, `qwen3-30b-a3b`, `deepseek-v3`) route each MoE layer's tokens "
                  "to top-k of their experts.")
          .required(),
      ScenarioKey("/model/layers", "positive integer",
                  "Run only the preset's first layers: a study of a few layers of a large model (a "
                  "mixture of experts keeps its dense first layers among them, so `deepseek-v3` "
                  "with `4` has 3 dense layers and 1 MoE layer).",
                  R"({"type": "integer", "minimum": 1, "maximum": 2147483647})")
          .defaults_to("all of the preset's"),
  };
}

}  // namespace uniference
