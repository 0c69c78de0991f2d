// "pp" and "tp-pp": the layers cut into /parallel/pp stages (evenly, or /parallel/stages
// layers each), every stage a tensor-parallel group of /parallel/tp ranks ("pp": one).
// Activations go stage to stage with send/recv, micro-batches fill the pipeline, and the
// last stage sends each new token back to the first.
#pragma once

#include "compute/strategy.h"

#include <cstdint>
#include <vector>

namespace uniference {

Strategy pipeline_parallel_strategy();
Strategy tensor_pipeline_parallel_strategy();

// The first layer of each stage, and the end: n_layers split as evenly as possible (the
// first stages take one more), or as `stages` says.
std::vector<int64_t> stage_boundaries(int64_t n_layers, int pp, const std::vector<int64_t>& stages);

// One micro-batch of a pipeline: prompts first_prompt .. first_prompt + prompts - 1, and in
// prefill the positions first_position .. first_position + positions - 1 of them.
struct MicroBatch {
  int64_t first_prompt = 0;
  int64_t prompts = 0;
  int64_t first_position = 0;
  int64_t positions = 0;
};

// The prefill's micro-batches, in the order every stage runs them: the batch's prompts cut
// into min(micro_batches, batch) groups, and, when micro_batches exceeds the batch, each
// group's prompt cut into micro_batches / batch chunks of positions (chunked prefill).
// Groups and chunks differ in size by at most one, the first ones larger.
std::vector<MicroBatch> prefill_micro_batches(int64_t batch, int64_t prompt_tokens,
                                              int micro_batches);

// `total` items in `parts` contiguous parts differing by at most one, the first ones larger:
// the first item of each part, and the end.
std::vector<int64_t> even_split(int64_t total, int64_t parts);

}  // namespace uniference
