#include "compute/strategy.h"

#include "compute/llama.h"
#include "compute/strategies/data_parallel.h"
#include "compute/strategies/expert_parallel.h"
#include "compute/strategies/pipeline_parallel.h"
#include "compute/strategies/tensor_parallel.h"
#include "compute/strategies/voltage.h"

#include <algorithm>
#include <string>

namespace uniference {

const NamedRegistry<Strategy>& strategies() {
  static const NamedRegistry<Strategy> registry(
      "strategy", {
                      tensor_parallel_strategy(),
                      pipeline_parallel_strategy(),
                      tensor_pipeline_parallel_strategy(),
                      voltage_strategy(),
                      kilovolts_strategy(),
                      data_parallel_strategy(),
                      expert_parallel_strategy(),
                  });
  return registry;
}

StrategyProblem require_defaults(const ParallelDegrees& degrees,
                                 std::initializer_list<const char*> keys, const char* why) {
  for (const char* key : keys) {
    const std::string name = key;
    bool is_default = true;
    if (name == "tp") is_default = degrees.tp == 1;
    if (name == "pp") is_default = degrees.pp == 1;
    if (name == "sp") is_default = degrees.sp == 1;
    if (name == "ep") is_default = degrees.ep == 1;
    if (name == "dp") is_default = degrees.dp == 1;
    if (name == "micro_batches") is_default = degrees.micro_batches == 1;
    if (name == "stages") is_default = degrees.stages.empty();
    if (!is_default) return StrategyProblem{name, why};
  }
  return {};
}

StrategyProblem check_strategy(const Strategy& strategy, const ModelConfig& model,
                               const ParallelDegrees& degrees, const WorkloadShape& workload) {
  if (degrees.tp < 1 || degrees.pp < 1 || degrees.dp < 1 || degrees.sp < 1 || degrees.ep < 1) {
    return StrategyProblem{"", "every parallel degree must be at least 1"};
  }
  if (degrees.ep != 1 && !strategy.spreads_experts) {
    return StrategyProblem{"ep", "strategy " + strategy.name +
                                     " does not spread experts; expert parallelism is strategy ep"};
  }
  if (StrategyProblem problem = strategy.check(model, degrees, workload); !problem.detail.empty()) {
    return problem;
  }
  if (degrees.dp > workload.batch) {
    return StrategyProblem{"dp", std::to_string(degrees.dp) + " replicas for a batch of " +
                                     std::to_string(workload.batch) +
                                     " prompts would leave a replica idle; raise /workload/batch "
                                     "or lower /parallel/dp"};
  }
  return {};
}

void run_strategy(const Strategy& strategy, Comm& world, const StrategyInputs& inputs) {
  const ParallelState state(world, inputs.degrees, strategy.groups);
  const int replicas = state.data_parallel_size();
  if (replicas == 1) return strategy.run(state, inputs);
  const int replica = state.data_parallel_rank();
  StrategyInputs local = inputs;
  local.prompts.clear();
  std::vector<int64_t> global_index;
  for (size_t p = static_cast<size_t>(replica); p < inputs.prompts.size(); p += replicas) {
    local.prompts.push_back(inputs.prompts[p]);
    global_index.push_back(static_cast<int64_t>(p));
  }
  if (local.prompts.empty()) return;  // check_strategy refuses this; a direct caller may not
  if (inputs.on_token) {
    local.on_token = [&](int64_t prompt, int64_t step, int64_t token) {
      inputs.on_token(global_index[static_cast<size_t>(prompt)], step, token);
    };
  }
  strategy.run(state, local);
}

void model_built(const StrategyInputs& inputs, const LlamaModel& model, int64_t batch,
                 int64_t queries, int64_t keys) {
  if (inputs.on_memory) {
    inputs.on_memory(MemoryUse{model.weight_bytes(), model.cache_bytes(),
                               model.activation_bytes(batch, queries, keys)});
  }
  if (inputs.weights_loaded) inputs.weights_loaded();
}

int64_t cache_length(const StrategyInputs& inputs) {
  const int64_t prompt = inputs.prompts.empty() ? 0 : int64_t(inputs.prompts.front().size());
  return prompt + std::max<int64_t>(inputs.new_tokens - 1, 0);
}

}  // namespace uniference
