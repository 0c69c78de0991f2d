#include "bridge/sim_cluster.h"

#include <ns3/simulator.h>
#include <ns3/string.h>
#include <ns3/uinteger.h>
#include <ns3/star-network-helper.h>

namespace uniference {

SimCluster::SimCluster(StarNetworkConfig network, KernelConfig kernel)
    : network_(std::move(network)), kernel_(kernel) {}

SimCluster::~SimCluster() {
  world_.reset();
  ns3::Simulator::Destroy();
}

int SimCluster::add_rank(std::unique_ptr<ComputeMeter> meter, Shard shard) {
  int rank = static_cast<int>(shards_.size());
  shards_.push_back(std::move(shard));
  kernel_.add_lp(std::move(meter), [this, rank] {
    std::shared_ptr<Comm> comm = world_->world_comm(rank);
    shards_[static_cast<size_t>(rank)](*comm);
  });
  return rank;
}

void SimCluster::build_network() {
  if (world_) return;
  ns3::StarNetworkHelper star;
  star.SetLinkAttribute("DataRate", ns3::StringValue(network_.link_rate));
  star.SetLinkAttribute("Delay", ns3::StringValue(network_.link_delay));
  star.SetDeviceAttribute("Mtu", ns3::UintegerValue(network_.mtu));
  star.SetTcpVariant(ns3::TypeId::LookupByName(network_.tcp_variant));
  star.SetTransportAttribute("SegmentSize", ns3::UintegerValue(network_.segment_size));
  star.SetTransportAttribute("SndBufSize", ns3::UintegerValue(network_.snd_buf));
  star.SetTransportAttribute("RcvBufSize", ns3::UintegerValue(network_.rcv_buf));
  star.Install(static_cast<uint32_t>(shards_.size()));
  world_ = std::make_unique<SimWorld>(kernel_, star.GetTransports());
}

RunOutcome SimCluster::run() {
  build_network();
  return kernel_.run();
}

}  // namespace uniference
