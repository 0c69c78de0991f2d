#include "apps/compute_check.h"

#include "apps/registered.h"
#include "compute/generation.h"
#include "compute/serving/disaggregation.h"

#include <algorithm>

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

// Serving's own checks: a strategy with an engine, one micro-batch, a KV cache that holds
// the longest request. Fills in the scheduler's cache size when the scenario leaves it out.
void check_serving(const Scenario& scenario, CheckedCompute& checked) {
  const std::string& source = scenario.source;
  if (!checked.strategy->serve) {
    std::string serving;
    for (const Strategy& s : strategies().entries()) {
      if (s.serve) serving += (serving.empty() ? "" : ", ") + s.name;
    }
    throw ScenarioError(source, "/parallel/strategy",
                        "strategy " + checked.strategy->name +
                            " cannot serve requests as they arrive; kind serving runs over " +
                            serving);
  }
  if (checked.degrees.micro_batches != 1) {
    throw ScenarioError(source, "/parallel/micro_batches",
                        "serving runs each step's requests through the pipeline together; "
                        "micro-batches are for kinds single and batch");
  }
  SchedulerConfig& scheduler = checked.scheduler;
  scheduler = scenario.workload.serving.scheduler;
  const int64_t longest = int64_t(scenario.workload.prompt_tokens) + scenario.workload.new_tokens - 1;
  scheduler.kv_cache_tokens = scenario.workload.kv_cache_tokens();
  if (scheduler.kv_cache_tokens < longest) {
    throw ScenarioError(source, "/workload/scheduler/kv_cache_tokens",
                        std::to_string(scheduler.kv_cache_tokens) +
                            " positions cannot hold the longest request (" +
                            std::to_string(scenario.workload.prompt_tokens) + " prompt + " +
                            std::to_string(scenario.workload.new_tokens) + " new tokens needs " +
                            std::to_string(longest) + ")");
  }
  checked.cache = CacheShape{scheduler.max_batch, longest};
  const Disaggregation& pools = scenario.workload.serving.disaggregation;
  if (pools.enabled()) {
    if (!checked.strategy->hands_over_kv) {
      throw ScenarioError(source, "/workload/disaggregation",
                          "strategy " + checked.strategy->name +
                              " cannot hand KV caches between pools; disaggregation runs "
                              "tensor-parallel replicas (strategy tp)");
    }
    if (checked.degrees.dp != 1) {
      throw ScenarioError(source, "/parallel/dp",
                          "with /workload/disaggregation the pools are the replicas; leave dp at 1");
    }
  }
}

// A device's profile for the scenario's dtype, with its efficiency and slowdown.
DeviceProfile resolve_device(const Scenario& scenario, const RankDevice& device,
                             const std::string& pointer) {
  const DeviceProfileSpec& spec =
      device.file ? *device.file
                  : registered(device_profiles(), device.profile, scenario.source, pointer + "/profile")
                        .spec;
  DeviceProfile profile;
  try {
    profile = resolve_device_profile(spec, scenario.devices.dtype);
  } catch (const std::invalid_argument& e) {
    throw ScenarioError(scenario.source, "/devices/dtype", e.what());
  }
  profile.efficiency = device.efficiency;
  profile.slowdown = device.slowdown;
  return profile;
}

}  // namespace

CheckedCompute check_compute(const Scenario& scenario) {
  const std::string& source = scenario.source;
  CheckedCompute checked;
  checked.model = registered(model_presets(), scenario.model.preset, source, "/model/preset").config;
  if (scenario.model.layers > 0) {
    // A study of a few layers of a large model: the preset's shape, fewer layers.
    checked.model.n_layers = scenario.model.layers;
    checked.model.moe.first_dense_layers =
        std::min<int64_t>(checked.model.moe.first_dense_layers, scenario.model.layers);
  }
  checked.device = resolve_device(scenario, scenario.devices, "/devices");
  checked.wake_latency = scenario.devices.wake_latency;
  checked.seed = scenario.seed;
  checked.strategy =
      &registered(strategies(), scenario.parallel.strategy, source, "/parallel/strategy");
  const ParallelDegrees& parallel = scenario.parallel;
  checked.degrees = parallel;
  checked.dispatch = &registered(dispatch_schemes(), parallel.dispatch, source, "/parallel/dispatch");
  if (parallel.dispatch_written && !checked.strategy->spreads_experts) {
    throw ScenarioError(source, "/parallel/dispatch",
                        "a dispatch scheme is how strategy ep sends tokens to experts; strategy " +
                            checked.strategy->name + " has no experts to dispatch to");
  }
  check_workload_fits(scenario, checked.model);
  // A serving replica forms its own batches: the data-parallel (and expert-parallel
  // attention) checks have none to split.
  const WorkloadShape workload{
      scenario.workload.is_serving() ? checked.degrees.dp * checked.degrees.ep
                                     : scenario.workload.batch,
      scenario.workload.prompt_tokens, scenario.workload.new_tokens};
  const StrategyProblem problem =
      check_strategy(*checked.strategy, checked.model, checked.degrees, workload);
  if (!problem.detail.empty()) {
    throw ScenarioError(source, problem.key.empty() ? "/parallel" : "/parallel/" + problem.key,
                        problem.detail);
  }
  if (scenario.workload.is_serving()) check_serving(scenario, checked);
  checked.ranks = checked.degrees.world();
  const Disaggregation& pools = scenario.workload.serving.disaggregation;
  if (pools.enabled()) checked.ranks *= pools.prefill + pools.decode;
  const std::vector<RankDevice>& per_rank = scenario.devices.ranks;
  if (!per_rank.empty() && int(per_rank.size()) != checked.ranks) {
    throw ScenarioError(source, "/devices/ranks",
                        "lists " + std::to_string(per_rank.size()) + " devices for " +
                            std::to_string(checked.ranks) + " ranks");
  }
  for (int r = 0; r < checked.ranks; ++r) {
    checked.rank_devices.push_back(
        per_rank.empty() ? checked.device
                         : resolve_device(scenario, per_rank[size_t(r)],
                                          "/devices/ranks/" + std::to_string(r)));
  }
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
  inputs.dispatch = checked.dispatch;
  // The hierarchical dispatch orders by server: a topology's servers when it has them.
  for (const auto& [name, value] : scenario.network.topology_options) {
    if (name == "gpus_per_server" && value > 0) inputs.ranks_per_server = int(value);
  }
  return inputs;
}

}  // namespace uniference

namespace uniference {

ServingInputs serving_inputs(const Scenario& scenario, const CheckedCompute& checked) {
  const ServingSpec& spec = scenario.workload.serving;
  ServingInputs inputs;
  inputs.requests = make_requests(ServingWorkload{spec.arrivals, spec.prompt, spec.output},
                                  scenario.seed);
  inputs.scheduler = checked.scheduler;
  const int64_t vocab = checked.model.vocab;
  const uint64_t seed = scenario.seed;
  inputs.prompt_ids = [vocab, seed](const Request& r) { return request_prompt(r, vocab, seed); };
  return inputs;
}

void run_rank(const Scenario& scenario, const CheckedCompute& checked, Comm& world,
              const StrategyInputs& inputs, const ServingInputs& serving) {
  if (!scenario.workload.is_serving()) return run_strategy(*checked.strategy, world, inputs);
  const Disaggregation& pools = scenario.workload.serving.disaggregation;
  if (pools.enabled()) {
    return serve_disaggregated(*checked.strategy, world, inputs, serving, checked.cache, pools);
  }
  serve_strategy(*checked.strategy, world, inputs, serving, checked.cache);
}

}  // namespace uniference
