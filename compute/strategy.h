// Parallel strategies: shard programs over Comm, registered by the name scenarios give in
// /parallel/strategy. A strategy never knows whether it is simulated: the simulator and a
// real deployment both call run() on every rank with the world communicator.
#pragma once

#include "compute/comm.h"
#include "compute/model_config.h"
#include "compute/registry.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace uniference {

// The degrees a scenario gives under /parallel.
struct ParallelDegrees {
  int tp = 1;
};

// What one rank's strategy is asked to do, and how it reports progress.
struct StrategyInputs {
  ModelConfig model;
  uint64_t seed = 1;
  std::vector<int64_t> prompt;
  int64_t new_tokens = 0;
  ParallelDegrees degrees;
  // Called once the rank's weights are built: loading weights is not serving work.
  std::function<void()> weights_loaded;
  // Called on the rank that produces tokens, as soon as each is known (step 0 first).
  std::function<void(int64_t step, int64_t token)> on_token;
};

// A problem with a scenario's parallel settings: which key (under /parallel) and why.
struct StrategyProblem {
  std::string key;  // "tp", ...; empty when there is none
  std::string detail;
};

struct Strategy {
  std::string name;
  std::string description;
  // The number of ranks the degrees call for.
  std::function<int(const ParallelDegrees&)> world_size;
  // Whether the degrees fit the model.
  std::function<StrategyProblem(const ModelConfig&, const ParallelDegrees&)> check;
  // One rank's program; returns the generated tokens on the rank that produces them
  // (world rank 0), empty elsewhere.
  std::function<std::vector<int64_t>(Comm& world, const StrategyInputs&)> run;
};

// Every strategy, in the order docs and --help list them.
const NamedRegistry<Strategy>& strategies();

}  // namespace uniference
