// The keys at the top of a scenario file that are not sections: $schema, name, description, seed.
// The sections' own objects are declared in their files.
#include "apps/scenario_keys/sections.h"

namespace uniference {

std::vector<ScenarioKey> top_level_keys() {
  return {
      ScenarioKey("/$schema", "string",
                  "For editors: the schema the file follows. Ignored by the simulator.",
                  R"({"type": "string", "minLength": 1})"),
      ScenarioKey(
          "/name", "non-empty string",
          "Name of the run in the summary, `results.json` and the trace; the runner's default "
          "output folder is `out/<name>`, so it may not contain `/`, `\\` or control characters, "
          "nor be `.` or `..`.",
          R"({"type": "string", "minLength": 1, "pattern": "^(?!\\.{1,2}$)[^/\\\\\\u0000-\\u001f]+$"})")
          .defaults_to("file name without extension"),
      ScenarioKey("/description", "string", "Free text for people. Ignored by the simulator.",
                  R"({"type": "string"})")
          .defaults_to("`\"\"`"),
      ScenarioKey(
          "/seed", "integer, 0 … 2^64 − 1",
          "Seed of every random choice in the run, ns-3's own random variables included (it is "
          "their run number: a link's fades, Wi-Fi back-off, LTE). Same scenario and seed, same "
          "results.",
          R"({"type": "integer", "minimum": 0, "maximum": 18446744073709551615, "default": 1})"),
  };
}

}  // namespace uniference
