// The first half of checking a scenario against the registries: what the shard code needs
// (model preset, device profile, strategy and its degrees, and that the workload fits), with
// no word of the network, so a deployment checks it without ns-3.
#pragma once

#include "apps/scenario.h"
#include "compute/compute_meter.h"
#include "compute/model_config.h"
#include "compute/llama.h"
#include "compute/moe/expert_exchange.h"
#include "compute/serving/serving_loop.h"
#include "compute/strategy.h"

namespace uniference {

struct CheckedCompute {
  ModelConfig model;
  DeviceProfile device;               // /devices' own (every rank's unless /devices/ranks)
  std::vector<DeviceProfile> rank_devices;  // each rank's device, resolved for /devices/dtype
  const Strategy* strategy = nullptr;
  ParallelDegrees degrees;
  const DispatchScheme* dispatch = nullptr;  // strategy ep's
  int ranks = 0;
  LatencySpec wake_latency;     // /devices/wake_latency
  uint64_t seed = 1;            // /seed, of the kernel's per-rank streams
  // Serving only: the scheduler (its cache size filled in) and each rank's KV cache.
  SchedulerConfig scheduler;
  CacheShape cache;
};

// Throws ScenarioError naming the path of the first problem.
CheckedCompute check_compute(const Scenario& scenario);

// The strategy's inputs for this scenario: its model, prompts, degrees and workload. The
// caller adds the callbacks that report progress.
StrategyInputs strategy_inputs(const Scenario& scenario, const CheckedCompute& checked);

// A serving scenario's requests, scheduler and prompts. The caller adds the clock and what
// to do with each finished request.
ServingInputs serving_inputs(const Scenario& scenario, const CheckedCompute& checked);

// One rank's program for the scenario's workload, simulated or deployed: the strategy's
// generation, or serving (disaggregated when /workload/disaggregation says so).
void run_rank(const Scenario& scenario, const CheckedCompute& checked, Comm& world,
              const StrategyInputs& inputs, const ServingInputs& serving);

}  // namespace uniference
