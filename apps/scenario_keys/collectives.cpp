// /collectives: the algorithm of each collective operation, or a preset.
// "<op>" stands for every registered operation (bridge/collective_ops.h).
#include "apps/scenario_keys/sections.h"

namespace uniference {

std::vector<ScenarioKey> collectives_keys() {
  return {
      ScenarioKey("/collectives", "object",
                  "Per [collective operation](#collectives), the algorithm that runs: "
                  "`{\"all_reduce\": {\"algorithm\": \"ring\", \"attributes\": {\"ChunkBytes\": "
                  "\"1048576\"}}}`. Operations not named follow the preset, or run their default.",
                  R"({"type": "object", "additionalProperties": false})")
          .defaults_to("`{}`"),
      ScenarioKey("/collectives/preset", "a [collective preset](#collectives)",
                  "Chooses for every operation and size what a library runs (`gloo`, `nccl`), what "
                  "the project's Gloo deployment runs (`gloo-receive-first`), or what the cost "
                  "model predicts fastest (`auto`); see `docs/collectives.md`.")
          .defaults_to("none"),
      ScenarioKey("/collectives/timeout", "string, [duration](#durations)",
                  "How long a blocking call (a collective, a receive) may wait in simulated time "
                  "before the run ends with a report naming the call, its ranks and the faults "
                  "so far (exit 1), as NCCL's and Gloo's timeouts end a job.")
          .unit(Unit::kDuration)
          .defaults_to("none: a wait nothing can end is reported as a deadlock at once"),
      ScenarioKey("/collectives/<op>", "", "",
                  R"({"type": "object", "additionalProperties": false})")
          .in_parent_row(),
      ScenarioKey("/collectives/<op>/algorithm", "string",
                  "An algorithm registered for the operation.")
          .required(),
      ScenarioKey(
          "/collectives/<op>/attributes", "object",
          "ns-3 Attributes of the algorithm's class, checked like `ns3_defaults`.",
          R"({"type": "object", "additionalProperties": {"type": ["string", "number", "boolean"]}})")
          .defaults_to("`{}`"),
  };
}

}  // namespace uniference
