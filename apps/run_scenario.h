// Runs a scenario in simulation: the network its registries build, one LP per rank
// running the registered strategy's shard program, and greedy generation on it.
#pragma once

#include "apps/scenario.h"
#include "bridge/kernel.h"
#include "bridge/run_record.h"

namespace uniference {

struct ScenarioRun {
  RunOutcome outcome;
  RunRecord record;
};

// Runs a scenario (checking it first; see scenario_check.h). With `progress`, prints a
// line to stderr as each token is generated.
ScenarioRun run_scenario(const Scenario& scenario, bool progress);

}  // namespace uniference
