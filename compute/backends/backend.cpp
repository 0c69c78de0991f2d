#include "compute/backends/backend.h"

#include "compute/backends/gloo_comm.h"
#include "compute/backends/nccl_comm.h"

#include <stdexcept>

namespace uniference {

const char* exchanges_name(GlooExchanges exchanges) {
  return exchanges == GlooExchanges::kStock ? "stock" : "receive-first";
}

GlooExchanges parse_exchanges(const std::string& text) {
  if (text == "receive-first") return GlooExchanges::kReceiveFirst;
  if (text == "stock") return GlooExchanges::kStock;
  throw std::invalid_argument("--exchanges must be stock or receive-first, found '" + text + "'");
}

std::string deployed_preset(const std::string& backend, GlooExchanges exchanges) {
  if (backend == "gloo" && exchanges == GlooExchanges::kReceiveFirst) return "gloo-receive-first";
  return backend;
}

const NamedRegistry<DeployBackend>& deploy_backends() {
  static const NamedRegistry<DeployBackend> registry(
      "deploy backend",
      {
          {"gloo", "CPU processes over TCP: c10d's ProcessGroupGloo (PyTorch 1.13)",
           [] { return std::string(); },
           [](const c10::intrusive_ptr<c10d::Store>& store, const RankPlacement& placement,
              const CommOptions& options) {
             return make_gloo_comm(store, placement, options.timeout, options.exchanges);
           }},
          {"nccl", "one GPU per rank: NCCL, CPU tensors staged through device buffers",
           nccl_unavailable,
           [](const c10::intrusive_ptr<c10d::Store>& store, const RankPlacement& placement,
              const CommOptions& options) { return make_nccl_comm(store, placement, options.timeout); }},
      });
  return registry;
}

}  // namespace uniference
