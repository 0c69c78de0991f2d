#include "bridge/topologies/wifi_cell_topology.h"

#include "bridge/topologies/tcp_star.h"

#include <ns3/uinteger.h>
#include <ns3/wifi-cell-helper.h>

namespace uniference {

namespace {

constexpr double kSpeedOfLight = 299792458.0;

std::vector<ns3::Ptr<ns3::MessageTransport>> build_wifi_cell(const NetworkConfig& config,
                                                             uint32_t ranks) {
  ns3::WifiCellHelper cell;
  // The link's rate picks the MCS; its delay places neighbours that far apart at c.
  cell.SetRate(config.link_rate);
  cell.SetSpacing(config.link_delay.GetSeconds() * kSpeedOfLight);
  configure_tcp_endpoints(cell, config);
  cell.Install(ranks);
  return cell.GetTransports();
}

}  // namespace

Topology wifi_cell_topology() {
  Topology t;
  t.name = "wifi-cell";
  t.description =
      "every rank a station of one ad hoc 802.11ax cell (ns-3's Wi-Fi: 20 MHz at 5 GHz, one "
      "stream), sending at the fastest HE MCS within /network/link/rate, neighbours on a "
      "circle /network/link/delay x c apart";
  t.transports = {"tcp"};
  t.link_models = {"wifi"};
  t.build = build_wifi_cell;
  return t;
}

}  // namespace uniference
