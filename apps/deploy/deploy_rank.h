// One rank of a real deployment: the scenario's strategy, unchanged, over a real backend,
// timed as the simulator times it. Rank 0 gathers every rank's record through the
// rendezvous store and writes the merged outputs.
#pragma once

#include "apps/compute_check.h"
#include "apps/deploy/deploy_session.h"

#include <string>

namespace uniference {

// Runs this rank; returns "" when it completed, else what went wrong (naming this rank,
// and the lost peer when one was lost).
std::string run_deploy_rank(const Scenario& scenario, const CheckedCompute& checked,
                            const DeployOptions& options);

// A problem with this deployment's settings against the scenario, as a ScenarioError
// (exit 2): WORLD_SIZE against the scenario's degrees, keys a deployment cannot honour.
void check_deployment(const Scenario& scenario, const CheckedCompute& checked,
                      const DeployOptions& options);

}  // namespace uniference
