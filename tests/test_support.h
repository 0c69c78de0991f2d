// Shared by the bridge tests: a star cluster whose ranks all run the same shard.
#pragma once

#include "bridge/sim_cluster.h"

#include <functional>

namespace uniference::test {

// Modeled compute on a named device profile: deterministic.
std::unique_ptr<ComputeMeter> modeled_meter();

// Runs `shard` on `ranks` ranks of a star with the given links; returns the outcome
// and leaves the record in `record`.
RunOutcome run_star(int ranks, const NetworkConfig& network,
                    const std::function<void(Comm&)>& shard, RunRecord* record = nullptr);

}  // namespace uniference::test
