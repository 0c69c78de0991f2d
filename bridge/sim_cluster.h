// The smallest way to simulate shard code: name a network, add one shard function per
// rank, run. Owns the ns-3 topology, the kernel and the SimWorld of one run, and ns-3's
// global state with them (one SimCluster at a time per process).
#pragma once

#include "bridge/kernel.h"
#include "bridge/sim_world.h"
#include "compute/comm.h"
#include "compute/compute_meter.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace uniference {

// A star of point-to-point links around one switch node (DESIGN.md section 5).
struct StarNetworkConfig {
  std::string link_rate = "1Gbps";  // ns-3 DataRate syntax
  std::string link_delay = "50us";  // ns-3 Time syntax
  uint32_t mtu = 1500;
  std::string tcp_variant = "ns3::TcpCubic";
  uint32_t segment_size = 1448;
  uint32_t snd_buf = 131072;
  uint32_t rcv_buf = 131072;
};

class SimCluster {
 public:
  using Shard = std::function<void(Comm&)>;

  explicit SimCluster(StarNetworkConfig network, KernelConfig kernel = {});
  ~SimCluster();
  SimCluster(const SimCluster&) = delete;
  SimCluster& operator=(const SimCluster&) = delete;

  // Adds the next rank: its shard code and how its compute is charged.
  int add_rank(std::unique_ptr<ComputeMeter> meter, Shard shard);
  // Builds the network for the ranks added so far; run() does it when not yet done.
  void build_network();
  // Runs the ranks to the end.
  RunOutcome run();

  Kernel& kernel() { return kernel_; }
  const RunRecord& record() { return kernel_.record(); }

 private:
  StarNetworkConfig network_;
  Kernel kernel_;
  std::vector<Shard> shards_;
  std::unique_ptr<SimWorld> world_;
};

}  // namespace uniference
