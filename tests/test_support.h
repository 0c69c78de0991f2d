// Shared by the bridge tests: a star cluster whose ranks all run the same shard.
#pragma once

#include "bridge/sim_cluster.h"

#include <functional>

namespace uniference::test {

// Modeled compute on a named device profile: deterministic.
std::unique_ptr<ComputeMeter> modeled_meter();

// Runs `shard` on `ranks` ranks of a star with the given links; returns the outcome
// and leaves the record in `record`.
RunOutcome run_star(int ranks, const StarNetworkConfig& network,
                    const std::function<void(Comm&)>& shard, RunRecord* record = nullptr);

// Bits per second of a DataRate string, for formulas in tests ("1Gbps" -> 1e9).
double bits_per_second(const std::string& rate);

}  // namespace uniference::test
