// Prefill/decode disaggregation (as DistServe and Splitwise run it): a prefill pool and a
// decode pool of replicas, each a tensor-parallel group of its own ranks. A request is
// prefilled by prefill replica id mod P, then handed over to decode replica id mod D: every
// prefill rank sends its heads' slice of the request's KV cache to the same TP rank of the
// decode replica (a real message, so in simulation a packet flow competing with the rest),
// and the prefill driver sends the decode driver the first token and its times. The decode
// pool loads each cache into a slot and decodes with its own scheduler.
#pragma once

#include "compute/llama.h"
#include "compute/serving/disaggregation_spec.h"
#include "compute/serving/serving_loop.h"
#include "compute/strategy.h"

namespace uniference {

// One world rank's part: world ranks [0, prefill * tp) are the prefill replicas, the next
// decode * tp the decode replicas. `serving.on_finished` is called on the decode drivers
// (and on a prefill driver for a request of one new token, which needs no decode).
// Throws std::invalid_argument when the strategy cannot hand KV caches over.
void serve_disaggregated(const Strategy& strategy, Comm& world, const StrategyInputs& inputs,
                         const ServingInputs& serving, const CacheShape& cache,
                         const Disaggregation& pools);

}  // namespace uniference
