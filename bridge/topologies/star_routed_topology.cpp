#include "bridge/topologies/star_routed_topology.h"

#include "bridge/node_names.h"
#include "bridge/topologies/tcp_star.h"

#include <ns3/star-network-helper.h>

namespace uniference {

namespace {

std::vector<ns3::Ptr<ns3::MessageTransport>> build_star_routed(const NetworkConfig& config,
                                                               uint32_t ranks) {
  ns3::StarNetworkHelper star;
  std::vector<ns3::Ptr<ns3::MessageTransport>> transports = install_tcp_star(star, config, ranks);
  name_node(star.GetHub(), "hub");
  return transports;
}

}  // namespace

Topology star_routed_topology() {
  Topology t;
  t.name = "star-routed";
  t.description =
      "every rank on its own point-to-point link to one hub node, an IP router (one subnet per "
      "link; the hub's routing costs wall time at many ranks)";
  t.transports = {"tcp"};
  t.link_models = {"point-to-point"};
  t.build = build_star_routed;
  t.takes_shaper = true;
  return t;
}

}  // namespace uniference
