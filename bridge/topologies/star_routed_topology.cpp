#include "bridge/topologies/star_routed_topology.h"

#include <ns3/data-rate.h>
#include <ns3/nstime.h>
#include <ns3/star-network-helper.h>
#include <ns3/tcp-cubic.h>
#include <ns3/uinteger.h>

namespace uniference {

namespace {

std::vector<ns3::Ptr<ns3::MessageTransport>> build_star_routed(const NetworkConfig& config,
                                                               uint32_t ranks) {
  ns3::StarNetworkHelper star;
  star.SetLinkAttribute("DataRate", ns3::DataRateValue(config.link_rate));
  star.SetLinkAttribute("Delay", ns3::TimeValue(config.link_delay));
  star.SetDeviceAttribute("Mtu", ns3::UintegerValue(config.mtu));
  star.SetTcpVariant(config.tcp_variant == ns3::TypeId() ? ns3::TcpCubic::GetTypeId()
                                                         : config.tcp_variant);
  star.SetTransportAttribute("SegmentSize", ns3::UintegerValue(config.segment_size));
  star.SetTransportAttribute("SndBufSize", ns3::UintegerValue(config.snd_buf));
  star.SetTransportAttribute("RcvBufSize", ns3::UintegerValue(config.rcv_buf));
  star.Install(ranks);
  return star.GetTransports();
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
  return t;
}

}  // namespace uniference
