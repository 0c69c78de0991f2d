#include "bridge/network_registry.h"

#include "bridge/link_presets.h"

#include "bridge/topologies/edge_cloud_topology.h"
#include "bridge/topologies/star_routed_topology.h"
#include "bridge/topologies/star_topology.h"
#include "bridge/topologies/fat_tree_topology.h"
#include "bridge/topologies/lte_cell_topology.h"
#include "bridge/topologies/leaf_spine_topology.h"
#include "bridge/topologies/rail_optimised_topology.h"
#include "bridge/topologies/two_tier_topology.h"
#include "bridge/topologies/wifi_cell_topology.h"

#include <ns3/ethernet-net-device.h>
#include <ns3/ib-net-device.h>
#include <ns3/rdma-congestion-control.h>

#include <ns3/tcp-bbr.h>
#include <ns3/tcp-bic.h>
#include <ns3/tcp-congestion-ops.h>
#include <ns3/tcp-cubic.h>
#include <ns3/tcp-dctcp.h>
#include <ns3/tcp-highspeed.h>
#include <ns3/tcp-htcp.h>
#include <ns3/tcp-hybla.h>
#include <ns3/tcp-illinois.h>
#include <ns3/tcp-ledbat.h>
#include <ns3/tcp-linux-reno.h>
#include <ns3/tcp-lp.h>
#include <ns3/tcp-scalable.h>
#include <ns3/tcp-vegas.h>
#include <ns3/tcp-veno.h>
#include <ns3/tcp-westwood.h>
#include <ns3/tcp-yeah.h>

#include <algorithm>

namespace uniference {

// Scenario checking (free of ns-3) counts frames with link_presets.h's copies of the devices'
// header sizes.
static_assert(kEthernetHeaderBytes == ns3::EthernetNetDevice::HEADER_BYTES);
static_assert(kIbHeaderBytes == ns3::IbNetDevice::DEFAULT_HEADER_BYTES);

const NamedRegistry<Topology>& topologies() {
  static const NamedRegistry<Topology> registry("topology",
                                                {star_topology(), star_routed_topology(),
                                                 fat_tree_topology(), leaf_spine_topology(),
                                                 rail_optimised_topology(), two_tier_topology(),
                                                 edge_cloud_topology(), wifi_cell_topology(),
                                                 lte_cell_topology()});
  return registry;
}

std::vector<std::string> topologies_with(bool Topology::*capability) {
  std::vector<std::string> names;
  for (const Topology& topology : topologies().entries()) {
    if (topology.*capability) names.push_back(topology.name);
  }
  return names;
}

const NamedRegistry<TransportKind>& transport_kinds() {
  static const NamedRegistry<TransportKind> registry(
      "transport",
      {{"tcp", "framed messages over ns-3 TCP, one connection per ordered pair",
        {"ethernet", "point-to-point", "wifi"}},
       {"rdma", "reliable-connection queue pairs over the InfiniBand-like fabric "
                "(link model ib): MTU segmentation, credits, no loss",
        {"ib"}}});
  return registry;
}

const NamedRegistry<LinkModel>& link_models() {
  static const NamedRegistry<LinkModel> registry(
      "link model",
      {{"point-to-point", "ns-3's point-to-point link: rate, delay, MTU, PPP framing"},
       {"ib", "InfiniBand-like lossless cable: rate, delay; 26 header bytes per packet of "
              "/network/link/ib_mtu payload, credit-based flow control per virtual lane"},
       {"ethernet",
        "full-duplex Ethernet: rate, delay, MTU; 14-byte header, FCS, preamble and "
        "inter-frame gap timed on the wire (38 bytes per frame)"},
       {"wifi", "ns-3's 802.11ax Wi-Fi (Yans PHY, log-distance path loss, ad hoc MAC): the rate "
                "picks the HE MCS, the delay the distance between stations"}});
  return registry;
}

const NamedRegistry<TcpVariant>& tcp_variants() {
  // The congestion controls of ns-3 3.37, by the lower-case names scenarios use.
  static const NamedRegistry<TcpVariant> registry(
      "TCP variant",
      {
          {"newreno", "NewReno (RFC 6582)", &ns3::TcpNewReno::GetTypeId},
          {"cubic", "CUBIC (RFC 8312), Linux's default before BBR", &ns3::TcpCubic::GetTypeId},
          {"bbr", "BBR v1 (reaches about half of 1 Gbit/s in ns-3 3.37)", &ns3::TcpBbr::GetTypeId},
          {"bic", "BIC", &ns3::TcpBic::GetTypeId},
          {"highspeed", "HighSpeed TCP (RFC 3649)", &ns3::TcpHighSpeed::GetTypeId},
          {"htcp", "H-TCP", &ns3::TcpHtcp::GetTypeId},
          {"hybla", "Hybla", &ns3::TcpHybla::GetTypeId},
          {"illinois", "TCP-Illinois", &ns3::TcpIllinois::GetTypeId},
          {"ledbat", "LEDBAT (RFC 6817)", &ns3::TcpLedbat::GetTypeId},
          {"linuxreno", "Reno as Linux implements it", &ns3::TcpLinuxReno::GetTypeId},
          {"scalable", "Scalable TCP", &ns3::TcpScalable::GetTypeId},
          {"vegas", "Vegas", &ns3::TcpVegas::GetTypeId},
          {"veno", "Veno", &ns3::TcpVeno::GetTypeId},
          {"westwood", "Westwood", &ns3::TcpWestwood::GetTypeId},
          {"yeah", "YeAH", &ns3::TcpYeah::GetTypeId},
          {"lp", "TCP-LP", &ns3::TcpLp::GetTypeId},
          {"dctcp", "DCTCP (RFC 8257)", &ns3::TcpDctcp::GetTypeId},
      });
  return registry;
}

const NamedRegistry<RdmaCongestionControl>& rdma_congestion_controls() {
  static const NamedRegistry<RdmaCongestionControl> registry(
      "RDMA congestion control",
      {
          {"none", "none: every queue pair sends at line rate, credits alone pace it",
           &ns3::RdmaCongestionControl::GetTypeId},
          {"ib", "InfiniBand congestion control: FECN-marked packets raise the sender's "
                 "inter-packet delay (CCTI), a timer lowers it",
           &ns3::IbCongestionControl::GetTypeId},
          {"dcqcn", "DCQCN (RoCEv2): ECN marks cut the rate, timers and byte counts recover it",
           &ns3::Dcqcn::GetTypeId},
      });
  return registry;
}

std::string check_network_combination(const NetworkConfig& config) {
  const Topology& topology = topologies().at(config.topology);
  auto has = [](const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  if (!has(topology.transports, config.transport)) {
    return "topology '" + topology.name + "' does not carry transport '" + config.transport + "'";
  }
  const std::string link_model =
      config.link_model.empty() ? default_link_model(topology, config.transport) : config.link_model;
  if (!has(topology.link_models, link_model)) {
    return "topology '" + topology.name + "' is not built from link model '" + link_model + "'";
  }
  const TransportKind& transport = transport_kinds().at(config.transport);
  if (!has(transport.link_models, link_model)) {
    return "transport '" + transport.name + "' does not run over link model '" + link_model + "'";
  }
  return "";
}

std::string default_link_model(const Topology& topology, const std::string& transport) {
  const std::vector<std::string>& runs_over = transport_kinds().at(transport).link_models;
  for (const std::string& model : topology.link_models) {
    if (std::find(runs_over.begin(), runs_over.end(), model) != runs_over.end()) return model;
  }
  return "";
}

}  // namespace uniference

namespace uniference {

TopologyShape topology_shape(const NetworkConfig& config, uint32_t ranks) {
  const Topology& topology = topologies().at(config.topology);
  TopologyShape shape;
  for (const auto& option : config.topology_options) {
    auto named = [&](const TopologyOption& o) { return o.name == option.first; };
    if (std::any_of(topology.options.begin(), topology.options.end(), named)) continue;
    std::string known;
    for (const TopologyOption& o : topology.options) known += (known.empty() ? "" : ", ") + o.name;
    shape.option = option.first;
    shape.problem = "topology '" + topology.name + "' has no option '" + option.first + "'; " +
                    (known.empty() ? "it has none" : "its options: " + known);
    return shape;
  }
  if (topology.shape) return topology.shape(config, ranks);
  // One endpoint per rank, all alike: a placement can only restate "packed".
  shape.endpoints = ranks;
  for (uint32_t r = 0; r < config.placement.size(); ++r) {
    if (config.placement[r] != r) {
      shape.problem = "topology '" + topology.name +
                      "' puts every rank on an endpoint of its own, all alike; placement must "
                      "be \"packed\"";
      break;
    }
  }
  return shape;
}

TopologyShape split_shape(const NetworkConfig& config, uint32_t ranks, const std::string& option,
                          uint32_t first, const std::string& split, uint32_t max_hops) {
  TopologyShape shape;
  shape.endpoints = ranks;
  shape.max_hops = max_hops;
  const std::string topology = "topology '" + config.topology + "' ";
  if (first >= ranks) {
    shape.option = option;
    shape.problem = topology + split + "; with " + std::to_string(ranks) + " ranks, " + option +
                    " must be below " + std::to_string(ranks) + ", found " + std::to_string(first);
    return shape;
  }
  for (uint32_t r = 0; r < config.placement.size(); ++r) {
    if (config.placement[r] != r) {
      shape.problem = topology + "places ranks by topology_options/" + option +
                      "; placement must be \"packed\"";
      shape.placement_rank = int(r);
      break;
    }
  }
  return shape;
}

LinkFacts link_facts(const NetworkConfig& config, uint32_t ranks) {
  LinkFacts facts;
  facts.rate_bps = double(config.link_rate.GetBitRate());
  facts.delay_s = config.link_delay.GetSeconds();
  facts.mtu = config.mtu;
  if (config.transport == "rdma") {
    // IbNetDevice's default headers and trailers: the fabric the run builds keeps them.
    facts.header_bytes = kIbHeaderBytes;
    facts.mtu = config.rdma.mtu + kIbHeaderBytes;
    facts.cut_through = true;
    facts.switch_s = config.rdma.switch_latency.GetSeconds();
  }
  const TopologyShape shape = topology_shape(config, ranks);
  if (shape.problem.empty()) facts.hops = shape.max_hops;
  return facts;
}

}  // namespace uniference
