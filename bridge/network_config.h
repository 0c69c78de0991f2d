// The network of a simulated run, as ns-3 types: rates as DataRate, delays as Time, the
// TCP congestion control as a TypeId. Names (topology, transport, link model) are looked
// up in the registries of network_registry.h.
#pragma once

#include "bridge/collective_presets.h"

#include <ns3/data-rate.h>
#include <ns3/nstime.h>
#include <ns3/type-id.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace uniference {

struct NetworkConfig {
  std::string topology = "star";
  std::string transport = "tcp";
  std::string link_model;  // empty: the topology's first link model
  ns3::DataRate link_rate = ns3::DataRate(1'000'000'000);
  ns3::Time link_delay = ns3::MicroSeconds(50);
  uint32_t mtu = 1500;  // bytes, IP packet size limit
  // Empty: TCP Cubic. A TypeId is only valid once ns-3's registry is up, so the default is
  // resolved when the network is built.
  ns3::TypeId tcp_variant;
  uint32_t segment_size = 1448;
  uint32_t snd_buf = 131072;
  uint32_t rcv_buf = 131072;
  // ns-3 Attribute defaults ("ns3::TcpSocket::InitialCwnd", "10"), applied before anything
  // is built, in order; the fields above are set on the objects themselves and win.
  std::vector<std::pair<std::string, std::string>> ns3_defaults;
  // Per operation, the algorithm and its Attributes; operations not named here follow the
  // preset, or without one run their default.
  CollectiveChoices collectives;
  std::string collective_preset;  // a name of collective_presets(), or empty
};

}  // namespace uniference
