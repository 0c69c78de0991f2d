#include "apps/run_scenario.h"

#include "apps/atomic_file.h"
#include "apps/compute_check.h"
#include "apps/report.h"
#include "apps/run_capture.h"
#include "apps/scenario_check.h"
#include "bridge/link_outages.h"
#include "bridge/link_sampler.h"
#include "bridge/sim_cluster.h"
#include "bridge/this_lp.h"
#include "compute/compute_meter.h"

#include <algorithm>
#include <iostream>
#include <optional>

namespace uniference {

namespace {

std::unique_ptr<ComputeMeter> meter_for(const Scenario& scenario, const DeviceProfile& profile) {
  if (scenario.compute_mode == ComputeMode::kMeasured) {
    return make_measured_meter(profile.slowdown);
  }
  if (scenario.compute_mode == ComputeMode::kReplay) {
    return make_replay_meter(scenario.replay_table, profile.slowdown);
  }
  return make_modeled_meter(profile);
}

// Serving's progress: at most one line a second of wall time, on the driver's finishes.
class ServingProgress {
 public:
  explicit ServingProgress(size_t requests) : requests_(requests) {}

  void finished(const RequestRecord& r) {
    ttft_ns_.push_back(r.first_token_ns - r.arrival_ns);
    const int64_t wall = steady_clock_ns();
    if (ttft_ns_.size() < requests_ && wall - last_line_ns_ < 1'000'000'000) return;
    last_line_ns_ = wall;
    std::vector<int64_t> sorted = ttft_ns_;
    std::nth_element(sorted.begin(), sorted.begin() + long(sorted.size() / 2), sorted.end());
    std::cerr << "  t=" << format_duration(this_lp::now_ns()) << ": " << ttft_ns_.size() << "/"
              << requests_ << " requests done, p50 TTFT " << format_duration(sorted[sorted.size() / 2])
              << "\n";
  }

 private:
  size_t requests_;
  std::vector<int64_t> ttft_ns_;
  int64_t last_line_ns_ = 0;
};

}  // namespace

KernelConfig kernel_config(const CheckedCompute& checked) {
  KernelConfig kernel;
  kernel.seed = checked.seed;
  kernel.wake_mean_ns = checked.wake_latency.mean_ns;
  kernel.wake_samples_ns = checked.wake_latency.samples_ns;
  return kernel;
}

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

  ServingInputs serving;
  std::optional<ServingProgress> serving_progress;
  if (scenario.workload.is_serving()) {
    serving = serving_inputs(scenario, checked);
    serving.clock.now_ns = this_lp::clock_ns;
    serving.clock.sleep_until_ns = this_lp::sleep_until;
    if (progress) serving_progress.emplace(serving.requests.size());
    serving.on_finished = [&](const RequestRecord& record) {
      this_lp::record_request(record);
      if (serving_progress) serving_progress->finished(record);
    };
  }

  const OutputSpec& outputs = scenario.outputs;
  SimCluster cluster(checked.network, kernel_config(checked));
  for (int r = 0; r < checked.ranks; ++r) {
    cluster.add_rank(meter_for(scenario, checked.rank_devices[size_t(r)]),
                     [&](Comm& world) { run_rank(scenario, checked, world, inputs, serving); });
  }
  // The taps go on once the devices exist; they die before the cluster, which owns ns-3.
  cluster.build_network();
  std::optional<LinkSampler> links;
  if (outputs.trace && outputs.link_samples > 0) {
    links.emplace(outputs.link_samples);
  }
  RunCapture capture(outputs, out_dir, scenario.name);

  ScenarioRun run;
  run.outcome = cluster.run();
  if (links) cluster.kernel().recorder().links(links->finish(cluster.record().total_ns));
  cluster.kernel().recorder().outages(link_outages(cluster.record().total_ns));
  run.record = cluster.record();
  run.record.device_memory_bytes = uint64_t(checked.device.memory_bytes);
  if (run.outcome.status == RunOutcome::Status::kCompleted) capture.commit();
  return run;
}

}  // namespace uniference
