// /jobs: several jobs on one network, each a world of its own.
#include "apps/scenario_keys/sections.h"

namespace uniference {

std::vector<ScenarioKey> jobs_keys() {
  // A job's own section replaces the top-level one of its name, whole: the top-level sections
  // are every job's defaults.
  const auto section = [](const char* name) {
    const std::string key = name;
    return ScenarioKey("/jobs/<n>/" + key, "object",
                       "The job's own `/" + key + "`, in place of the top-level one (whole, not "
                       "merged key by key).",
                       R"({"$ref": "#/properties/)" + key + R"("})")
        .defaults_to("the top-level `/" + key + "`");
  };
  return {
      ScenarioKey(
          "/jobs", "array of objects",
          "Several jobs on one network, each `{\"name\": N, ...}`; see [jobs](#several-jobs-on-one-network). "
          "Each job's ranks form a world of their own, numbered from 0 as if the job ran "
          "alone, and draw their own random streams. The top-level `model`, `parallel`, "
          "`workload`, `compute`, `devices` and `seed` are every job's defaults.",
          R"({"type": "array", "minItems": 1, "maxItems": 64})")
          .defaults_to("one job: the scenario itself"),
      ScenarioKey("/jobs/<n>", "", "", R"({"type": "object", "additionalProperties": false})")
          .in_parent_row(),
      ScenarioKey("/jobs/<n>/name", "string",
                  "The job's name in the summary, `results.json` and the trace; unique, usable as "
                  "a folder name.",
                  R"({"type": "string", "minLength": 1, "pattern": "^(?!\\.{1,2}$)[^/\\\\\\u0000-\\u001f]+$"})")
          .required(),
      section("model"),
      section("parallel"),
      section("workload"),
      section("compute"),
      section("devices"),
      ScenarioKey("/jobs/<n>/seed", "integer, 0 … 2^64 − 1",
                  "The job's seed: its ranks' random streams and its requests' arrivals.",
                  R"({"type": "integer", "minimum": 0, "maximum": 18446744073709551615})")
          .defaults_to("the top-level `/seed`"),
      ScenarioKey("/jobs/<n>/start", "string, [duration](#durations)",
                  "When the job's ranks begin, in simulated time.")
          .unit(Unit::kDuration)
          .defaults_to("`\"0s\"`"),
      ScenarioKey(
          "/jobs/<n>/placement", "`\"packed\"` \\| `\"spread\"` \\| array of integers ≥ 0",
          "Which endpoint each of the job's ranks sits on, in place of `/network/placement`: "
          "`\"packed\"` gives them the lowest endpoints no job's array names and no earlier "
          "job took; `\"spread\"` one under each first-tier switch (a leaf, an edge switch, a "
          "server) in turn, the lowest free there; an array gives each rank's endpoint. An "
          "endpoint holds one rank: one taken twice is an error at `/jobs/<n>/placement/<rank>`.",
          R"({"default": "packed", "oneOf": [{"enum": ["packed", "spread"]}, {"type": "array", "minItems": 1, "uniqueItems": true, "items": {"type": "integer", "minimum": 0}}]})"),
      ScenarioKey(
          "/jobs/<n>/traffic", "object",
          "Background traffic instead of a model: the job's ranks run `pattern` on `bytes` "
          "every `period` from `start` until every model job has finished (a data-parallel "
          "training neighbour's gradient all-reduce). Its ranks compute nothing.",
          R"({"type": "object", "additionalProperties": false})")
          .defaults_to("none: the job runs its model"),
      ScenarioKey("/jobs/<n>/traffic/pattern", "string",
                  "`all_reduce` (of `bytes`), `all_to_all` (`bytes` per rank, split evenly) or "
                  "`permutation` (each rank sends `bytes` to the next, rank r to r + 1).",
                  R"({"type": "string", "enum": ["all_reduce", "all_to_all", "permutation"]})")
          .required(),
      ScenarioKey("/jobs/<n>/traffic/bytes", "integer ≥ 4",
                  "Each rank's buffer, in bytes (fp32 elements: a multiple of 4; for "
                  "`all_to_all`, of 4 × ranks).",
                  R"({"type": "integer", "minimum": 4})")
          .required(),
      ScenarioKey("/jobs/<n>/traffic/period", "string, [duration](#durations)",
                  "From the start of one round to the next; a round that takes longer is followed "
                  "at once by the next.")
          .unit(Unit::kDuration)
          .required(),
      ScenarioKey("/jobs/<n>/traffic/ranks", "integer ≥ 2",
                  "How many ranks the traffic runs on.",
                  R"({"type": "integer", "minimum": 2})")
          .defaults_to("the length of `placement`; *required* when it is `\"packed\"`"),
  };
}

}  // namespace uniference
