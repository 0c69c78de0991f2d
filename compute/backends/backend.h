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

// How a Gloo communicator runs all-to-all, and all-gather on a group of two: `stock` as
// torch.distributed does (Gloo's own schedules, a pair's send posted before its receive), or
// `receive-first` (every receive posted before any send, so both directions of a pair move at
// once; docs/collectives-backends.md 1.1).
enum class GlooExchanges { kReceiveFirst, kStock };

// "receive-first" or "stock".
const char* exchanges_name(GlooExchanges exchanges);
// The inverse; throws std::invalid_argument naming the choices.
GlooExchanges parse_exchanges(const std::string& text);

// How a communicator runs, beyond where its rank stands.
struct CommOptions {
  // Bounds every operation: one that has not completed by then throws, naming the operation
  // (and the peer, where there is one).
  std::chrono::milliseconds timeout{120000};
  GlooExchanges exchanges = GlooExchanges::kReceiveFirst;  // gloo only
};

struct DeployBackend {
  std::string name;
  std::string description;
  // Empty when this build, on this machine, can run the backend; else why not (for the
  // error a user sees and for tests to report as their reason to skip).
  std::function<std::string()> unavailable;
  // The world communicator.
  std::function<std::unique_ptr<Comm>(const c10::intrusive_ptr<c10d::Store>& store,
                                      const RankPlacement& placement, const CommOptions& options)>
      make;
};

// The collective preset that models what a deployment on `backend` runs: `gloo` (stock
// exchanges), `gloo-receive-first`, or `nccl`.
std::string deployed_preset(const std::string& backend, GlooExchanges exchanges);

// gloo always; nccl in every build, unavailable where CUDA or NCCL was not found at build
// time or no GPU is visible.
const NamedRegistry<DeployBackend>& deploy_backends();

}  // namespace uniference
