#include "compute/strategies/expert_parallel.h"

#include "compute/generation.h"
#include "compute/llama.h"

namespace uniference {

namespace {

void run_expert_parallel(Comm& group, const StrategyInputs& in) {
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
  s.run = run_expert_parallel;
  return s;
}

}  // namespace uniference
