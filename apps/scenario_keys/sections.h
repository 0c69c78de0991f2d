// One table per section of a scenario file, each in a file of its own, in file order: the
// section's object first, every key after its parent, keys in the order error messages list
// them. scenario_keys.cpp joins them.
#pragma once

#include <vector>

#include "apps/scenario_keys.h"

namespace uniference {

std::vector<ScenarioKey> top_level_keys();  // $schema, name, description, seed
std::vector<ScenarioKey> model_keys();
std::vector<ScenarioKey> parallel_keys();
std::vector<ScenarioKey> workload_keys();
std::vector<ScenarioKey> devices_keys();
std::vector<ScenarioKey> compute_keys();
std::vector<ScenarioKey> network_keys();
std::vector<ScenarioKey> collectives_keys();
std::vector<ScenarioKey> faults_keys();
std::vector<ScenarioKey> jobs_keys();
std::vector<ScenarioKey> outputs_keys();

}  // namespace uniference
