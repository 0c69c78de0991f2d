#include "compute/backends/backend.h"

#include "compute/backends/gloo_comm.h"
#include "compute/backends/nccl_comm.h"

namespace uniference {

const NamedRegistry<DeployBackend>& deploy_backends() {
  static const NamedRegistry<DeployBackend> registry(
      "deploy backend",
      {
          {"gloo", "CPU processes over TCP: c10d's ProcessGroupGloo (PyTorch 1.13)",
           [] { return std::string(); }, make_gloo_comm},
          {"nccl", "one GPU per rank: NCCL, CPU tensors staged through device buffers",
           nccl_unavailable, make_nccl_comm},
      });
  return registry;
}

}  // namespace uniference
