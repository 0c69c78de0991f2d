#include "bridge/topologies/lte_cell_topology.h"

#include "bridge/node_names.h"
#include "bridge/topologies/tcp_star.h"

#include <ns3/config.h>
#include <ns3/lte-cell-helper.h>
#include <ns3/lte-enb-net-device.h>
#include <ns3/node-list.h>
#include <ns3/uinteger.h>

#include <algorithm>

namespace uniference {

namespace {

constexpr uint32_t kDefaultDistance = 100;  // metres

uint32_t option(const NetworkConfig& config, const std::string& name, uint32_t fallback) {
  auto it = config.topology_options.find(name);
  return it == config.topology_options.end() ? fallback : it->second;
}

// Every rank but the last is a device unless the option says otherwise.
uint32_t device_ranks(const NetworkConfig& config, uint32_t ranks) {
  return option(config, "devices", ranks > 1 ? ranks - 1 : 1);
}

// ns-3's unacknowledged-mode RLC keeps 10 kB per bearer and drops what does not fit, so a
// TCP window of more than seven segments loses packets in the UE and waits out a 1 s RTO.
// Phones buffer far more; unless the scenario sets its own, 1 MiB.
constexpr const char* kRlcBuffer = "ns3::LteRlcUm::MaxTxBufferSize";

std::vector<ns3::Ptr<ns3::MessageTransport>> build_lte_cell(const NetworkConfig& config,
                                                            uint32_t ranks) {
  const bool buffer_set = std::any_of(config.ns3_defaults.begin(), config.ns3_defaults.end(),
                                      [](const auto& entry) { return entry.first == kRlcBuffer; });
  if (!buffer_set) ns3::Config::SetDefault(kRlcBuffer, ns3::UintegerValue(1 << 20));
  ns3::LteCellHelper cell;
  cell.SetDistance(option(config, "distance_m", kDefaultDistance));
  cell.SetBackhaulAttribute("DataRate", ns3::DataRateValue(config.link_rate));
  cell.SetBackhaulAttribute("Delay", ns3::TimeValue(config.link_delay));
  cell.SetBackhaulAttribute("Mtu", ns3::UintegerValue(config.mtu));
  configure_tcp_endpoints(cell, config);
  const uint32_t devices = device_ranks(config, ranks);
  cell.Install(devices, ranks - devices);
  // The cell's radio directions are named after it ("rank0 -> enb", bridge/radio_link_taps.h).
  for (uint32_t n = 0; n < ns3::NodeList::GetNNodes(); ++n) {
    const ns3::Ptr<ns3::Node> node = ns3::NodeList::GetNode(n);
    for (uint32_t d = 0; d < node->GetNDevices(); ++d) {
      if (ns3::DynamicCast<ns3::LteEnbNetDevice>(node->GetDevice(d))) name_node(node, "enb");
    }
  }
  return cell.GetTransports();
}

TopologyShape lte_cell_shape(const NetworkConfig& config, uint32_t ranks) {
  // Device, eNB, the core's gateways, server.
  return split_shape(config, ranks, "devices", device_ranks(config, ranks),
                     "makes the first 'devices' ranks UEs and the rest servers", 4);
}

}  // namespace

Topology lte_cell_topology() {
  Topology t;
  t.name = "lte-cell";
  t.description =
      "the first 'devices' ranks UEs of one LTE cell (ns-3's LTE and EPC: 20 MHz, adaptive "
      "modulation, proportional-fair scheduling), the rest servers on their own link "
      "(/network/link) to the core's packet gateway";
  t.transports = {"tcp"};
  t.link_models = {"point-to-point"};
  t.build = build_lte_cell;
  t.options = {{"devices", "ranks that are UEs (the first ones); default all but the last"},
               {"distance_m", "metres from the eNB to every UE; default 100"}};
  t.shape = lte_cell_shape;
  return t;
}

}  // namespace uniference
