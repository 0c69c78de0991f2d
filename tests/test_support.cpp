#include "test_support.h"

namespace uniference::test {

std::unique_ptr<ComputeMeter> modeled_meter() { return make_modeled_meter(device_profile("a100")); }

RunOutcome run_star(int ranks, const NetworkConfig& network,
                    const std::function<void(Comm&)>& shard, RunRecord* record) {
  SimCluster cluster(network);
  for (int r = 0; r < ranks; ++r) cluster.add_rank(modeled_meter(), shard);
  RunOutcome outcome = cluster.run();
  if (record != nullptr) *record = cluster.record();
  return outcome;
}

}  // namespace uniference::test
