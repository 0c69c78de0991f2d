#include "compute/strategy.h"

#include "compute/strategies/tensor_parallel.h"

namespace uniference {

const NamedRegistry<Strategy>& strategies() {
  static const NamedRegistry<Strategy> registry("strategy", {
                                                                tensor_parallel_strategy(),
                                                            });
  return registry;
}

}  // namespace uniference
