// Parallel strategies: shard programs over Comm, registered by the name scenarios give in
// /parallel/strategy. A strategy never knows whether it is simulated: the simulator and a
// real deployment both call run() on every rank with the world communicator.
//
// Every strategy runs as /parallel/dp data-parallel replicas: the world is cut into dp
// blocks of consecutive ranks, each a replica running the strategy on its own
// communicator, and the batch's prompts are dealt to the replicas round robin. The groups
// come from one ParallelState (compute/parallel_state.h), built before the strategy runs.
#pragma once

#include "compute/comm.h"
#include "compute/model_config.h"
#include "compute/parallel_degrees.h"
#include "compute/parallel_state.h"
#include "compute/registry.h"

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

namespace uniference {

// What is served: `batch` prompts of prompt_tokens each, new_tokens generated for each.
struct WorkloadShape {
  int64_t batch = 1;
  int64_t prompt_tokens = 1;
  int64_t new_tokens = 0;
};

// What one rank holds, in bytes.
struct MemoryUse {
  uint64_t weights = 0;
  uint64_t kv_cache = 0;
  uint64_t activations = 0;  // an estimate of the largest live set (LlamaModel::activation_bytes)
  uint64_t total() const { return weights + kv_cache + activations; }
};

class LlamaModel;
class ServingEngine;
struct CacheShape;
struct DispatchScheme;

// What one rank's strategy is asked to do, and how it reports progress.
struct StrategyInputs {
  ModelConfig model;
  uint64_t seed = 1;
  std::vector<std::vector<int64_t>> prompts;  // the batch; every prompt of one length
  int64_t new_tokens = 0;
  ParallelDegrees degrees;
  // Meta tensors throughout: every shape, byte and cost as with data, no numbers (so the
  // tokens are meaningless), no memory for weights.
  bool shapes_only = false;
  // Expert parallelism: how tokens reach their experts (nullptr: the first scheme, bsp),
  // and how many consecutive ranks share a server (what the hierarchical scheme orders by).
  const DispatchScheme* dispatch = nullptr;
  int ranks_per_server = 8;
  // Called once the rank's weights are built: loading weights is not serving work.
  std::function<void()> weights_loaded;
  // Called on every rank once its model is built, with what it will hold.
  std::function<void(const MemoryUse&)> on_memory;
  // Called on the one rank that produces a prompt's tokens, as soon as each is known
  // (step 0 first). prompt indexes `prompts`.
  std::function<void(int64_t prompt, int64_t step, int64_t token)> on_token;
};

// A problem with a scenario's parallel settings: which key (under /parallel) and why.
struct StrategyProblem {
  std::string key;  // "tp", "pp", ...; empty when there is none
  std::string detail;
};

struct Strategy {
  std::string name;
  std::string description;
  // Whether the degrees fit the model and the workload (dp is checked for every strategy).
  std::function<StrategyProblem(const ModelConfig&, const ParallelDegrees&, const WorkloadShape&)>
      check;
  // The groups its ranks communicate on besides their replica; the ParallelState given to
  // run and serve has made exactly these (and nothing else: a split is collective).
  ParallelGroups groups;
  // One replica rank's program; the replica is state.model_parallel_group() (of
  // tp * pp * sp * ep ranks).
  std::function<void(const ParallelState& state, const StrategyInputs&)> run;
  // A replica rank's serving engine (compute/serving/), its model built with a KV cache of
  // `cache`; empty for a strategy that cannot serve requests as they arrive. `state`
  // outlives the engine.
  std::function<std::unique_ptr<ServingEngine>(const ParallelState& state, const StrategyInputs&,
                                               const CacheShape& cache)>
      serve;
  // Whether its engine hands a request's KV cache over between replicas (disaggregation):
  // each rank of a replica then holds the same slice of every layer's cache.
  bool hands_over_kv = false;
  // Whether it spreads a mixture of experts' experts (/parallel/ep, /parallel/dispatch).
  bool spreads_experts = false;
};

// Every strategy, in the order docs and --help list them.
const NamedRegistry<Strategy>& strategies();

// The strategy's check, then the data-parallel degree's (at most one replica per prompt).
StrategyProblem check_strategy(const Strategy& strategy, const ModelConfig& model,
                               const ParallelDegrees& degrees, const WorkloadShape& workload);

// One rank's part of the whole run: builds the strategy's groups, deals the prompts to the
// replicas, runs the strategy. Throws std::invalid_argument when the degrees do not make up
// the world.
void run_strategy(const Strategy& strategy, Comm& world, const StrategyInputs& inputs);

// A problem naming the first of `keys` ("tp", "pp", "sp", "ep", "dp", "micro_batches",
// "stages") whose setting is not the default (1, or no stages): for settings a strategy
// does not use. `why` says which strategy does.
StrategyProblem require_defaults(const ParallelDegrees& degrees,
                                 std::initializer_list<const char*> keys, const char* why);

// A strategy's rank has built its model: reports its memory (activations as the model
// estimates them for its largest forward pass: `batch` sequences of `queries` new positions
// over `keys`), then that its weights are loaded.
void model_built(const StrategyInputs& inputs, const LlamaModel& model, int64_t batch,
                 int64_t queries, int64_t keys);

// The positions a rank's KV cache needs: the prompt, then every new token fed back.
int64_t cache_length(const StrategyInputs& inputs);

}  // namespace uniference
