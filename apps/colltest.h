// uniference colltest on a scenario's simulated network: the sweep of colltest_sweep.h with
// every rank on meta tensors (the bytes move through ns-3, no data is allocated).
#pragma once

#include "apps/colltest_sweep.h"
#include "apps/scenario_check.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace uniference {

// Checks the options against the scenario (throws ScenarioError / std::invalid_argument with
// the reason) and runs the sweep; `progress` is told of each size as it starts. The pcap files
// and flowmon.xml that `outputs` asks for cover the whole sweep and go into `out_dir`, named
// after `name` (the scenario's).
std::vector<ColltestRow> run_colltest(const CheckedScenario& scenario, const ColltestOptions& options,
                                      const std::function<void(uint64_t bytes)>& progress = {},
                                      const OutputSpec& outputs = {}, const std::string& out_dir = ".",
                                      const std::string& name = "colltest");

}  // namespace uniference
