#include "bridge/topologies/edge_cloud_topology.h"

#include "bridge/node_names.h"
#include "bridge/topologies/tcp_star.h"

#include "bridge/wan_models.h"

#include <ns3/double.h>
#include <ns3/edge-cloud-helper.h>
#include <ns3/enum.h>
#include <ns3/nstime.h>
#include <ns3/string.h>
#include <ns3/uinteger.h>
#include <ns3/varying-link-channel.h>

#include <sstream>

namespace uniference {

namespace {

constexpr uint32_t kDefaultEdge = 1;

uint32_t edge_ranks(const NetworkConfig& config) {
  auto option = config.topology_options.find("edge");
  return option == config.topology_options.end() ? kDefaultEdge : option->second;
}

std::string seconds_text(double seconds) {
  std::ostringstream text;
  text.precision(17);
  text << seconds;
  return text.str();
}

void configure_wan(ns3::VaryingLinkHelper& wan, const NetworkConfig& config) {
  const WanConfig& spec = config.wan;
  const WanModel& model = wan_models().at(spec.model);
  wan.SetDeviceAttribute("Mtu", ns3::UintegerValue(config.mtu));
  wan.SetDataRates(spec.uplink, spec.downlink);
  wan.SetChannelAttribute("OutageMode", ns3::EnumValue(spec.hold ? ns3::VaryingLinkChannel::HOLD
                                                                 : ns3::VaryingLinkChannel::DROP));
  wan.SetPath(model.condition);
  // The model's defaults, then the scenario's Attributes, which win by coming later.
  for (const auto& [name, value] : model.defaults) wan.SetPathAttribute(name, ns3::StringValue(value));
  for (const auto& [name, value] : spec.attributes) wan.SetPathAttribute(name, ns3::StringValue(value));
  std::optional<FadeConfig> fade = spec.fade ? spec.fade : model.fade;
  if (fade && !spec.no_fade) {
    const auto exponential = [](double mean) {
      return ns3::StringValue("ns3::ExponentialRandomVariable[Mean=" + seconds_text(mean) + "]");
    };
    wan.AddImpairment("ns3::FadeCondition", "ClearTime", exponential(fade->mean_clear_s),
                      "FadeTime", exponential(fade->mean_fade_s), "FadeRateFactor",
                      ns3::DoubleValue(fade->rate_factor), "RecoveryTime",
                      ns3::TimeValue(fade->recovery));
  }
  if (spec.loss) {
    wan.SetReceiveErrorModel("ns3::GilbertElliottErrorModel", "P", ns3::DoubleValue(spec.loss->p),
                             "R", ns3::DoubleValue(spec.loss->r), "LossInBad",
                             ns3::DoubleValue(spec.loss->loss_in_bad), "LossInGood",
                             ns3::DoubleValue(spec.loss->loss_in_good));
  }
}

std::vector<ns3::Ptr<ns3::MessageTransport>> build_edge_cloud(const NetworkConfig& config,
                                                              uint32_t ranks) {
  ns3::EdgeCloudHelper sites;
  sites.SetLanAttribute("DataRate", ns3::DataRateValue(config.link_rate));
  sites.SetLanAttribute("Delay", ns3::TimeValue(config.link_delay));
  sites.SetLanAttribute("Mtu", ns3::UintegerValue(config.mtu));
  configure_wan(sites.GetWan(), config);
  configure_tcp_endpoints(sites, config);
  const uint32_t edge = edge_ranks(config);
  sites.Install(edge, ranks - edge);
  ns3::Ptr<ns3::VaryingLinkChannel> wan = sites.GetWanChannel();
  name_node(wan->GetDevice(0)->GetNode(), "edge");
  name_node(wan->GetDevice(1)->GetNode(), "cloud");
  return sites.GetTransports();
}

TopologyShape edge_cloud_shape(const NetworkConfig& config, uint32_t ranks) {
  // Endpoint, edge router, cloud router, endpoint.
  return split_shape(config, ranks, "edge", edge_ranks(config),
                     "puts the first 'edge' ranks at the edge and the rest in the cloud", 3);
}

}  // namespace

Topology edge_cloud_topology() {
  Topology t;
  t.name = "edge-cloud";
  t.description =
      "two routed sites, the first 'edge' ranks at the edge and the rest in the cloud, each "
      "rank on its own link (/network/link) to its site's router, the routers joined by the "
      "wide-area link /network/wan (satellite, sub-THz, trace)";
  t.transports = {"tcp"};
  t.link_models = {"point-to-point"};
  t.build = build_edge_cloud;
  t.has_wide_area_link = true;
  t.options = {{"edge", "ranks at the edge site (the first ones); default 1"}};
  t.shape = edge_cloud_shape;
  return t;
}

}  // namespace uniference
