#include "apps/run_scenario.h"

#include "apps/report.h"
#include "apps/scenario_check.h"
#include "bridge/sim_cluster.h"
#include "bridge/this_lp.h"
#include "compute/compute_meter.h"
#include "compute/generation.h"

#include <iostream>

namespace uniference {

namespace {

std::unique_ptr<ComputeMeter> meter_for(const Scenario& scenario, const DeviceProfile& profile) {
  if (scenario.compute_mode == ComputeMode::kMeasured) {
    return make_measured_meter(profile.slowdown);
  }
  return make_modeled_meter(profile);
}

}  // namespace

ScenarioRun run_scenario(const Scenario& scenario, bool progress) {
  const CheckedScenario checked = check_scenario(scenario);
  StrategyInputs inputs;
  inputs.model = checked.model;
  inputs.seed = scenario.seed;
  inputs.prompt = make_prompt(scenario.workload.prompt_tokens, checked.model.vocab, scenario.seed);
  inputs.new_tokens = scenario.workload.new_tokens;
  inputs.degrees = checked.degrees;
  inputs.weights_loaded = this_lp::discard_compute;
  inputs.on_token = [&](int64_t step, int64_t token) {
    this_lp::record_token(token);
    if (progress) {
      std::cerr << "  token " << step + 1 << "/" << scenario.workload.new_tokens << " (id "
                << token << ") at t=" << format_duration(this_lp::now_ns()) << "\n";
    }
  };

  KernelConfig kernel;
  kernel.seed = scenario.seed;
  SimCluster cluster(checked.network, kernel);
  for (int r = 0; r < checked.ranks; ++r) {
    cluster.add_rank(meter_for(scenario, checked.device),
                     [&](Comm& world) { checked.strategy->run(world, inputs); });
  }
  ScenarioRun run;
  run.outcome = cluster.run();
  run.record = cluster.record();
  return run;
}

}  // namespace uniference
