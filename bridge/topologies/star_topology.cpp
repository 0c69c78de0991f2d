#include "bridge/topologies/star_topology.h"

#include "bridge/node_names.h"
#include "bridge/topologies/ib_fabric.h"
#include "bridge/topologies/tcp_star.h"

#include <ns3/switched-star-helper.h>

namespace uniference {

namespace {

// Over RDMA: every rank on its own cable to one InfiniBand-like switch.
std::vector<ns3::Ptr<ns3::MessageTransport>> build_ib_star(const NetworkConfig& config,
                                                           uint32_t ranks) {
  ns3::IbFabricHelper fabric;
  configure_ib_fabric(fabric, config);
  fabric.Star(ranks);
  return install_ib_fabric(fabric, config, ranks);
}

std::vector<ns3::Ptr<ns3::MessageTransport>> build_star(const NetworkConfig& config,
                                                        uint32_t ranks) {
  if (config.transport == "rdma") return build_ib_star(config, ranks);
  ns3::SwitchedStarHelper star;
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
  t.build = build_star;
  t.takes_shaper = true;
  return t;
}

}  // namespace uniference
