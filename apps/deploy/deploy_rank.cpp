#include "apps/deploy/deploy_rank.h"


#include "apps/deploy/rank_timeline.h"
#include "apps/deploy/timed_comm.h"
#include "apps/record_json.h"
#include "apps/report.h"
#include "compute/compute_label.h"
#include "compute/timed_phase.h"

#include <chrono>
#include <filesystem>
#include <iostream>
#include <thread>

namespace uniference {

namespace {

// The scenario key that sets a degree above 1, for an error about the world's size.
std::string degree_keys(const ParallelDegrees& parallel) {
  std::string keys;
  const auto add = [&](const char* key, int value) {
    if (value > 1) keys += std::string(keys.empty() ? "" : " x ") + key + " " + std::to_string(value);
  };
  add("tp", parallel.tp);
  add("pp", parallel.pp);
  add("sp", parallel.sp);
  add("dp", parallel.dp);
  add("ep", parallel.ep);
  return keys.empty() ? "every degree 1" : keys;
}

// The label and phase sinks are the process's; they are removed on every way out.
class LabelSinkScope {
 public:
  explicit LabelSinkScope(RankTimeline& timeline) {
    set_compute_label_sink([&timeline](const std::string& label) { timeline.label(label); });
    set_phase_sink([&timeline](const std::string& name, bool begins) { timeline.phase(name, begins); });
  }
  ~LabelSinkScope() {
    set_compute_label_sink(nullptr);
    set_phase_sink(nullptr);
  }
};

}  // namespace

void check_deployment(const Scenario& scenario, const CheckedCompute& checked,
                      const DeployOptions& options) {
  const int world = options.placement.world;
  if (world != checked.ranks) {
    throw ScenarioError(scenario.source, "/parallel",
                        "the scenario needs " + std::to_string(checked.ranks) + " ranks (" +
                            degree_keys(scenario.parallel) + "), but WORLD_SIZE is " +
                            std::to_string(world));
  }
  if (scenario.shapes_only) {
    throw ScenarioError(scenario.source, "/compute/shapes_only",
                        "a deployment computes and sends real tensors; shape-only models are for "
                        "simulation");
  }
}

std::string run_deploy_rank(const Scenario& scenario, const CheckedCompute& checked,
                            const DeployOptions& options) {
  DeploySession session(options);
  const std::string unconnected = session.open();
  if (!unconnected.empty()) return unconnected;
  const int rank = options.placement.rank;
  const int world = options.placement.world;

  RankTimeline timeline(rank, world);
  TimedComm timed(session.world(), timeline);
  StrategyInputs inputs = strategy_inputs(scenario, checked);
  inputs.weights_loaded = [&] {
    timeline.set_origin(agree_on_origin(session.store(), world, RankTimeline::clock_ns()));
  };
  inputs.on_memory = [&](const MemoryUse& use) {
    timeline.memory(use.weights, use.kv_cache, use.activations);
  };
  inputs.on_token = [&](int64_t prompt, int64_t step, int64_t token) {
    timeline.token(prompt, token);
    if (options.progress) {
      std::cerr << "  token " << step + 1 << "/" << scenario.workload.new_tokens
                << (scenario.workload.batch > 1 ? " of prompt " + std::to_string(prompt) : "")
                << " (id " << token << ") at t=" << format_duration(timeline.now_ns()) << "\n";
    }
  };

  // Serving: arrivals and request times on the timeline's clock (real time since every rank
  // had loaded its weights); each replica's driver records its requests.
  ServingInputs serving;
  if (scenario.workload.is_serving()) {
    serving = serving_inputs(scenario, checked);
    serving.clock.now_ns = [&] { return timeline.now_ns(); };
    serving.clock.sleep_until_ns = [&](int64_t ns) {
      const int64_t wait = ns - timeline.now_ns();
      if (wait > 0) std::this_thread::sleep_for(std::chrono::nanoseconds(wait));
    };
    serving.on_finished = [&](const RequestRecord& record) {
      timeline.request(record);
      if (options.progress) {
        std::cerr << "  request " << record.id << " done at t=" << format_duration(timeline.now_ns())
                  << "\n";
      }
    };
  }

  return session.run([&] {
    {
      LabelSinkScope labels(timeline);
      run_rank(scenario, checked, timed, inputs, serving);
      timeline.finished();
    }
    RunRecord own = timeline.record();
    own.deployed_on = session.backend();
    own.deployed_collectives = session.collective_preset();
    const std::vector<std::string> parts =
        session.gather_at_zero("record", record_to_json(own).dump());
    if (rank == 0) {
      std::vector<RunRecord> records;
      for (const std::string& part : parts) records.push_back(record_from_json(nlohmann::json::parse(part)));
      RunRecord merged = merge_rank_records(records);
      merged.device_memory_bytes = uint64_t(checked.device.memory_bytes);
      std::cout << summary_table(scenario, merged);
      write_outputs(scenario, merged, options.out_dir);
    }
    own.ranks = {own.ranks[size_t(rank)]};
    write_outputs(scenario, own,
                  (std::filesystem::path(options.out_dir) / ("rank" + std::to_string(rank))).string());
  });
}

}  // namespace uniference
