// What the TCP topologies share. Every helper that builds ranks with TCP transports takes
// SetTcpVariant and SetTransportAttribute, so one function sets the config's TCP on any of
// them; StarNetworkHelper (routed) and SwitchedStarHelper (layer 2) take the same calls
// altogether, so one function configures and installs either star.
#pragma once

#include "bridge/network_config.h"

#include <ns3/data-rate.h>
#include <ns3/ethernet-net-device.h>
#include <ns3/message-transport.h>
#include <ns3/nstime.h>
#include <ns3/queue-size.h>
#include <ns3/tcp-cubic.h>
#include <ns3/uinteger.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace uniference {

inline constexpr uint32_t kEthernetHeader = ns3::EthernetNetDevice::HEADER_BYTES;

// The TCP variant (Cubic unless named) and the transports' segment and buffer sizes.
template <typename Helper>
void configure_tcp_endpoints(Helper& helper, const NetworkConfig& config) {
  helper.SetTcpVariant(config.tcp_variant == ns3::TypeId() ? ns3::TcpCubic::GetTypeId()
                                                           : config.tcp_variant);
  helper.SetTransportAttribute("SegmentSize", ns3::UintegerValue(config.segment_size));
  helper.SetTransportAttribute("SndBufSize", ns3::UintegerValue(config.snd_buf));
  helper.SetTransportAttribute("RcvBufSize", ns3::UintegerValue(config.rcv_buf));
}

// Link rate, delay and MTU, the shaper if any, and the TCP (configure_tcp_endpoints); then
// `ranks` endpoints. Entry r is rank r's transport.
template <typename StarHelper>
std::vector<ns3::Ptr<ns3::MessageTransport>> install_tcp_star(StarHelper& star,
                                                              const NetworkConfig& config,
                                                              uint32_t ranks) {
  star.SetLinkAttribute("DataRate", ns3::DataRateValue(config.link_rate));
  star.SetLinkAttribute("Delay", ns3::TimeValue(config.link_delay));
  star.SetDeviceAttribute("Mtu", ns3::UintegerValue(config.mtu));
  configure_tcp_endpoints(star, config);
  if (config.shaper.rate.GetBitRate() > 0) {
    // Linux's tbf on an Ethernet device charges each packet's 14-byte Ethernet header too;
    // the simulated discs charge the IP packet on both ends. Slowed by 1500/1514 (for the
    // default MTU), a simulated shaper passes full frames exactly as fast as the testbed's.
    const ns3::DataRate rate(uint64_t(double(config.shaper.rate.GetBitRate()) * config.mtu /
                                      (config.mtu + kEthernetHeader)));
    const ns3::DataRateValue tokens(rate);
    const ns3::UintegerValue bucket(config.shaper.burst);
    const auto bytes = [](uint64_t n) {
      return ns3::QueueSizeValue(ns3::QueueSize(ns3::QueueSizeUnit::BYTES, n));
    };
    star.SetHubQueueDisc("ns3::TbfQueueDisc", "Rate", tokens, "Burst", bucket, "MaxSize",
                         bytes(config.shaper.limit));
    // The rank's side stands for its NIC, which queues what the rank's own TCP sends rather
    // than drop it, as the testbed's rank-side tbf does with its 1000 frames (validation/
    // testbed/testbed.sh; with the switch-port limit there instead, Linux lost 5-10% of its
    // packets at its own veth). The limit is raised to what the rank's connections can have
    // unacknowledged (a send buffer each, two per peer at most), so it never drops: the
    // shaper's limit acts where a switch's buffer does, on forwarded traffic.
    const uint64_t in_flight = 2ull * config.snd_buf * (ranks > 1 ? ranks - 1 : 1);
    star.SetEndpointQueueDisc("ns3::TbfQueueDisc", "Rate", tokens, "Burst", bucket, "MaxSize",
                              bytes(std::max<uint64_t>(config.shaper.limit, in_flight)));
  }
  star.Install(ranks);
  return star.GetTransports();
}

}  // namespace uniference
