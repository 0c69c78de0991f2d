// The pcap files and flowmon.xml a simulated run asks for (/outputs/pcap, /outputs/flow_monitor),
// for `run` and `colltest` alike: taps go on once the network is built, and the files reach
// the output folder only when the run has completed, each moved there whole.
#pragma once

#include "apps/scenario.h"
#include "bridge/network_capture.h"

#include <filesystem>
#include <optional>
#include <string>

namespace uniference {

class RunCapture {
 public:
  // Call once the network is built (SimCluster::build_network); captures nothing unless
  // `outputs` asks. pcap files are named "<prefix>-<node>-<device>.pcap". Throws OutputError
  // when `out_dir` cannot be made.
  RunCapture(const OutputSpec& outputs, const std::string& out_dir, const std::string& prefix);
  ~RunCapture();
  RunCapture(const RunCapture&) = delete;
  RunCapture& operator=(const RunCapture&) = delete;

  // After a completed run: writes flowmon.xml and moves the pcap files into the output folder.
  void commit();

 private:
  std::filesystem::path out_dir_;
  std::filesystem::path partial_;  // where ns-3 writes pcaps while the run goes
  bool flow_monitor_ = false;
  std::optional<NetworkCapture> capture_;
};

}  // namespace uniference
