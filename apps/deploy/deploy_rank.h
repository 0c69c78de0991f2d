// One rank of a real deployment: the scenario's strategy, unchanged, over a real backend,
// timed as the simulator times it. Rank 0 gathers every rank's record through the
// rendezvous store and writes the merged outputs.
#pragma once

#include "apps/compute_check.h"
#include "apps/deploy/rendezvous.h"
#include "compute/backends/backend.h"

#include <chrono>
#include <string>

namespace uniference {

struct DeployOptions {
  std::string backend = "gloo";
  RendezvousOptions rendezvous;
  RankPlacement placement;
  // Bounds every communication call, and how long ranks wait for each other at the end.
  std::chrono::milliseconds timeout{120000};
  std::string out_dir;  // rank 0 writes the merged outputs here, rank r also rank<r>/
  bool progress = true;
};

// Runs this rank; returns "" when it completed, else what went wrong (naming this rank,
// and the lost peer when one was lost).
std::string run_deploy_rank(const Scenario& scenario, const CheckedCompute& checked,
                            const DeployOptions& options);

// A problem with this deployment's settings against the scenario, as a ScenarioError
// (exit 2): WORLD_SIZE against the scenario's degrees, keys a deployment cannot honour.
void check_deployment(const Scenario& scenario, const CheckedCompute& checked,
                      const DeployOptions& options);

}  // namespace uniference
