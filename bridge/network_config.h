// The network of a simulated run, as ns-3 types: rates as DataRate, delays as Time, the
// TCP congestion control as a TypeId. Names (topology, transport, link model) are looked
// up in the registries of network_registry.h.
#pragma once

#include "bridge/collective_presets.h"

#include <ns3/data-rate.h>
#include <ns3/nstime.h>
#include <ns3/type-id.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace uniference {

// The InfiniBand-like fabric of transport "rdma" over link model "ib".
struct RdmaConfig {
  uint32_t mtu = 4096;         // payload bytes per packet: 256, 512, 1024, 2048 or 4096
  uint32_t vl_buffer = 65536;  // receive buffer per virtual lane, bytes
  // Empty: no congestion control (ns3::RdmaCongestionControl); else ns3::IbCongestionControl
  // or ns3::Dcqcn. Resolved when the network is built, like tcp_variant.
  ns3::TypeId congestion_control;
  bool adaptive_routing = false;  // false: ECMP, a flow keeps its path
  ns3::Time switch_latency = ns3::NanoSeconds(100);
  // Intra-server cables of rail-optimised and two-tier topologies (NVLink-like).
  ns3::DataRate intra_rate = ns3::DataRate(7'200'000'000'000);
  ns3::Time intra_delay = ns3::NanoSeconds(10);
};

// A token-bucket shaper (ns3::TbfQueueDisc) on both ends of every link of a TCP star, as
// `tc qdisc ... tbf` on both ends of a Linux testbed's veth links.
struct ShaperConfig {
  ns3::DataRate rate = ns3::DataRate(0);  // 0: no shaper
  uint32_t burst = 0;                     // bucket, bytes
  uint32_t limit = 0;                     // queue, bytes
};

// Fades of a wide-area link (rain on a satellite path, blockage of a sub-THz beam):
// exponential clear spells and fades (ns3::FadeCondition).
struct FadeConfig {
  double mean_clear_s = 0;  // mean clear spell, 1 / (fades per clear second)
  double mean_fade_s = 0;   // mean fade
  double rate_factor = 0;   // rate while faded, as a fraction; 0: the link is out
  ns3::Time recovery;       // out after a fade that took the link out (beam recovery)
};

// Gilbert-Elliott loss on both ends of a wide-area link, as netem's `loss gemodel p r 1-h 1-k`
// (as fractions, where netem takes percent).
struct LossConfig {
  double p = 0;             // good -> bad, per packet
  double r = 1;             // bad -> good
  double loss_in_bad = 1;   // 1-h
  double loss_in_good = 0;  // 1-k
};

// The wide-area link of topology "edge-cloud", between the edge site's router and the cloud
// site's (ns3::EdgeCloudHelper, ns3::VaryingLinkChannel).
struct WanConfig {
  std::string model;  // a name of wan_models(); empty: none
  ns3::DataRate uplink = ns3::DataRate(0);    // edge -> cloud
  ns3::DataRate downlink = ns3::DataRate(0);  // cloud -> edge
  // The path condition's ns-3 Attributes, over the model's own defaults.
  std::vector<std::pair<std::string, std::string>> attributes;
  bool hold = false;  // packets sent during an outage wait for its end; else they are lost
  std::optional<FadeConfig> fade;  // none: the model's default fade, if it has one
  bool no_fade = false;            // the model's default fade turned off
  std::optional<LossConfig> loss;
};

struct NetworkConfig {
  std::string topology = "star";
  std::string transport = "tcp";
  // "packet": every packet through the devices and switches; "flow": every message a flow
  // sharing the same links max-min fairly (ns3::FlowNetwork; bridge/flow_level.h).
  std::string level = "packet";
  std::string link_model;  // empty: the topology's first link model
  ns3::DataRate link_rate = ns3::DataRate(1'000'000'000);
  ns3::Time link_delay = ns3::MicroSeconds(50);
  uint32_t mtu = 1500;  // bytes, IP packet size limit
  ShaperConfig shaper;
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
  RdmaConfig rdma;
  // Sizes of the topology by option name ("k" of a fat-tree); an option not given takes the
  // topology's default for the number of ranks.
  std::map<std::string, uint32_t> topology_options;
  // Node names pinned to processes (/network/partition); the topology cuts the rest. Read only
  // where processes > 1, but its names are checked in any run.
  std::map<std::string, uint32_t> partition;
  // placement[r] is the endpoint rank r sits on; empty: rank r on endpoint r ("packed").
  std::vector<uint32_t> placement;
  // Processes of a distributed simulation that the fabric is cut across (bridge/distributed.h);
  // 1: one process, nothing cut.
  uint32_t processes = 1;
  WanConfig wan;
  // The endpoints' software: how long a message that arrived waits before the communication
  // library hands it on (MessageTransport's HandlingDelay): measured delays, each drawn
  // equally often, or else an exponential of this mean; neither: at once.
  int64_t handling_mean_ns = 0;
  std::vector<int64_t> handling_samples_ns;
};

}  // namespace uniference
