// "voltage" and "kilovolts": position-wise partitioning with replicated weights (Voltage,
// ICDCS 2024). Each of the /parallel/sp ranks holds the whole model and computes every
// layer for its contiguous slice of the positions; keys and values are computed for every
// position from the layer's whole input, so attention sees the whole prefix; one all-gather
// per layer assembles the next layer's input. Kilovolts starts that all-gather
// asynchronously and computes what needs only the rank's own slice (its norm and query
// projection) while it is in flight.
//
// Decode: the new position is one position, and the slicing rule gives it to rank 0,
// which computes it; the others contribute an empty slice to each all-gather and keep their
// KV caches whole by computing the new keys and values from the gathered input. Every rank
// computes the logits of the last position from the gathered output, so every rank knows
// each token without a broadcast; rank 0 reports it.
#pragma once

#include "compute/strategy.h"

namespace uniference {

Strategy voltage_strategy();
Strategy kilovolts_strategy();

}  // namespace uniference
