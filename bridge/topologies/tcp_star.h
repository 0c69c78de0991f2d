// What the two TCP stars share: StarNetworkHelper (routed) and SwitchedStarHelper (layer 2)
// take the same calls, so one function configures and installs either from the config.
#pragma once

#include "bridge/network_config.h"

#include <ns3/data-rate.h>
#include <ns3/message-transport.h>
#include <ns3/nstime.h>
#include <ns3/tcp-cubic.h>
#include <ns3/uinteger.h>

#include <cstdint>
#include <vector>

namespace uniference {

// Link rate, delay and MTU, the TCP variant (Cubic unless named) and the transports' segment
// and buffer sizes; then `ranks` endpoints. Entry r is rank r's transport.
template <typename StarHelper>
std::vector<ns3::Ptr<ns3::MessageTransport>> install_tcp_star(StarHelper& star,
                                                              const NetworkConfig& config,
                                                              uint32_t ranks) {
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

}  // namespace uniference
