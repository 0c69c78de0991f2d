// The network a simulated run was built from, as its reports state it: NetworkConfig's
// values (defaults resolved, names as their registries spell them) in plain types, so that
// the reports (apps/report.h) and the deploy binary build without ns-3. run_scenario.h
// makes one from the NetworkConfig the run used.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace uniference {

struct ShaperSetup {
  uint64_t rate_bps = 0;
  uint32_t burst = 0;     // bytes
  uint32_t limit = 0;     // bytes
  std::string rate_text;  // the rate as the scenario wrote it, for the summary
};

// The wide-area link of topology edge-cloud.
struct WanSetup {
  std::string model;
  uint64_t uplink_bps = 0;  // as run: a link budget's Shannon rate where one was given
  uint64_t downlink_bps = 0;
  // The path condition's ns-3 Attributes the scenario set (a trace model's file is `trace`).
  std::vector<std::pair<std::string, std::string>> attributes;
  bool hold = false;  // packets sent during an outage wait for its end; else they are lost
  bool fade = false;  // a fade given in the scenario
  bool loss = false;  // Gilbert-Elliott loss
  // How the scenario gave the rate: a link budget (bandwidth_hz, snr_db), or rate_text.
  std::optional<std::pair<double, double>> budget;
  std::string rate_text;
  std::string trace;  // the trace file as written (model "trace"), else empty
};

struct NetworkSetup {
  std::string preset;  // the network preset the scenario named, or empty
  std::string topology;
  std::string transport;  // "tcp" or "rdma": the topology's default where none was written
  std::string level;      // "packet" or "flow"
  uint64_t link_rate_bps = 0;
  int64_t link_delay_ns = 0;
  // The rate and delay as the scenario wrote them, for the summary ("1Gbps", "50us").
  std::string link_rate_text;
  std::string link_delay_text;

  // Transport tcp.
  uint32_t mtu = 0;         // IP packet size limit, bytes
  std::string tcp_variant;  // a name of tcp_variants()
  uint32_t segment_size = 0;
  std::optional<ShaperSetup> shaper;
  std::optional<WanSetup> wan;

  // Transport rdma.
  uint32_t ib_mtu = 0;              // payload bytes per packet
  std::string congestion_control;   // a name of rdma_congestion_controls(), or "none"
  bool adaptive_routing = false;    // false: ECMP
  std::vector<uint32_t> placement;  // endpoint of each rank; empty: packed

  // The ns-3 that simulated it (bridge/ns3_build.h, one line). Not in results.json, which
  // stays byte-identical across ns-3 builds; the page a run makes names it.
  std::string ns3_build;
};

}  // namespace uniference
