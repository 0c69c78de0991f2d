#include "compute/strategies/tensor_parallel.h"

#include "compute/generation.h"
#include "compute/llama.h"
#include "compute/parallel_state.h"

namespace uniference {

namespace {

std::vector<int64_t> run_tensor_parallel(Comm& world, const StrategyInputs& in) {
  ParallelState state(world, in.degrees.tp);
  LlamaModel model(in.model, in.seed, &state.tensor_parallel_group());
  if (in.weights_loaded) in.weights_loaded();
  const bool reports = world.rank() == 0;
  std::vector<int64_t> tokens =
      generate(model, in.prompt, in.new_tokens, [&](int64_t step, int64_t token) {
        if (reports && in.on_token) in.on_token(step, token);
      });
  return reports ? tokens : std::vector<int64_t>{};
}

}  // namespace

Strategy tensor_parallel_strategy() {
  Strategy s;
  s.name = "tp";
  s.description = "tensor parallelism (Megatron): every layer sharded over /parallel/tp ranks";
  s.world_size = [](const ParallelDegrees& d) { return d.tp; };
  s.check = [](const ModelConfig& model, const ParallelDegrees& d) {
    return StrategyProblem{"tp", check_tensor_parallel(model, d.tp)};
  };
  s.run = run_tensor_parallel;
  return s;
}

}  // namespace uniference
