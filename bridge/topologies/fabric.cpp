#include "bridge/topologies/fabric.h"

#include "bridge/node_names.h"
#include "bridge/topologies/tcp_star.h"

#include <ns3/boolean.h>
#include <ns3/enum.h>
#include <ns3/ethernet-fabric-helper.h>
#include <ns3/ib-fabric-helper.h>
#include <ns3/rdma-congestion-control.h>
#include <ns3/type-id.h>
#include <ns3/uinteger.h>

#include <algorithm>
#include <stdexcept>

namespace uniference {

namespace {

void configure_ib_fabric(ns3::IbFabricHelper& fabric, const NetworkConfig& config) {
  fabric.SetDeviceAttribute("DataRate", ns3::DataRateValue(config.link_rate));
  fabric.SetDeviceAttribute("Mtu", ns3::UintegerValue(config.rdma.mtu));
  fabric.SetDeviceAttribute("VlBufferBytes", ns3::UintegerValue(config.rdma.vl_buffer));
  fabric.SetChannelAttribute("Delay", ns3::TimeValue(config.link_delay));
  fabric.SetSwitchAttribute("Routing", ns3::EnumValue(config.rdma.adaptive_routing
                                                          ? ns3::IbSwitch::ADAPTIVE
                                                          : ns3::IbSwitch::ECMP));
  fabric.SetSwitchAttribute("ForwardingLatency", ns3::TimeValue(config.rdma.switch_latency));
  const ns3::TypeId off = ns3::RdmaCongestionControl::GetTypeId();
  const ns3::TypeId control =
      config.rdma.congestion_control == ns3::TypeId() ? off : config.rdma.congestion_control;
  fabric.SetTransportAttribute("CongestionControl", ns3::TypeIdValue(control));
  // A congestion control reacts to marks (FECN, ECN) only: switches mark when one is on.
  fabric.SetSwitchAttribute("Marking", ns3::BooleanValue(control != off));
  fabric.SetPartitions(config.processes);
}

void configure_ethernet_fabric(ns3::EthernetFabricHelper& fabric, const NetworkConfig& config) {
  fabric.SetDeviceAttribute("DataRate", ns3::DataRateValue(config.link_rate));
  fabric.SetDeviceAttribute("Mtu", ns3::UintegerValue(config.mtu));
  fabric.SetChannelAttribute("Delay", ns3::TimeValue(config.link_delay));
  configure_tcp_endpoints(fabric, config);
  fabric.SetPartitions(config.processes);
}

std::vector<ns3::Ptr<ns3::MessageTransport>> install_fabric(ns3::FabricGraph& fabric,
                                                            const NetworkConfig& config,
                                                            uint32_t ranks) {
  if (!config.placement.empty() && config.placement.size() != ranks) {
    throw std::invalid_argument("placement gives " + std::to_string(config.placement.size()) +
                                " endpoints for " + std::to_string(ranks) + " ranks");
  }
  if (fabric.GetNEndpoints() < ranks) {
    throw std::invalid_argument("topology '" + config.topology + "' has " +
                                std::to_string(fabric.GetNEndpoints()) + " endpoints for " +
                                std::to_string(ranks) + " ranks");
  }
  for (const auto& [name, process] : config.partition) {
    uint32_t s = 0;
    while (s < fabric.GetNSwitches() && fabric.GetSwitchName(s) != name) ++s;
    if (s == fabric.GetNSwitches()) {
      throw PartitionError(name, "topology '" + config.topology + "' has no switch '" + name +
                                     "' (a fabric pins its switches; an endpoint goes with the "
                                     "switch of its first cable)");
    }
    if (config.processes > 1) fabric.SetSwitchPartition({true, s}, process);
  }
  // Endpoint id r is rank r's: messages address ranks by endpoint id.
  if (!config.placement.empty()) fabric.SetPlacement(config.placement);
  fabric.Install();
  for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s) {
    name_node(fabric.GetSwitchNode(s), fabric.GetSwitchName(s));
  }
  // Ranks are named by SimCluster; the endpoints no rank sits on by their place in the fabric,
  // as /network/placement numbers them. The fabric gives them the ids after the ranks', in
  // that order.
  std::vector<bool> placed(fabric.GetNEndpoints(), false);
  for (uint32_t r = 0; r < ranks; ++r) placed[endpoint_of(config, r)] = true;
  uint32_t id = ranks;
  for (uint32_t e = 0; e < fabric.GetNEndpoints(); ++e) {
    if (!placed[e]) name_node(fabric.GetEndpointNode(id++), "endpoint" + std::to_string(e));
  }
  std::vector<ns3::Ptr<ns3::MessageTransport>> transports = fabric.GetTransports();
  transports.resize(ranks);  // the endpoints no rank sits on stay idle
  return transports;
}

}  // namespace

std::vector<ns3::Ptr<ns3::MessageTransport>> build_fabric(
    const NetworkConfig& config, uint32_t ranks,
    const std::function<void(ns3::FabricGraph&)>& describe) {
  if (config.transport == "tcp") {
    ns3::EthernetFabricHelper fabric;
    configure_ethernet_fabric(fabric, config);
    describe(fabric);
    return install_fabric(fabric, config, ranks);
  }
  ns3::IbFabricHelper fabric;
  configure_ib_fabric(fabric, config);
  describe(fabric);
  return install_fabric(fabric, config, ranks);
}

uint32_t add_intra_server_class(ns3::FabricGraph& fabric, const NetworkConfig& config) {
  return fabric.AddLinkClass(config.rdma.intra_rate, config.rdma.intra_delay);
}

uint32_t option_or(const NetworkConfig& config, const std::string& name, uint32_t fallback) {
  auto it = config.topology_options.find(name);
  return it == config.topology_options.end() ? fallback : it->second;
}

uint32_t endpoints_needed(const NetworkConfig& config, uint32_t ranks) {
  uint32_t needed = ranks;
  for (uint32_t endpoint : config.placement) needed = std::max(needed, endpoint + 1);
  return needed;
}

uint32_t endpoint_of(const NetworkConfig& config, uint32_t rank) {
  return config.placement.empty() ? rank : config.placement[rank];
}

TopologyShape placed_shape(const NetworkConfig& config, uint32_t ranks, uint32_t endpoints,
                           const std::string& sizes,
                           const std::function<uint32_t(uint32_t, uint32_t)>& hops, uint32_t group) {
  TopologyShape shape;
  shape.endpoints = endpoints;
  shape.group = group;
  const std::string has = "topology '" + config.topology + "' (" + sizes + ") has " +
                          std::to_string(endpoints) + " endpoints";
  if (config.placement.empty()) {
    if (ranks > endpoints) {
      shape.problem = has + " for " + std::to_string(ranks) + " ranks";
      return shape;
    }
  } else {
    if (config.placement.size() != ranks) {
      shape.problem = "expected one endpoint per rank (" + std::to_string(ranks) + "), found " +
                      std::to_string(config.placement.size());
      return shape;
    }
    std::vector<bool> taken(endpoints, false);
    for (uint32_t r = 0; r < ranks; ++r) {
      const uint32_t e = config.placement[r];
      const std::string rank = "rank " + std::to_string(r) + ": endpoint " + std::to_string(e);
      if (e >= endpoints) {
        shape.problem = rank + " does not exist; " + has + " (0 to " +
                        std::to_string(endpoints - 1) + ")";
        shape.placement_rank = int(r);
        return shape;
      }
      if (taken[e]) {
        shape.problem = rank + " already holds another rank; one rank per endpoint";
        shape.placement_rank = int(r);
        return shape;
      }
      taken[e] = true;
    }
  }
  shape.max_hops = 0;
  for (uint32_t a = 0; a < ranks; ++a) {
    for (uint32_t b = a + 1; b < ranks; ++b) {
      shape.max_hops = std::max(shape.max_hops, hops(endpoint_of(config, a), endpoint_of(config, b)));
    }
  }
  if (shape.max_hops == 0) shape.max_hops = 2;
  return shape;
}

}  // namespace uniference
