// /faults: faults injected on purpose, each from a simulated time.
#include "apps/scenario_keys/sections.h"

namespace uniference {

std::vector<ScenarioKey> faults_keys() {
  return {
      ScenarioKey(
          "/faults", "array of objects",
          "Faults injected on purpose, each `{\"at\": \"50ms\", \"kind\": K, \"target\": NAME, "
          "\"for\": \"20ms\"}`; see [faults](#faults). Link faults need `level` `packet`.",
          R"({"type": "array"})")
          .defaults_to("none"),
      ScenarioKey("/faults/<n>", "", "", R"({"type": "object", "additionalProperties": false})")
          .in_parent_row(),
      ScenarioKey("/faults/<n>/kind", "string",
                  "`link_down`, `switch_down`, `loss_burst`, `straggler` or `rank_crash`.",
                  R"({"type": "string", "enum": ["link_down", "switch_down", "loss_burst", "straggler", "rank_crash"]})")
          .required(),
      ScenarioKey("/faults/<n>/at", "string, [duration](#durations)",
                  "When the fault begins, in simulated time (`0s` or later).")
          .unit(Unit::kDuration)
          .required(),
      ScenarioKey("/faults/<n>/target", "string",
                  "A cable direction `\"rank0 -> hub\"` or both directions `\"rank0 <-> hub\"` "
                  "(`link_down`, `loss_burst`; `uniference validate --links` lists them), a switch's "
                  "node name `\"leaf0\"` (`switch_down`), or a rank `\"rank2\"` (`straggler`, "
                  "`rank_crash`).",
                  R"({"type": "string", "minLength": 1})")
          .required(),
      ScenarioKey("/faults/<n>/for", "string, [duration](#durations)",
                  "How long it lasts; `rank_crash` takes none (a crashed rank stays down).")
          .unit(Unit::kDuration)
          .defaults_to("to the end of the run"),
      ScenarioKey("/faults/<n>/loss", "number, (0, 1]",
                  "`loss_burst`: the probability each packet arriving in the window is lost.",
                  R"({"type": "number", "exclusiveMinimum": 0, "maximum": 1})")
          .defaults_to("*required* for `loss_burst`"),
      ScenarioKey("/faults/<n>/factor", "number, ≥ 1",
                  "`straggler`: how many times as long the rank's compute takes in the window.",
                  R"({"type": "number", "minimum": 1})")
          .defaults_to("*required* for `straggler`"),
  };
}

}  // namespace uniference
