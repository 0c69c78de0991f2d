#include "bridge/topologies/star_topology.h"

#include "bridge/topologies/ib_fabric.h"

#include <ns3/data-rate.h>
#include <ns3/nstime.h>
#include <ns3/switched-star-helper.h>
#include <ns3/tcp-cubic.h>
#include <ns3/uinteger.h>

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

Topology star_topology() {
  Topology t;
  t.name = "star";
  t.description =
      "every rank on its own link to one switch: Ethernet and one IP subnet for tcp, the "
      "InfiniBand-like fabric for rdma";
  t.transports = {"tcp", "rdma"};
  t.link_models = {"ethernet", "ib"};
  t.build = build_star;
  return t;
}

}  // namespace uniference
