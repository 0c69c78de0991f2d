// What `uniference plan` is asked: a base scenario (the network, and the model, workload and
// devices unless the spec gives its own), how many devices there are and how much memory each
// has, the objective, and how wide to search. Read and checked like a scenario: every mistake is
// a ScenarioError at its pointer in the spec (exit 2), a model or workload section included.
//
// SPEC.json (docs/planner.md):
//   {"scenario": "../quickstart.json",                 the base, relative to the spec
//    "model": {"preset": "1b"},                        optional: replaces the base's /model
//    "workload": {...},                                optional: replaces /workload
//    "compute": {"mode": "replay", "table": "t.csv"},  optional: replaces /compute (a table
//                                                        relative to the spec)
//    "devices": {"count": 4, "memory": "16GB",         optional; count: at most this many ranks
//                "profile": "a100"},                     (default: the base's), memory per device
//    "objective": "tpot",                              tpot | ttft | goodput | devices
//    "slo": {"ttft": "100ms", "tpot": "10ms"},         the targets of goodput and devices
//    "search": {"strategies": ["tp", "pp"], "presets": ["gloo", "nccl"],
//               "placements": ["packed", "spread"], "micro_batches": [1, 4]},
//    "check": 3,                                       plans simulated at packet level
//    "seed": 1, "out": "out/plans/name"}
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace uniference {

enum class PlanObjective { kTpot, kTtft, kGoodput, kDevices };
const char* objective_name(PlanObjective objective);

struct PlanSpec {
  std::string source;    // the spec's path, as given (errors name it)
  std::string scenario;  // the base scenario, resolved against the spec's folder
  nlohmann::json model, workload, compute;  // null: the base's own
  int devices = 0;                 // at most this many ranks; 0: the base's world
  uint64_t device_memory = 0;      // bytes per device; 0: each rank's profile's
  std::string profile;             // empty: the base's /devices/profile
  PlanObjective objective = PlanObjective::kTpot;
  int64_t slo_ttft_ns = 0, slo_tpot_ns = 0;  // 0: no target
  std::vector<std::string> strategies;       // empty: every registered strategy
  std::vector<std::string> presets;          // empty: the base's /collectives/preset only
  std::vector<std::string> placements;       // fabrics: "packed", "spread"; empty: both
  std::vector<int> micro_batches;            // pipelines; empty: 1
  int check = 3;
  int64_t seed = -1;  // -1: the base's /seed
  std::string out;    // empty: out/plans/<spec's stem>

  // The assignments that turn the base scenario into the spec's (model, workload, device
  // profile, seed): every candidate starts from them.
  std::vector<std::pair<std::string, nlohmann::json>> base_overrides() const;
};

// Reads and checks a spec (ScenarioError at the pointer of any mistake, the base scenario with
// the spec's sections included).
PlanSpec load_plan_spec(const std::string& path);

// Assignments as `--set` takes them ("/parallel/tp=4"), for load_scenario.
std::vector<std::string> as_overrides(const std::vector<std::pair<std::string, nlohmann::json>>& set);

// "16GB", "16GiB", "512MiB" or a number of bytes; false when malformed.
bool parse_bytes(const nlohmann::json& value, uint64_t* bytes);

}  // namespace uniference
