// "dp": data-parallel replicas of the whole model, one rank each (/parallel/dp of them).
// Replicas of a sharded model are any other strategy with /parallel/dp above 1.
#pragma once

#include "compute/strategy.h"

namespace uniference {

Strategy data_parallel_strategy();

}  // namespace uniference
