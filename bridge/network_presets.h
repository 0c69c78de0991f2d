// Network presets: whole /network sections of well-known clusters, by name. A scenario names
// one at /network/preset; every key it writes beside the name wins over the preset's (objects
// merge key by key), so a preset is a starting point, not a lock.
//
// Header-only and free of ns-3, like link_presets.h, so that reading a scenario fills a
// preset in as if its keys had been written.
#pragma once

#include "compute/registry.h"

#include <string>

namespace uniference {

struct NetworkPreset {
  std::string name;
  std::string description;
  std::string network;  // the /network object it stands for, as JSON text
};

inline const NamedRegistry<NetworkPreset>& network_presets() {
  static const NamedRegistry<NetworkPreset> registry(
      "network preset",
      {
          // CloudMatrix384's unified bus: 392 GB/s per NPU each way (3136 Gbit/s), two
          // non-blocking switch tiers. Cables of 100 ns and switches of 700 ns give the
          // published 0.9 us one hop (2 cables, 1 switch) and 2.5 us two hops (4 cables, 3
          // switches). A lane buffers what a 3136 Gbit/s line sends while a credit makes its
          // way back through a 700 ns switch, with room to spare.
          {"cm384",
           "a CloudMatrix384-like superpod: servers of 8 NPUs, two switch tiers (two-tier, 8 "
           "second-tier switches), 392 GB/s per NPU, 0.9 us one hop, 2.5 us two hops",
           R"({"topology": "two-tier",
               "topology_options": {"gpus_per_server": 8, "tier_switches": 8},
               "link": {"model": "ib", "rate": "3136Gbps", "delay": "100ns", "ib_mtu": 4096,
                        "vl_buffer": 1048576},
               "intra_server_link": {"rate": "3136Gbps", "delay": "100ns"},
               "switch": {"latency": "700ns", "routing": "adaptive"},
               "transport": {"kind": "rdma", "congestion_control": "none"}})"},
          // DeepEP's measurements: H800 servers, one ConnectX-7 400 Gbit/s InfiniBand NIC per
          // GPU; its low-latency kernels send every token over RDMA, a server's own peers
          // included, so each GPU is one 400 Gbit/s port of a non-blocking fabric.
          {"h800-400g",
           "a DeepEP-like H800 cluster as its low-latency kernels use it: every GPU's traffic "
           "through its own 400 Gbit/s NIC on a non-blocking NDR fat-tree with adaptive routing",
           R"({"topology": "fat-tree",
               "link": {"model": "ib", "preset": "ndr", "ib_mtu": 4096},
               "switch": {"latency": "100ns", "routing": "adaptive"},
               "transport": {"kind": "rdma", "congestion_control": "none"}})"},
      });
  return registry;
}

}  // namespace uniference
