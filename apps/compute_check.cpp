#include "apps/compute_check.h"

#include "apps/registered.h"
#include "compute/generation.h"

namespace uniference {

namespace {

void check_workload_fits(const Scenario& scenario, const ModelConfig& model) {
  const WorkloadSpec& w = scenario.workload;
  const std::string context = "model '" + model.name + "' has a context of " +
                              std::to_string(model.max_seq) + " tokens";
  if (w.prompt_tokens > model.max_seq) {
    throw ScenarioError(scenario.source, "/workload/prompt_tokens",
                        "a prompt of " + std::to_string(w.prompt_tokens) +
                            " tokens is longer than the model's context; " + context);
  }
  // The last new token is produced, not fed back, so it takes no position.
  if (int64_t(w.prompt_tokens) + w.new_tokens - 1 > model.max_seq) {
    throw ScenarioError(scenario.source, "/workload/new_tokens",
                        std::to_string(w.prompt_tokens) + " prompt tokens and " +
                            std::to_string(w.new_tokens) +
                            " new tokens need more positions than the model has; " + context);
  }
}

}  // namespace

CheckedCompute check_compute(const Scenario& scenario) {
  const std::string& source = scenario.source;
  CheckedCompute checked;
  checked.model = registered(model_presets(), scenario.model.preset, source, "/model/preset").config;
  checked.device =
      registered(device_profiles(), scenario.devices.profile, source, "/devices/profile").profile;
  checked.device.efficiency = scenario.devices.efficiency;
  checked.device.slowdown = scenario.devices.slowdown;
  checked.strategy =
      &registered(strategies(), scenario.parallel.strategy, source, "/parallel/strategy");
  const ParallelSpec& parallel = scenario.parallel;
  checked.degrees.tp = parallel.tp;
  checked.degrees.pp = parallel.pp;
  checked.degrees.dp = parallel.dp;
  checked.degrees.sp = parallel.sp;
  checked.degrees.stages = parallel.stages;
  checked.degrees.micro_batches = parallel.micro_batches;
  check_workload_fits(scenario, checked.model);
  const WorkloadShape workload{scenario.workload.batch, scenario.workload.prompt_tokens,
                               scenario.workload.new_tokens};
  const StrategyProblem problem =
      check_strategy(*checked.strategy, checked.model, checked.degrees, workload);
  if (!problem.detail.empty()) {
    throw ScenarioError(source, problem.key.empty() ? "/parallel" : "/parallel/" + problem.key,
                        problem.detail);
  }
  checked.ranks = checked.degrees.world();
  return checked;
}

StrategyInputs strategy_inputs(const Scenario& scenario, const CheckedCompute& checked) {
  StrategyInputs inputs;
  inputs.model = checked.model;
  inputs.seed = scenario.seed;
  inputs.prompts = make_prompts(scenario.workload.batch, scenario.workload.prompt_tokens,
                                checked.model.vocab, scenario.seed);
  inputs.new_tokens = scenario.workload.new_tokens;
  inputs.degrees = checked.degrees;
  inputs.shapes_only = scenario.shapes_only;
  return inputs;
}

}  // namespace uniference
