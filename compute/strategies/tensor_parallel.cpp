#include "compute/strategies/tensor_parallel.h"

#include "compute/generation.h"
#include "compute/llama.h"
#include "compute/parallel_state.h"
#include "compute/serving/serving_engine.h"

namespace uniference {

namespace {

void run_tensor_parallel(const ParallelState& state, const StrategyInputs& in) {
  ModelShard shard;
  shard.tp = &state.tensor_parallel_group();
  shard.cache = CacheShape{int64_t(in.prompts.size()), cache_length(in)};
  shard.shapes_only = in.shapes_only;
  LlamaModel model(in.model, in.seed, shard);
  model_built(in, model, int64_t(in.prompts.size()), int64_t(in.prompts.front().size()), cache_length(in));
  // Every rank computes the same tokens (the logits are gathered); rank 0 reports them.
  std::function<void(int64_t, int64_t, int64_t)> report;
  if (state.tensor_parallel_rank() == 0) report = in.on_token;
  generate_batch(model, in.prompts, in.new_tokens, report);
}

// Every rank runs the whole step on its shard; the gathered logits give every rank the
// tokens.
class TensorParallelEngine final : public ServingEngine {
 public:
  TensorParallelEngine(const ParallelState& state, const StrategyInputs& in,
                       const CacheShape& cache)
      : model_(in.model, in.seed, shard(state, in, cache)) {
    model_built(in, model_, cache.batch, cache.length, cache.length);
  }

  std::vector<int64_t> step(const StepPlan& plan,
                            const std::vector<std::vector<int64_t>>& ids) override {
    std::vector<int64_t> tokens(plan.items.size());
    for (const RowGroup& group : row_groups(plan, ids)) {
      const std::vector<int64_t> chosen =
          model_.greedy_next(model_.forward_layers_rows(model_.embed(group.ids, 0), group.rows));
      for (size_t i = 0; i < group.items.size(); ++i) tokens[group.items[i]] = chosen[i];
    }
    return tokens;
  }

  at::Tensor kv_cache(int64_t slot, int64_t positions) override {
    return model_.kv_cache(slot, positions);
  }
  void load_kv_cache(int64_t slot, const at::Tensor& kv) override { model_.load_kv_cache(slot, kv); }

 private:
  static ModelShard shard(const ParallelState& state, const StrategyInputs& in,
                          const CacheShape& cache) {
    ModelShard s;
    s.tp = &state.tensor_parallel_group();
    s.cache = cache;
    s.shapes_only = in.shapes_only;
    return s;
  }

  LlamaModel model_;
};

}  // namespace

Strategy tensor_parallel_strategy() {
  Strategy s;
  s.name = "tp";
  s.description = "tensor parallelism (Megatron): every layer sharded over /parallel/tp ranks";
  s.check = [](const ModelConfig& model, const ParallelDegrees& d, const WorkloadShape&) {
    if (auto problem = require_defaults(d, {"pp", "sp", "micro_batches", "stages"},
                                        "strategy tp has one stage and no sequence partitions; "
                                        "pipelines are strategy tp-pp");
        !problem.key.empty()) {
      return problem;
    }
    return StrategyProblem{"tp", check_tensor_parallel(model, d.tp)};
  };
  s.groups.tensor = true;
  s.run = run_tensor_parallel;
  s.serve = [](const ParallelState& state, const StrategyInputs& in, const CacheShape& cache) {
    return std::unique_ptr<ServingEngine>(new TensorParallelEngine(state, in, cache));
  };
  s.hands_over_kv = true;
  return s;
}

}  // namespace uniference
