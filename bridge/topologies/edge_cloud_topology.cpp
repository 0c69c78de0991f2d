#include "bridge/topologies/edge_cloud_topology.h"

#include "bridge/wan_models.h"

#include <ns3/double.h>
#include <ns3/edge-cloud-helper.h>
#include <ns3/enum.h>
#include <ns3/nstime.h>
#include <ns3/string.h>
#include <ns3/tcp-cubic.h>
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
  sites.SetTcpVariant(config.tcp_variant == ns3::TypeId() ? ns3::TcpCubic::GetTypeId()
                                                          : config.tcp_variant);
  sites.SetTransportAttribute("SegmentSize", ns3::UintegerValue(config.segment_size));
  sites.SetTransportAttribute("SndBufSize", ns3::UintegerValue(config.snd_buf));
  sites.SetTransportAttribute("RcvBufSize", ns3::UintegerValue(config.rcv_buf));
  const uint32_t edge = edge_ranks(config);
  sites.Install(edge, ranks - edge);
  return sites.GetTransports();
}

TopologyShape edge_cloud_shape(const NetworkConfig& config, uint32_t ranks) {
  TopologyShape shape;
  shape.endpoints = ranks;
  shape.max_hops = 3;  // endpoint, edge router, cloud router, endpoint
  const uint32_t edge = edge_ranks(config);
  if (edge >= ranks) {
    shape.option = "edge";
    shape.problem = "topology 'edge-cloud' puts the first 'edge' ranks at the edge and the rest "
                    "in the cloud; with " + std::to_string(ranks) + " ranks, edge must be below " +
                    std::to_string(ranks) + ", found " + std::to_string(edge);
    return shape;
  }
  for (uint32_t r = 0; r < config.placement.size(); ++r) {
    if (config.placement[r] != r) {
      shape.problem = "topology 'edge-cloud' places ranks by topology_options/edge; placement "
                      "must be \"packed\"";
      shape.placement_rank = int(r);
      break;
    }
  }
  return shape;
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
  t.options = {{"edge", "ranks at the edge site (the first ones); default 1"}};
  t.shape = edge_cloud_shape;
  return t;
}

}  // namespace uniference
