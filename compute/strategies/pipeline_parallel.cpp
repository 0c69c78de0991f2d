#include "compute/strategies/pipeline_parallel.h"

#include "compute/compute_label.h"
#include "compute/generation.h"
#include "compute/llama.h"
#include "compute/parallel_state.h"
#include "compute/pending_sends.h"
#include "compute/serving/serving_engine.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace uniference {

std::vector<int64_t> even_split(int64_t total, int64_t parts) {
  std::vector<int64_t> bounds{0};
  for (int64_t p = 0; p < parts; ++p) {
    bounds.push_back(bounds.back() + total / parts + (p < total % parts ? 1 : 0));
  }
  return bounds;
}

std::vector<int64_t> stage_boundaries(int64_t n_layers, int pp,
                                      const std::vector<int64_t>& stages) {
  if (stages.empty()) return even_split(n_layers, pp);
  std::vector<int64_t> bounds{0};
  for (int64_t layers : stages) bounds.push_back(bounds.back() + layers);
  return bounds;
}

std::vector<MicroBatch> prefill_micro_batches(int64_t batch, int64_t prompt_tokens,
                                              int micro_batches) {
  const int64_t groups = std::min<int64_t>(micro_batches, batch);
  const int64_t chunks = std::max<int64_t>(1, micro_batches / batch);
  const std::vector<int64_t> group_bounds = even_split(batch, groups);
  const std::vector<int64_t> chunk_bounds = even_split(prompt_tokens, chunks);
  std::vector<MicroBatch> out;
  for (int64_t g = 0; g < groups; ++g) {
    for (int64_t c = 0; c < chunks; ++c) {
      out.push_back(MicroBatch{group_bounds[g], group_bounds[g + 1] - group_bounds[g],
                               chunk_bounds[c], chunk_bounds[c + 1] - chunk_bounds[c]});
    }
  }
  return out;
}

namespace {

constexpr int kActivationTag = 0;
constexpr int kTokenTag = 1;

at::Tensor as_ids(const std::vector<int64_t>& tokens, int64_t rows) {
  return at::tensor(at::ArrayRef<int64_t>(tokens), at::TensorOptions().dtype(at::kLong))
      .view({rows, int64_t(tokens.size()) / rows});
}

std::vector<int64_t> as_vector(const at::Tensor& ids) {
  const at::Tensor flat = ids.contiguous();
  return std::vector<int64_t>(flat.data_ptr<int64_t>(), flat.data_ptr<int64_t>() + flat.numel());
}

// One rank of a pipeline: a stage's TP rank t sends to rank t of the next stage (every TP
// rank holds the whole activation), and the last stage's to the first's, all on the
// replica's communicator (ParallelState's layout: replica rank stage * tp + tp_rank).
void run_pipeline(const ParallelState& state, const StrategyInputs& in) {
  const ParallelDegrees& d = in.degrees;
  Comm& replica = state.model_parallel_group();
  const int stages = state.pipeline_parallel_size();
  const int stage = state.pipeline_parallel_rank(), tp_rank = state.tensor_parallel_rank();
  const bool first = state.is_pipeline_first_stage(), last = state.is_pipeline_last_stage();
  const int next = state.pipeline_next_rank(), previous = state.pipeline_previous_rank();
  const int first_stage_peer = state.pipeline_first_rank();
  const int last_stage_peer = state.pipeline_last_rank();

  const std::vector<int64_t> bounds = stage_boundaries(in.model.n_layers, stages, d.stages);
  const int64_t batch = int64_t(in.prompts.size());
  const int64_t prompt_tokens = int64_t(in.prompts.front().size());
  ModelShard shard;
  shard.tp = &state.tensor_parallel_group();
  shard.first_layer = bounds[stage];
  shard.end_layer = bounds[stage + 1];
  shard.cache = CacheShape{batch, cache_length(in)};
  shard.shapes_only = in.shapes_only;
  LlamaModel model(in.model, in.seed, shard);
  const std::vector<MicroBatch> prefill = prefill_micro_batches(batch, prompt_tokens, d.micro_batches);
  // The first micro-batch is the largest (even_split puts the extra items first).
  model_built(in, model, prefill.front().prompts, prefill.front().positions, cache_length(in));
  check_generation(in.prompts, in.new_tokens, in.model.max_seq);
  if (in.new_tokens == 0) return;

  const at::Tensor prompts = token_batch(in.prompts);
  const auto activation = [&](int64_t rows, int64_t positions) {
    return at::empty({rows, positions, in.model.dim}, model.activation_options());
  };
  PendingSends sends;
  // The tokens of the micro-batch of prompts first.. that the last stage chose, reported
  // there; returned to the first stage unless they are the last ones.
  const auto finish = [&](const MicroBatch& mb, const at::Tensor& hidden, int64_t step) {
    const std::vector<int64_t> tokens = greedy_tokens(model.logits(hidden, Logits::kLast));
    if (tp_rank == 0 && in.on_token) {
      for (int64_t p = 0; p < mb.prompts; ++p) in.on_token(mb.first_prompt + p, step, tokens[p]);
    }
    if (step + 1 < in.new_tokens && !first) {
      sends.send(replica, as_ids(tokens, mb.prompts), first_stage_peer, kTokenTag);
    }
    return tokens;
  };
  // Runs one micro-batch through this stage; returns the new tokens on the last stage.
  const auto stage_pass = [&](const MicroBatch& mb, const at::Tensor& ids, int64_t start_pos,
                              bool ends_sequence, int64_t step) {
    at::Tensor hidden;
    if (first) {
      hidden = model.embed(ids, start_pos);
    } else {
      hidden = activation(mb.prompts, mb.positions);
      replica.recv(hidden, previous, kActivationTag);
    }
    hidden = model.forward_layers(hidden, start_pos, CacheSlots{mb.first_prompt});
    if (!last) {
      sends.send(replica, hidden, next, kActivationTag);
      return std::vector<int64_t>{};
    }
    return ends_sequence ? finish(mb, hidden, step) : std::vector<int64_t>{};
  };

  // Prefill: every micro-batch once; a group's last chunk yields its first tokens.
  std::vector<std::vector<int64_t>> tokens(static_cast<size_t>(batch));  // the first stage's latest
  for (const MicroBatch& mb : prefill) {
    const at::Tensor ids =
        first ? prompts.narrow(0, mb.first_prompt, mb.prompts).narrow(1, mb.first_position, mb.positions)
              : at::Tensor();
    const bool ends = mb.first_position + mb.positions == prompt_tokens;
    const std::vector<int64_t> chosen = stage_pass(mb, ids, mb.first_position, ends, 0);
    if (first && last && ends) tokens[size_t(mb.first_prompt)] = chosen;
  }
  // Decode: one position per step for every group of prompts, the groups in flight at
  // once, each waiting only for its own previous token.
  std::vector<MicroBatch> groups;
  const std::vector<int64_t> group_bounds =
      even_split(batch, std::min<int64_t>(d.micro_batches, batch));
  for (size_t g = 0; g + 1 < group_bounds.size(); ++g) {
    groups.push_back(MicroBatch{group_bounds[g], group_bounds[g + 1] - group_bounds[g], 0, 1});
  }
  for (int64_t step = 1; step < in.new_tokens; ++step) {
    for (const MicroBatch& mb : groups) {
      at::Tensor ids;
      if (first) {
        if (last) {
          ids = as_ids(tokens[size_t(mb.first_prompt)], mb.prompts);
        } else {
          ids = at::empty({mb.prompts, 1}, at::TensorOptions().dtype(at::kLong));
          replica.recv(ids, last_stage_peer, kTokenTag);
        }
      }
      const std::vector<int64_t> chosen =
          stage_pass(mb, ids, prompt_tokens + step - 1, /*ends_sequence=*/true, step);
      if (first && last) tokens[size_t(mb.first_prompt)] = chosen;
    }
  }
  sends.wait_all();
}

StrategyProblem check_pipeline(const ModelConfig& model, const ParallelDegrees& d,
                               const WorkloadShape& workload) {
  if (auto problem = require_defaults(d, {"sp"}, "a pipeline does not partition positions; that is "
                                          "strategy voltage");
      !problem.key.empty()) {
    return problem;
  }
  if (d.pp > model.n_layers) {
    return StrategyProblem{"pp", std::to_string(d.pp) + " stages for a model of " +
                                     std::to_string(model.n_layers) + " layers"};
  }
  if (!d.stages.empty()) {
    if (int64_t(d.stages.size()) != d.pp) {
      return StrategyProblem{"stages", "lists " + std::to_string(d.stages.size()) +
                                           " stages for /parallel/pp = " + std::to_string(d.pp)};
    }
    if (*std::min_element(d.stages.begin(), d.stages.end()) < 1) {
      return StrategyProblem{"stages", "every stage needs at least one layer"};
    }
    const int64_t sum = std::accumulate(d.stages.begin(), d.stages.end(), int64_t(0));
    if (sum != model.n_layers) {
      return StrategyProblem{"stages", "adds up to " + std::to_string(sum) +
                                           " layers; the model has " +
                                           std::to_string(model.n_layers)};
    }
  }
  if (d.micro_batches < 1) return StrategyProblem{"micro_batches", "must be at least 1"};
  // The replica with the fewest prompts cuts them into the most chunks.
  const int64_t smallest_batch = std::max<int64_t>(1, workload.batch / d.dp);
  const int64_t chunks = std::max<int64_t>(1, d.micro_batches / smallest_batch);
  if (chunks > workload.prompt_tokens) {
    return StrategyProblem{"micro_batches",
                           std::to_string(d.micro_batches) + " micro-batches cut a prompt of " +
                               std::to_string(workload.prompt_tokens) + " tokens into " +
                               std::to_string(chunks) + " chunks: more chunks than tokens"};
  }
  return StrategyProblem{"tp", check_tensor_parallel(model, d.tp)};
}


// A pipeline serves a step stage by stage: each group of rows of the step goes down the
// stages in turn (the groups of a prefill step follow each other through the pipeline), and
// the last stage's first rank returns their tokens to the driver, rank 0.
class PipelineEngine final : public ServingEngine {
 public:
  PipelineEngine(const ParallelState& state, const StrategyInputs& in, const CacheShape& cache)
      : state_(state),
        replica_(state.model_parallel_group()),
        model_(in.model, in.seed, shard(in, cache)) {
    model_built(in, model_, cache.batch, cache.length, cache.length);
  }

  std::vector<int64_t> step(const StepPlan& plan,
                            const std::vector<std::vector<int64_t>>& ids) override {
    const bool first = state_.is_pipeline_first_stage(), last = state_.is_pipeline_last_stage();
    // The last stage's first rank, where rank 0 (the driver, the first stage's first rank)
    // looks for the tokens.
    const bool reports = last && state_.tensor_parallel_rank() == 0;
    const std::vector<RowGroup> groups = row_groups(plan, ids);
    std::vector<int64_t> tokens(plan.items.size());
    PendingSends sends;
    for (const RowGroup& group : groups) {
      const int64_t rows = int64_t(group.items.size());
      at::Tensor hidden;
      if (first) {
        hidden = model_.embed(group.ids, 0);
      } else {
        hidden = at::empty({rows, group.ids.size(1), model_.config().dim},
                           model_.activation_options());
        replica_.recv(hidden, state_.pipeline_previous_rank(), kActivationTag);
      }
      hidden = model_.forward_layers_rows(hidden, group.rows);
      if (!last) {
        sends.send(replica_, hidden, state_.pipeline_next_rank(), kActivationTag);
        continue;
      }
      const std::vector<int64_t> chosen = model_.greedy_next(hidden);
      if (replica_.rank() == 0) {
        for (size_t i = 0; i < group.items.size(); ++i) tokens[group.items[i]] = chosen[i];
      } else if (reports) {
        sends.send(replica_, as_ids(chosen, rows), 0, kTokenTag);
      }
    }
    if (replica_.rank() == 0 && !last) {
      for (const RowGroup& group : groups) {
        at::Tensor chosen =
            at::empty({int64_t(group.items.size()), 1}, at::TensorOptions().dtype(at::kLong));
        replica_.recv(chosen, state_.pipeline_last_rank(), kTokenTag);
        const std::vector<int64_t> values = as_vector(chosen);
        for (size_t i = 0; i < group.items.size(); ++i) tokens[group.items[i]] = values[i];
      }
    }
    sends.wait_all();
    return tokens;
  }

 private:
  ModelShard shard(const StrategyInputs& in, const CacheShape& cache) const {
    const std::vector<int64_t> bounds =
        stage_boundaries(in.model.n_layers, state_.pipeline_parallel_size(), in.degrees.stages);
    const size_t stage = size_t(state_.pipeline_parallel_rank());
    ModelShard s;
    s.tp = &state_.tensor_parallel_group();
    s.first_layer = bounds[stage];
    s.end_layer = bounds[stage + 1];
    s.cache = cache;
    s.shapes_only = in.shapes_only;
    return s;
  }

  const ParallelState& state_;
  Comm& replica_;  // the replica
  LlamaModel model_;
};

std::unique_ptr<ServingEngine> serve_pipeline(const ParallelState& state, const StrategyInputs& in,
                                              const CacheShape& cache) {
  return std::make_unique<PipelineEngine>(state, in, cache);
}
}  // namespace

Strategy pipeline_parallel_strategy() {
  Strategy s;
  s.name = "pp";
  s.description =
      "pipeline parallelism: layers cut into /parallel/pp stages, micro-batches fill the pipeline";
  s.check = [](const ModelConfig& model, const ParallelDegrees& d, const WorkloadShape& w) {
    if (auto problem = require_defaults(d, {"tp"}, "strategy pp has one rank per stage; TP inside "
                                            "stages is strategy tp-pp");
        !problem.key.empty()) {
      return problem;
    }
    return check_pipeline(model, d, w);
  };
  s.groups.tensor = true;
  s.run = run_pipeline;
  s.serve = serve_pipeline;
  return s;
}

Strategy tensor_pipeline_parallel_strategy() {
  Strategy s;
  s.name = "tp-pp";
  s.description = "pipeline stages (/parallel/pp) of tensor-parallel groups (/parallel/tp)";
  s.check = check_pipeline;
  s.groups.tensor = true;
  s.run = run_pipeline;
  s.serve = serve_pipeline;
  return s;
}

}  // namespace uniference
