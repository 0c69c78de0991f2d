#include "apps/run_scenario.h"

#include "apps/atomic_file.h"
#include "apps/report.h"
#include "apps/scenario_check.h"
#include "bridge/link_sampler.h"
#include "bridge/network_capture.h"
#include "bridge/sim_cluster.h"
#include "bridge/this_lp.h"
#include "compute/compute_meter.h"

#include <filesystem>
#include <iostream>
#include <optional>

namespace uniference {

namespace {

namespace fs = std::filesystem;

std::unique_ptr<ComputeMeter> meter_for(const Scenario& scenario, const DeviceProfile& profile) {
  if (scenario.compute_mode == ComputeMode::kMeasured) {
    return make_measured_meter(profile.slowdown);
  }
  return make_modeled_meter(profile);
}

// The folder ns-3 writes pcap files into while the run goes: beside the outputs, so moving
// a finished file into place is a rename on one file system. Removed on every way out; a
// folder left by a killed run is cleared by the next.
class CaptureFolder {
 public:
  explicit CaptureFolder(const std::string& out_dir)
      : out_dir_(out_dir), path_(fs::path(out_dir) / ".pcap-partial") {
    std::error_code error;
    fs::create_directories(out_dir_, error);
    if (!error) fs::remove_all(path_, error);
    if (!error) fs::create_directories(path_, error);
    if (error) {
      throw OutputError("cannot create capture folder " + path_.string() + ": " + error.message());
    }
  }
  ~CaptureFolder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  CaptureFolder(const CaptureFolder&) = delete;
  CaptureFolder& operator=(const CaptureFolder&) = delete;

  std::string path() const { return path_.string(); }

  // Moves finished files into the output folder, each renamed whole.
  void commit(const std::vector<std::string>& files) const {
    for (const std::string& file : files) {
      const fs::path target = out_dir_ / fs::path(file).filename();
      std::error_code error;
      fs::rename(file, target, error);
      if (error) {
        throw OutputError("cannot move " + file + " to " + target.string() + ": " +
                          error.message());
      }
    }
  }

 private:
  fs::path out_dir_;
  fs::path path_;
};

}  // namespace

ScenarioRun run_scenario(const Scenario& scenario, bool progress, const std::string& out_dir) {
  const CheckedScenario checked = check_scenario(scenario);
  StrategyInputs inputs = strategy_inputs(scenario, checked);
  inputs.weights_loaded = this_lp::discard_compute;
  inputs.on_memory = [](const MemoryUse& use) {
    this_lp::record_memory(use.weights, use.kv_cache, use.activations);
  };
  inputs.on_token = [&](int64_t prompt, int64_t step, int64_t token) {
    this_lp::record_token(prompt, step, token);
    if (progress) {
      std::cerr << "  token " << step + 1 << "/" << scenario.workload.new_tokens;
      if (scenario.workload.batch > 1) std::cerr << " of prompt " << prompt;
      std::cerr << " (id " << token << ") at t=" << format_duration(this_lp::now_ns()) << "\n";
    }
  };

  const OutputSpec& outputs = scenario.outputs;
  std::optional<CaptureFolder> capture_folder;
  if (outputs.pcap) capture_folder.emplace(out_dir.empty() ? std::string(".") : out_dir);

  KernelConfig kernel;
  kernel.seed = scenario.seed;
  SimCluster cluster(checked.network, kernel);
  for (int r = 0; r < checked.ranks; ++r) {
    cluster.add_rank(meter_for(scenario, checked.device),
                     [&](Comm& world) { run_strategy(*checked.strategy, world, inputs); });
  }
  // The taps go on once the devices exist; they die before the cluster, which owns ns-3.
  cluster.build_network();
  std::optional<LinkSampler> links;
  if (outputs.trace && outputs.link_samples > 0) {
    links.emplace(outputs.link_samples, uint32_t(checked.ranks));
  }
  std::optional<NetworkCapture> capture;
  if (outputs.pcap || outputs.flow_monitor) {
    capture.emplace(outputs.pcap, outputs.flow_monitor,
                    capture_folder ? capture_folder->path() : std::string(), scenario.name);
  }

  ScenarioRun run;
  run.outcome = cluster.run();
  if (links) cluster.kernel().recorder().links(links->finish(cluster.record().total_ns));
  run.record = cluster.record();
  run.record.device_memory_bytes = uint64_t(checked.device.memory_bytes);
  if (run.outcome.status != RunOutcome::Status::kCompleted || !capture) return run;

  const fs::path dir(out_dir.empty() ? std::string(".") : out_dir);
  if (outputs.flow_monitor) {
    const std::string xml = capture->flow_monitor_xml();
    std::error_code error;
    fs::create_directories(dir, error);
    if (error) {
      throw OutputError("cannot create output directory " + dir.string() + ": " + error.message());
    }
    write_file_atomically((dir / "flowmon.xml").string(), xml);
  }
  if (outputs.pcap) {
    capture->close_pcap();
    capture_folder->commit(capture->pcap_files());
  }
  return run;
}

}  // namespace uniference
