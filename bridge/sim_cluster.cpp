#include "bridge/sim_cluster.h"

#include "bridge/flow_level.h"
#include "bridge/handling_delay.h"
#include "bridge/network_registry.h"
#include "bridge/node_names.h"
#include "bridge/rank_names.h"

#include <ns3/attribute-check.h>
#include <ns3/config.h>
#include <ns3/object-factory.h>
#include <ns3/node.h>
#include <ns3/rng-seed-manager.h>
#include <ns3/simulator.h>
#include <ns3/string.h>

#include <algorithm>
#include <stdexcept>

namespace uniference {

SimCluster::SimCluster(NetworkConfig network, KernelConfig kernel)
    : network_(std::move(network)), seed_(kernel.seed), kernel_(kernel) {
  // The fabric's events of a nanosecond before the others: the same order in one process
  // and cut across several (ns3::FabricFirstScheduler).
  ns3::Simulator::SetScheduler(ns3::ObjectFactory("ns3::FabricFirstScheduler"));
}

SimCluster::~SimCluster() {
  backend_.reset();
  flow_network_ = nullptr;
  ns3::Simulator::Destroy();
}

int SimCluster::add_rank(std::unique_ptr<ComputeMeter> meter, Shard shard) {
  int rank = static_cast<int>(shards_.size());
  shards_.push_back(std::move(shard));
  kernel_.add_lp(std::move(meter), [this, rank] {
    std::shared_ptr<Comm> comm = backend_->world_comm(rank);
    shards_[static_cast<size_t>(rank)](*comm);
  });
  return rank;
}

void SimCluster::set_jobs(std::vector<JobWorld> jobs) {
  if (backend_) throw std::logic_error("set_jobs: after build_network");
  for (const JobWorld& job : jobs) {
    for (int i = 0; i < job.size; ++i) kernel_.set_stream(job.first_rank + i, job.seed, i);
  }
  jobs_ = std::move(jobs);
}

namespace {

// The nodes, links and transports of `ranks` ranks as a run builds them (ns3_defaults first,
// then the topology from the registry), every rank's node named; entry r is rank r's. At the
// flow level `flow_network`, when given, receives the flow network.
std::vector<ns3::Ptr<ns3::MessageTransport>> build_topology(
    const NetworkConfig& network, uint32_t ranks, uint64_t seed,
    ns3::Ptr<ns3::FlowNetwork>* flow_network = nullptr) {
  std::string problem = check_network_combination(network);
  if (!problem.empty()) throw std::invalid_argument(problem);
  const FlowLevelProblem flow = flow_level_problem(network);
  if (!flow.reason.empty()) throw std::invalid_argument(flow.pointer + ": " + flow.reason);
  for (const auto& [name, value] : network.ns3_defaults) {
    // Checked first: ns-3's own Config::SetDefault aborts the process on a bad name.
    problem = ns3::CheckAttributeDefault(name, value);
    if (!problem.empty()) throw std::invalid_argument(problem);
    ns3::Config::SetDefault(name, ns3::StringValue(value));
  }
  // ns-3's own random variables (a link's fades, Wi-Fi back-off, LTE) draw from the run the
  // seed names, so /seed changes them as it changes everything else. Run 1 is ns-3's default.
  ns3::RngSeedManager::SetRun(seed);
  const Topology& topology = topologies().at(network.topology);
  problem = topology_shape(network, ranks).problem;
  if (!problem.empty()) throw std::invalid_argument(problem);
  std::vector<ns3::Ptr<ns3::MessageTransport>> transports = topology.build(network, ranks);
  if (network.level == "flow") {
    FlowLevel level = install_flow_level(transports);
    transports = std::move(level.transports);
    if (flow_network) *flow_network = level.network;
  }
  for (uint32_t r = 0; r < ranks; ++r) name_node(transports[r]->GetNode(), rank_name(int(r)));
  return transports;
}

}  // namespace

void SimCluster::build_network() {
  if (backend_) return;
  if (!network_.collective_preset.empty()) collective_presets().at(network_.collective_preset);
  const auto ranks = static_cast<uint32_t>(shards_.size());
  std::vector<ns3::Ptr<ns3::MessageTransport>> transports =
      build_topology(network_, ranks, seed_, &flow_network_);
  CollectiveSelection selection{network_.collectives, network_.collective_preset,
                                link_facts(network_, ranks)};
  set_handling_delay(network_, transports);
  if (network_.processes > 1) {
    // One process of a distributed simulation runs the LPs on its own nodes.
    std::vector<bool> here;
    for (const auto& transport : transports) {
      here.push_back(transport->GetNode()->GetSystemId() == ns3::Simulator::GetSystemId());
    }
    kernel_.run_only(std::move(here));
  }
  backend_ = std::make_unique<SimBackend>(kernel_, std::move(transports), std::move(selection));
  for (const JobWorld& job : jobs_) backend_->add_job_world(job.first_rank, job.size);
}

std::vector<std::string> network_cables(const NetworkConfig& network, uint32_t ranks) {
  struct Teardown {
    ~Teardown() { ns3::Simulator::Destroy(); }
  } teardown;
  build_topology(network, ranks, 1);
  std::vector<std::string> names;
  for (const CableDirection& direction : cable_directions()) names.push_back(direction.name);
  std::sort(names.begin(), names.end());
  return names;
}

void SimCluster::inject_faults(const std::vector<Fault>& faults) {
  if (faults.empty()) return;
  if (!backend_) throw std::logic_error("inject_faults: build the network first");
  faults_ = std::make_unique<FaultInjection>(faults, kernel_);
}

void check_fault_targets(const NetworkConfig& network, uint32_t ranks, const std::vector<Fault>& faults) {
  if (std::none_of(faults.begin(), faults.end(), [](const Fault& f) { return is_link_fault(f.kind); })) return;
  struct Teardown {
    ~Teardown() { ns3::Simulator::Destroy(); }
  } teardown;
  build_topology(network, ranks, 1);
  const std::vector<CableDirection> cables = cable_directions();
  for (const Fault& fault : faults) fault_receivers(fault, cables);
}

RunOutcome SimCluster::run() {
  build_network();
  RunOutcome outcome = kernel_.run();
  if (faults_) faults_->record_losses();
  return outcome;
}

}  // namespace uniference
