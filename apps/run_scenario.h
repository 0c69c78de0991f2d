// Runs a checked Scenario in simulation: builds the star network, one LP per rank
// running the tensor-parallel Llama shard, and greedy generation on it.
#pragma once

#include "apps/scenario.h"
#include "bridge/kernel.h"
#include "bridge/run_record.h"

namespace uniference {

struct ScenarioRun {
  RunOutcome outcome;
  RunRecord record;
};

// Checks what only the model and device layers can judge (a TP degree that does not
// divide the model, an unknown device profile); throws ScenarioError naming the path.
void check_scenario(const Scenario& scenario);

// Runs a scenario (checking it first). With `progress`, prints a line to stderr as each
// token is generated.
ScenarioRun run_scenario(const Scenario& scenario, bool progress);

}  // namespace uniference
