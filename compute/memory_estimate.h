// What every rank of a layout will hold in memory, worked out from the model's shapes and the
// layout alone: no model is built, no tensor made. A planner sizes candidate layouts with it;
// the numbers are byte for byte what each rank's StrategyInputs::on_memory reports once its
// strategy has built its shard (compute/test/memory_estimate_test.cpp holds them to that).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compute/llama.h"  // CacheShape
#include "compute/model_config.h"
#include "compute/parallel_degrees.h"
#include "compute/strategy.h"

namespace uniference {

struct MemoryEstimateInputs {
  ModelConfig model;
  std::string strategy;     // a name registered in strategies()
  ParallelDegrees degrees;  // as the scenario gives them (dp included); its own strategy
                            // field is not read
  WorkloadShape workload;   // batch runs: batch, prompt_tokens, new_tokens
  // Serving runs: the KV cache every replica's engine is built with (apps/compute_check's
  // CacheShape{scheduler.max_batch, prompt_tokens + new_tokens - 1}). Set, the workload's
  // batch is not read: a serving replica forms its own batches.
  std::optional<CacheShape> serving;
  int ranks_per_server = 8;  // where expert dispatch groups ranks; no byte depends on it
};

// One MemoryUse per world rank (size: degrees.world()), byte for byte what that rank's
// on_memory would report. Throws std::invalid_argument for an unknown strategy, an
// inconsistent model, degrees the strategy's check refuses (the message starts with the
// key: "/parallel/tp: ..."), a serving run of a strategy without a serving engine, or a KV
// cache the model cannot hold.
std::vector<MemoryUse> estimate_memory(const MemoryEstimateInputs& in);

}  // namespace uniference
