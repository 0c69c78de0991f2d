// /compute: how compute is charged as simulated time.
#include "apps/scenario_keys/sections.h"

namespace uniference {

std::vector<ScenarioKey> compute_keys() {
  return {
      ScenarioKey("/compute", "object", "How compute is charged as simulated time.",
                  R"({"type": "object", "additionalProperties": false})")
          .defaults_to("all defaults"),
      ScenarioKey("/compute/mode", "`\"modeled\"` \\| `\"measured\"` \\| `\"replay\"`",
                  "`modeled`: FLOPs and bytes of each op against the device profile, "
                  "deterministic. `measured`: monotonic wall time of the shard code × slowdown.",
                  R"({"enum": ["modeled", "measured", "replay"], "default": "modeled"})"),
      ScenarioKey(
          "/compute/shapes_only", "boolean",
          "Run the shards on shape-only (meta) tensors: no weights are allocated, every message "
          "carries the bytes it would with data, and modeled compute charges every operator from "
          "its shapes (the embedding lookup, which has no meta kernel in libtorch 1.13, costs "
          "nothing). Tokens are meaningless (token 0 stands for every choice), and the summary "
          "says so. Needs `\"mode\": \"modeled\"`. For the `8b` and `70b` presets on many ranks.",
          R"({"type": "boolean", "default": false})"),
      ScenarioKey("/compute/table", "string, a file",
                  "Mode `replay`: a per-operator timing table (CSV `op,class,flops,bytes,ns`) that "
                  "`uniference profile` measured on a real device, relative to the scenario's "
                  "folder. Each operator, counted as `modeled` counts them, is charged the table's "
                  "time for its name and size: linear between the measured sizes around it, the "
                  "smallest's time below them, the last two's slope above; an operator the table "
                  "lacks is charged from all rows of its class (matrix products, or the rest). "
                  "Deterministic, like `modeled`; `/devices/slowdown` multiplies it.",
                  R"({"type": "string", "minLength": 1})")
          .defaults_to("*required* for `replay`"),
  };
}

}  // namespace uniference
