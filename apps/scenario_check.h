// The second half of checking a scenario: every name it gives is looked up in its
// registry (model presets, strategies, device profiles, topologies, transports, link
// models, TCP variants, collective operations and algorithms) and every ns-3 Attribute in
// ns-3's TypeId database, before anything runs. What comes out is what the run needs, in
// the types of the layers that use it; every failure is a ScenarioError naming the path.
#pragma once

#include "apps/compute_check.h"
#include "bridge/fault.h"
#include "bridge/network_config.h"

#include <vector>

namespace uniference {

// One job of /jobs, checked: where its ranks are in the run's world, and a model job's compute.
struct CheckedJob {
  const JobSpec* spec = nullptr;  // in the Scenario checked, which must outlive this
  int first_rank = 0;             // its ranks are world ranks first_rank .. first_rank + ranks - 1
  int ranks = 0;
  std::vector<uint32_t> endpoints;  // each rank's
  CheckedCompute compute;           // model jobs only
};

// The top level's compute (the jobs' defaults) and the network, built for every job's ranks.
struct CheckedScenario : CheckedCompute {
  std::vector<CheckedJob> jobs;  // /jobs, in order; empty for a scenario of one job
  NetworkConfig network;
  std::vector<Fault> faults;  // /faults; their cable and node names are checked as the run builds
                              // the network (bridge/faults.h)
};

CheckedScenario check_scenario(const Scenario& scenario);

}  // namespace uniference
