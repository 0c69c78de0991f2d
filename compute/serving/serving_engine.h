// A strategy's side of serving: one forward step over whatever requests the scheduler put
// in it. Strategies that can serve register a factory for one (Strategy::serve); the
// serving loop (serving_loop.h) drives it on every rank of a replica.
#pragma once

#include "compute/llama.h"
#include "compute/serving/scheduler.h"

#include <ATen/ATen.h>

#include <cstdint>
#include <vector>

namespace uniference {

class ServingEngine {
 public:
  virtual ~ServingEngine();
  // Runs `plan` on this rank; every rank of the replica calls it with the same plan and
  // ids (ids[i]: the tokens item i feeds). Returns each item's next token on the replica's
  // rank 0; what other ranks return is unspecified.
  virtual std::vector<int64_t> step(const StepPlan& plan,
                                    const std::vector<std::vector<int64_t>>& ids) = 0;

  // Handing a request over between pools (disaggregation): this rank's part of the KV cache
  // of `slot`, positions 0 .. positions - 1, and loading one into a slot. The defaults throw
  // std::logic_error: an engine whose ranks do not each hold a whole layer range's heads
  // slice cannot hand over.
  virtual at::Tensor kv_cache(int64_t slot, int64_t positions);
  virtual void load_kv_cache(int64_t slot, const at::Tensor& kv);
};

// The items of a step that feed the same number of positions: one forward pass.
struct RowGroup {
  std::vector<size_t> items;  // indexes into the plan
  SequenceRows rows;
  at::Tensor ids;  // int64 [rows, positions]
};

// A step's items grouped by how many positions they feed, in order of first appearance
// (a decode step is one group; a prefill step one per prompt length).
std::vector<RowGroup> row_groups(const StepPlan& plan, const std::vector<std::vector<int64_t>>& ids);

}  // namespace uniference
