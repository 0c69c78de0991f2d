// The real transports behind Comm, registered by the name `uniference-deploy --backend`
// takes: a deployment runs the same strategies over them that the simulator runs over
// SimComm. Every rank meets the others through one c10d Store (a TCPStore, as torchrun's
// static rendezvous uses), then builds its world communicator from it.
#pragma once

#include "compute/comm.h"
#include "compute/registry.h"

#include <torch/csrc/distributed/c10d/Store.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace uniference {

// Where this process stands in the deployment, as torchrun says it.
struct RankPlacement {
  int rank = 0;        // RANK
  int world = 1;       // WORLD_SIZE
  int local_rank = 0;  // LOCAL_RANK: which local device (GPU) this rank drives
  // The address of this host that reaches the others (a transport listens on it); empty:
  // whatever the host name resolves to.
  std::string address;
};

struct DeployBackend {
  std::string name;
  std::string description;
  // Empty when this build, on this machine, can run the backend; else why not (for the
  // error a user sees and for tests to report as their reason to skip).
  std::function<std::string()> unavailable;
  // The world communicator. `timeout` bounds every operation: one that has not completed
  // by then throws, naming the operation (and the peer, where there is one).
  std::function<std::unique_ptr<Comm>(const c10::intrusive_ptr<c10d::Store>& store,
                                      const RankPlacement& placement,
                                      std::chrono::milliseconds timeout)>
      make;
};

// gloo always; nccl in every build, unavailable where CUDA or NCCL was not found at build
// time or no GPU is visible.
const NamedRegistry<DeployBackend>& deploy_backends();

}  // namespace uniference
