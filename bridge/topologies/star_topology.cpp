#include "bridge/topologies/star_topology.h"

#include "bridge/node_names.h"
#include "bridge/rank_names.h"
#include "bridge/topologies/fabric.h"
#include "bridge/topologies/tcp_star.h"

#include <ns3/switched-star-helper.h>

#include <string>

namespace uniference {

namespace {

// Over RDMA: every rank on its own cable to one InfiniBand-like switch.
std::vector<ns3::Ptr<ns3::MessageTransport>> build_ib_star(const NetworkConfig& config,
                                                           uint32_t ranks) {
  return build_fabric(config, ranks, [&](ns3::FabricGraph& fabric) { fabric.Star(ranks); });
}

std::vector<ns3::Ptr<ns3::MessageTransport>> build_star(const NetworkConfig& config,
                                                        uint32_t ranks) {
  if (config.transport == "rdma") return build_ib_star(config, ranks);
  ns3::SwitchedStarHelper star;
  star.SetPartitions(config.processes);
  for (const auto& [name, process] : config.partition) {
    const int rank = rank_named(name);
    if (name != "hub" && (rank < 0 || uint32_t(rank) >= ranks)) {
      throw PartitionError(name, "the star has no node '" + name + "' (it pins hub and rank0 to rank" +
                                     std::to_string(ranks - 1) + ")");
    }
    if (config.processes <= 1) continue;
    if (rank >= 0) {
      star.SetEndpointPartition(uint32_t(rank), process);
    } else {
      star.SetSwitchPartition(process);
    }
  }
  std::vector<ns3::Ptr<ns3::MessageTransport>> transports = install_tcp_star(star, config, ranks);
  name_node(star.GetSwitchNode(), "hub");
  return transports;
}

}  // namespace

Topology star_topology() {
  Topology t;
  t.name = "star";
  t.description =
      "every rank on its own link to one switch: Ethernet and one IP subnet for tcp, the "
      "InfiniBand-like fabric for rdma";
  t.transports = {"tcp", "rdma"};
  t.link_models = {"ethernet", "ib"};
  t.cut_on = {"tcp"};
  t.build = build_star;
  t.takes_shaper = true;
  return t;
}

}  // namespace uniference
