// The smallest way to simulate shard code: describe a network, add one shard function per
// rank, run. Owns the ns-3 topology, the kernel and the backend of one run, and ns-3's
// global state with them (one SimCluster at a time per process).
#pragma once

#include "bridge/faults.h"
#include "bridge/kernel.h"
#include "bridge/network_config.h"
#include "bridge/sim_backend.h"
#include "compute/comm.h"
#include "compute/compute_meter.h"

#include <ns3/flow-network.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace uniference {

// A job among others on one network (/jobs): consecutive ranks that form a world of their own
// and draw their random streams as if they ran alone, seeded with `seed`.
struct JobWorld {
  int first_rank = 0;
  int size = 0;
  uint64_t seed = 1;
};

class SimCluster {
 public:
  using Shard = std::function<void(Comm&)>;

  explicit SimCluster(NetworkConfig network, KernelConfig kernel = {});
  ~SimCluster();
  SimCluster(const SimCluster&) = delete;
  SimCluster& operator=(const SimCluster&) = delete;

  // Adds the next rank: its shard code and how its compute is charged.
  int add_rank(std::unique_ptr<ComputeMeter> meter, Shard shard);
  // Divides the ranks added so far into jobs, before build_network: each rank's Comm is its
  // job's world. Without it every rank shares one world, as one job.
  void set_jobs(std::vector<JobWorld> jobs);
  // Builds the network for the ranks added so far (ns3_defaults first, then the topology
  // from the registry); run() does it when not yet done. Throws std::invalid_argument for
  // a name no registry knows or an Attribute default ns-3 refuses.
  void build_network();
  // Injects the run's faults into the network and the ranks (bridge/faults.h): after
  // build_network, before run. Throws FaultTargetError for a target the network has not got.
  void inject_faults(const std::vector<Fault>& faults);
  // Runs the ranks to the end.
  RunOutcome run();

  Kernel& kernel() { return kernel_; }
  const RunRecord& record() { return kernel_.record(); }
  // The flow level's network once built (/network/transport/level "flow"); null otherwise.
  ns3::Ptr<ns3::FlowNetwork> flow_network() const { return flow_network_; }

 private:
  NetworkConfig network_;
  uint64_t seed_;  // the run's seed, which also picks ns-3's random run
  Kernel kernel_;
  std::vector<Shard> shards_;
  std::vector<JobWorld> jobs_;
  std::unique_ptr<SimBackend> backend_;
  ns3::Ptr<ns3::FlowNetwork> flow_network_;
  std::unique_ptr<FaultInjection> faults_;
};

// Every direction of every cable of `network` built for `ranks` ranks, named as its
// topology's users name it ("rank0 -> leaf0", "leaf0 -> spine1"; bridge/node_names.h),
// sorted. Builds the network as a run would and tears it down: not while a SimCluster lives.
std::vector<std::string> network_cables(const NetworkConfig& network, uint32_t ranks);

// Checks that the network built for `ranks` ranks has every cable and switch `faults` name, as
// a run would when it injects them; builds the network and tears it down, likewise. Throws
// FaultTargetError.
void check_fault_targets(const NetworkConfig& network, uint32_t ranks, const std::vector<Fault>& faults);

}  // namespace uniference
