#include "compute/strategies/data_parallel.h"

#include "compute/generation.h"
#include "compute/llama.h"

namespace uniference {

Strategy data_parallel_strategy() {
  Strategy s;
  s.name = "dp";
  s.description = "data parallelism: /parallel/dp replicas of the whole model, prompts dealt "
                  "round robin";
  s.check = [](const ModelConfig&, const ParallelDegrees& d, const WorkloadShape&) {
    return require_defaults(d, {"tp", "pp", "sp", "micro_batches", "stages"},
                            "strategy dp replicates the whole model on one rank; for replicas "
                            "of a sharded model give that strategy and /parallel/dp");
  };
  // The replica is one rank, which communicates with no one.
  s.run = [](const ParallelState&, const StrategyInputs& in) {
    ModelShard shard;
    shard.cache = CacheShape{int64_t(in.prompts.size()), cache_length(in)};
    shard.shapes_only = in.shapes_only;
    LlamaModel model(in.model, in.seed, shard);
    model_built(in, model, int64_t(in.prompts.size()), int64_t(in.prompts.front().size()), cache_length(in));
    generate_batch(model, in.prompts, in.new_tokens, in.on_token);
  };
  return s;
}

}  // namespace uniference
