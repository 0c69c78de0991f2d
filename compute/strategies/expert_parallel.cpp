#include "compute/strategies/expert_parallel.h"

#include "compute/generation.h"
#include "compute/llama.h"
#include "compute/serving/serving_engine.h"

namespace uniference {

namespace {

void run_expert_parallel(const ParallelState& state, const StrategyInputs& in) {
  Comm& group = state.expert_parallel_group();
  const int ep = group.size(), rank = group.rank();
  // Prompts dealt round robin: rank r serves prompts r, r + ep, ...
  std::vector<std::vector<int64_t>> mine;
  std::vector<int64_t> global;
  for (size_t p = size_t(rank); p < in.prompts.size(); p += size_t(ep)) {
    mine.push_back(in.prompts[p]);
    global.push_back(int64_t(p));
  }
  ModelShard shard;
  shard.cache = CacheShape{int64_t(mine.size()), cache_length(in)};
  shard.shapes_only = in.shapes_only;
  shard.experts = ExpertGroup{&group, in.dispatch, in.ranks_per_server};
  LlamaModel model(in.model, in.seed, shard);
  model_built(in, model, int64_t(mine.size()), int64_t(mine.front().size()), cache_length(in));
  std::function<void(int64_t, int64_t, int64_t)> report;
  if (in.on_token) {
    report = [&](int64_t prompt, int64_t step, int64_t token) {
      in.on_token(global[size_t(prompt)], step, token);
    };
  }
  // Every rank runs the same steps (one prompt length, one answer length), so the MoE
  // layers' exchanges of all ranks pair up.
  generate_batch(model, mine, in.new_tokens, report);
}

// Slot s of the replica's cache is slot s / ep of rank s mod ep.
CacheShape rank_cache(const Comm& group, const CacheShape& cache) {
  return CacheShape{(cache.batch + group.size() - 1) / group.size(), cache.length};
}

ModelShard expert_shard(Comm& group, const StrategyInputs& in, const CacheShape& cache) {
  ModelShard shard;
  shard.cache = rank_cache(group, cache);
  shard.shapes_only = in.shapes_only;
  shard.experts = ExpertGroup{&group, in.dispatch, in.ranks_per_server};
  return shard;
}

// Serving with data-parallel attention: a rank runs the step's items whose KV-cache slot is
// its own (slot mod ep), and every rank joins every forward pass's MoE exchanges, with no
// tokens of its own if need be. Each pass's tokens reach the driver by one reduce (every
// item's token from its own rank, zeros from the others).
class ExpertParallelEngine final : public ServingEngine {
 public:
  ExpertParallelEngine(Comm& group, const StrategyInputs& in, const CacheShape& cache)
      : group_(group), model_(in.model, in.seed, expert_shard(group, in, cache)) {
    model_built(in, model_, rank_cache(group, cache).batch, cache.length, cache.length);
  }

  std::vector<int64_t> step(const StepPlan& plan,
                            const std::vector<std::vector<int64_t>>& ids) override {
    const int ep = group_.size(), rank = group_.rank();
    std::vector<int64_t> tokens(plan.items.size(), 0);
    for (const RowGroup& group : row_groups(plan, ids)) {
      std::vector<int64_t> mine;
      SequenceRows rows;
      for (size_t k = 0; k < group.items.size(); ++k) {
        if (group.rows.slots[k] % ep != rank) continue;
        mine.push_back(int64_t(k));
        rows.slots.push_back(group.rows.slots[k] / ep);
        rows.starts.push_back(group.rows.starts[k]);
      }
      const int64_t positions = group.ids.size(1);
      const at::Tensor hidden =
          mine.empty()
              ? at::empty({0, positions, model_.config().dim}, model_.activation_options())
              : model_.embed(group.ids.index_select(0, at::tensor(mine, at::kLong)), 0);
      const std::vector<int64_t> chosen =
          model_.greedy_next(model_.forward_layers_rows(hidden, rows));
      at::Tensor found = at::zeros({int64_t(group.items.size())}, at::kLong);
      for (size_t j = 0; j < mine.size(); ++j) found[mine[j]] = chosen[j];
      group_.reduce(found, 0);
      for (size_t k = 0; k < group.items.size(); ++k) {
        tokens[group.items[k]] = found[int64_t(k)].item<int64_t>();
      }
    }
    return tokens;
  }

 private:
  Comm& group_;
  LlamaModel model_;
};

}  // namespace

Strategy expert_parallel_strategy() {
  Strategy s;
  s.name = "ep";
  s.description =
      "expert parallelism (DeepSeek-style): each MoE layer's experts spread over /parallel/ep "
      "ranks, each rank's attention serving its own prompts; /parallel/dispatch picks how "
      "tokens reach their experts";
  s.check = [](const ModelConfig& model, const ParallelDegrees& d, const WorkloadShape& w) {
    if (auto problem = require_defaults(d, {"tp", "pp", "sp", "micro_batches", "stages"},
                                        "strategy ep replicates attention and spreads experts; "
                                        "it has no tensor, pipeline or sequence partitions");
        !problem.key.empty()) {
      return problem;
    }
    if (std::string problem = check_expert_parallel(model, d.ep); !problem.empty()) {
      return StrategyProblem{"ep", problem};
    }
    if (w.batch % (int64_t(d.ep) * d.dp) != 0) {
      return StrategyProblem{
          "ep", "every rank's attention serves its own prompts: /workload/batch (" +
                    std::to_string(w.batch) + ") must be a multiple of ep x dp (" +
                    std::to_string(int64_t(d.ep) * d.dp) + ")"};
    }
    return StrategyProblem{};
  };
  s.groups.expert = true;  // the whole replica: no split of its own
  s.run = run_expert_parallel;
  s.spreads_experts = true;
  s.serve = [](const ParallelState& state, const StrategyInputs& in, const CacheShape& cache) {
    return std::unique_ptr<ServingEngine>(
        new ExpertParallelEngine(state.expert_parallel_group(), in, cache));
  };
  return s;
}

}  // namespace uniference
