// uniference validate: check a scenario and run nothing.
#include "apps/command_line.h"
#include "apps/commands/command.h"
#include "apps/commands/command_support.h"
#include "apps/json_checker.h"
#include "apps/scenario.h"
#include "apps/scenario_check.h"
#include "bridge/network_registry.h"
#include "bridge/sim_cluster.h"

#include <iostream>
#include <stdexcept>

namespace uniference {

namespace {

int validate(const std::vector<std::string>& args, const char*) {
  std::string scenario_path;
  std::vector<std::string> overrides;
  bool links = false;
  try {
    for_each_argument(args, 0, [&](const std::string& a, const auto& value) {
      if (a == "--set") overrides.push_back(value());
      else if (a == "--links") links = true;
      else if (!a.empty() && a[0] == '-') throw std::invalid_argument("unknown option '" + a + "'");
      else if (scenario_path.empty()) scenario_path = a;
      else throw std::invalid_argument("more than one scenario given");
    });
    if (scenario_path.empty()) throw std::invalid_argument("validate needs a scenario file");
  } catch (const std::invalid_argument& e) {
    return usage_error(e.what());
  }
  return reporting_errors([&] {
    const Scenario scenario = load_scenario(scenario_path, overrides);
    const CheckedScenario checked = check_scenario(scenario);
    try {
      check_fault_targets(checked.network, uint32_t(checked.ranks), checked.faults);
      // Only the topology's builder knows its nodes' names.
      if (!checked.network.partition.empty()) network_cables(checked.network, uint32_t(checked.ranks));
    } catch (const FaultTargetError& e) {
      throw ScenarioError(scenario.source, e.pointer, e.what());
    } catch (const PartitionError& e) {
      throw ScenarioError(scenario.source, child("/network/partition", e.name), e.what());
    }
    if (links) {
      for (const std::string& cable : network_cables(checked.network, uint32_t(checked.ranks))) {
        std::cout << cable << "\n";
      }
      return 0;
    }
    std::cout << scenario_path << ": valid\n";
    return 0;
  });
}

}  // namespace

Command validate_command() {
  return {"validate",
          {"SCENARIO.json [--links] [--set POINTER=VALUE]..."},
          {{"validate SCENARIO.json",
            "check the scenario only (every key, every name against its registry,\n"
            "every ns-3 Attribute, and that the model, the parallel degrees and the\n"
            "workload fit together, the cables and switches /faults names);\n"
            "runs nothing. --links: build the network\n"
            "and list every direction of every cable by the names the trace uses\n"
            "(rank0 -> leaf0, leaf0 -> spine1), one per line"}},
          validate, kSetKey};
}

}  // namespace uniference
