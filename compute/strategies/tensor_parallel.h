// "tp": Megatron-style tensor parallelism of the whole model over every rank.
#pragma once

#include "compute/strategy.h"

namespace uniference {

Strategy tensor_parallel_strategy();

}  // namespace uniference
