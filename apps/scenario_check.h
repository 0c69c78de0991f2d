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

struct CheckedScenario : CheckedCompute {
  NetworkConfig network;
  std::vector<Fault> faults;  // /faults; their cable and node names are checked as the run builds
                              // the network (bridge/faults.h)
};

CheckedScenario check_scenario(const Scenario& scenario);

}  // namespace uniference
