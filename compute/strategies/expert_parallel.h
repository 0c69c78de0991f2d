// "ep": expert parallelism of a mixture of experts, with data-parallel attention. Every rank
// holds the whole model but 1/ep of each MoE layer's experts, serves its own share of the
// batch's prompts (attention, dense layers, head), and sends each token's routed copies to
// the ranks holding their experts by the scenario's dispatch scheme, as DeepSeek-style
// inference does. It serves too: each rank the requests in its own KV-cache slots.
#pragma once

#include "compute/strategy.h"

namespace uniference {

Strategy expert_parallel_strategy();

}  // namespace uniference
