#include "apps/colltest.h"

#include "apps/run_capture.h"
#include "apps/run_scenario.h"
#include "bridge/collective_ops.h"
#include "bridge/network_registry.h"
#include "bridge/sim_cluster.h"
#include "bridge/this_lp.h"

#include <ns3/collective-helper.h>

#include <stdexcept>

namespace uniference {

std::vector<ColltestRow> run_colltest(const CheckedScenario& scenario, const ColltestOptions& options,
                                      const std::function<void(uint64_t)>& progress,
                                      const OutputSpec& outputs, const std::string& out_dir,
                                      const std::string& name) {
  const std::string& op = options.op;
  const int n = options.ranks > 0 ? options.ranks : scenario.ranks;
  check_colltest(options, n);
  NetworkConfig network = scenario.network;
  if (!options.preset.empty()) {
    collective_presets().at(options.preset);
    network.collective_preset = options.preset;
    network.collectives.clear();  // the preset decides every operation
  }
  const CollectiveOp* collective = find_collective_op(op);
  if (!options.algorithm.empty()) {
    if (collective == nullptr) throw std::invalid_argument("--algorithm: " + op + " has no algorithms");
    if (!ns3::CollectiveHelper::IsRegistered(op, options.algorithm)) {
      std::string known;
      for (const std::string& a : ns3::CollectiveHelper::GetAlgorithms(op)) {
        known += (known.empty() ? "" : ", ") + a;
      }
      throw std::invalid_argument("unknown --algorithm " + options.algorithm + " for " + op +
                                  "; known: " + known);
    }
    network.collectives[collective->op] = CollectiveChoice{options.algorithm, options.attributes};
  }

  const std::vector<uint64_t> sizes = sweep_sizes(options, n);
  // elapsed[rank][size][iteration]
  std::vector<std::vector<std::vector<int64_t>>> elapsed(static_cast<size_t>(n));
  SimCluster cluster(network, kernel_config(scenario));
  const auto meta = at::TensorOptions().dtype(at::kFloat).device(at::kMeta);
  for (int r = 0; r < n; ++r) {
    // Modeled compute: the shard code between calls is bookkeeping on meta tensors.
    cluster.add_rank(make_modeled_meter(scenario.device), [&](Comm& comm) {
      elapsed[size_t(comm.rank())] = run_sweep(comm, options, sizes, meta, this_lp::clock_ns, progress);
    });
  }
  cluster.build_network();
  RunCapture capture(outputs, out_dir, name);
  RunOutcome outcome = cluster.run();
  if (outcome.status != RunOutcome::Status::kCompleted) throw std::runtime_error(outcome.report);
  capture.commit();

  // The algorithm column names what the run chose: the same selection SimCluster made.
  CollectiveSelection selection{network.collectives, network.collective_preset,
                                link_facts(network, uint32_t(n))};
  return sweep_rows(options, n, sizes, elapsed, [&](uint64_t bytes) -> std::string {
    return collective ? selection.choose(collective->op, bytes, n).algorithm : "p2p";
  });
}

}  // namespace uniference
