// Link presets: the rate and propagation delay of well-known links, by the names people use
// for them ("hdr", "ndr", "nvlink", "100gbe"). A scenario names one at /network/link/preset;
// an explicit /network/link/rate or /network/link/delay wins over the preset's.
//
// Header-only and free of ns-3, so that reading a scenario (apps/scenario.cpp, which links
// neither ns-3 nor libtorch) fills in a link's rate and delay as if they had been written.
#pragma once

#include "compute/registry.h"

#include <cstdint>
#include <string>

namespace uniference {

// Bytes a frame carries besides its payload as the simulated devices count them: Ethernet's
// 14 (what a tbf on an Ethernet device counts beyond IP), InfiniBand's 26 (local routing
// header 8, base transport header 12, invariant CRC 4, variant CRC 2). The devices' own
// constants are ns3::EthernetNetDevice::HEADER_BYTES and IbNetDevice::DEFAULT_HEADER_BYTES;
// this header is free of ns-3, so bridge/network_registry.cpp asserts that they agree.
inline constexpr uint32_t kEthernetHeaderBytes = 14;
inline constexpr uint32_t kIbHeaderBytes = 26;

struct LinkPreset {
  std::string name;
  std::string description;
  std::string rate;   // as a scenario writes /network/link/rate
  std::string delay;  // one-way propagation delay of a typical cable of this kind
};

inline const NamedRegistry<LinkPreset>& link_presets() {
  // Delays are cable lengths at 5 ns per metre (light in fibre or copper): 20 m for a
  // data-centre row, 100 m across a hall for Ethernet, 2 m inside one server for NVLink.
  static const NamedRegistry<LinkPreset> registry(
      "link preset",
      {
          {"hdr", "InfiniBand HDR: 200 Gbit/s, 100 ns (20 m of cable)", "200Gbps", "100ns"},
          {"ndr", "InfiniBand NDR: 400 Gbit/s, 100 ns (20 m of cable)", "400Gbps", "100ns"},
          {"nvlink", "NVLink 4 inside a server: 900 GB/s = 7200 Gbit/s, 10 ns (2 m)", "900GBps",
           "10ns"},
          {"25gbe", "25 Gigabit Ethernet: 25 Gbit/s, 500 ns (100 m of fibre)", "25Gbps", "500ns"},
          {"100gbe", "100 Gigabit Ethernet: 100 Gbit/s, 500 ns (100 m of fibre)", "100Gbps",
           "500ns"},
          {"wifi6", "Wi-Fi 6 (802.11ax) at HE MCS 7, 20 MHz, one stream: 86 Mbit/s, stations 10 m "
                    "apart (33 ns)", "86Mbps", "33ns"},
      });
  return registry;
}

}  // namespace uniference
