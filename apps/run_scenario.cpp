#include "apps/run_scenario.h"

#include "apps/atomic_file.h"
#include "apps/compute_check.h"
#include "apps/distributed_run.h"
#include "apps/json_checker.h"
#include "apps/progress_line.h"
#include "apps/report.h"
#include "apps/run_capture.h"
#include "apps/scenario_check.h"
#include "apps/simulation_progress.h"
#include "bridge/distributed.h"
#include "bridge/link_sampler.h"
#include "bridge/node_names.h"
#include "bridge/network_registry.h"
#include "bridge/ns3_build.h"
#include "bridge/sim_cluster.h"
#include "bridge/this_lp.h"
#include "bridge/varying_links.h"
#include "compute/compute_meter.h"

#include <ns3/simulator.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>

namespace uniference {

namespace {

// Instants at which a time-varying link's delay and rates are recorded: twice the report's
// columns, and a few kilobytes of trace per link.
constexpr uint32_t kConditionSamples = 240;

std::unique_ptr<ComputeMeter> meter_for(const Scenario& scenario, const DeviceProfile& profile) {
  if (scenario.compute_mode == ComputeMode::kMeasured) {
    return make_measured_meter(profile.slowdown);
  }
  if (scenario.compute_mode == ComputeMode::kReplay) {
    return make_replay_meter(scenario.replay_table, profile.slowdown);
  }
  return make_modeled_meter(profile);
}

// Serving's progress: requests done, and the median TTFT so far.
class ServingProgress {
 public:
  explicit ServingProgress(size_t requests) : requests_(requests), line_(false) {}

  void finished(const RequestRecord& r) {
    ttft_ns_.push_back(r.first_token_ns - r.arrival_ns);
    if (!line_.due()) return;
    std::vector<int64_t> sorted = ttft_ns_;
    std::nth_element(sorted.begin(), sorted.begin() + long(sorted.size() / 2), sorted.end());
    line_.step(ttft_ns_.size(), requests_,
               "requests, t=" + format_duration(this_lp::now_ns()) + " simulated, p50 TTFT " +
                   format_duration(sorted[sorted.size() / 2]));
  }

 private:
  size_t requests_;
  std::vector<int64_t> ttft_ns_;
  ProgressLine line_;
};

// The registered name of the entry whose class the run used; `none` when it used none.
template <typename Entry>
std::string registered_name(const NamedRegistry<Entry>& registry, ns3::TypeId used,
                            const std::string& none) {
  for (const Entry& entry : registry.entries()) {
    if (entry.type_id() == used) return entry.name;
  }
  return none;
}

// A scenario run across the processes of mpirun: refused at its pointer where the run would
// need what only one process can give.
void check_runs_across(const Scenario& scenario, const CheckedScenario& checked, uint32_t processes) {
  const auto refuse = [&](const std::string& pointer, const std::string& why) {
    throw ScenarioError(scenario.source, pointer,
                        "a run across " + std::to_string(processes) + " processes " + why);
  };
  if (!scenario.shapes_only) {
    refuse("/compute/shapes_only",
           "computes shapes only: tensor data travels beside the packets in one process's "
           "memory (set /compute/shapes_only to true)");
  }
  // Each topology says on which transports it can be cut: the RDMA fabric between its
  // switches (a cable into an endpoint can deliver a header within a nanosecond of its delay,
  // and then the processes could order that nanosecond differently: ns3::IbRemoteChannel),
  // the TCP star on its Ethernet cables (ns3::EthernetRemoteChannel).
  const NetworkConfig& network = checked.network;
  if (network.level != "packet") {
    refuse("/network/transport/level", "runs at packet level only (its cables between processes "
                                       "carry packets), not at " + network.level + " level");
  }
  const std::vector<std::string>& cut_on = topologies().at(network.topology).cut_on;
  if (std::find(cut_on.begin(), cut_on.end(), network.transport) == cut_on.end()) {
    std::string cuts;
    for (const Topology& topology : topologies().entries()) {
      for (const std::string& transport : topology.cut_on) {
        cuts += (cuts.empty() ? "" : ", ") + topology.name + " over " + transport;
      }
    }
    refuse("/network/topology", "cuts " + cuts + "; not " + network.topology + " over " +
                                    network.transport);
  }
  for (const auto& [name, process] : network.partition) {
    if (process >= processes) {
      refuse(child("/network/partition", name),
             "has processes 0 to " + std::to_string(processes - 1) + ", not " + std::to_string(process));
    }
  }
  if (!scenario.faults.empty()) refuse("/faults", "injects no faults");
  if (scenario.workload.is_serving()) {
    refuse("/workload/kind", "runs batch workloads: serving's scheduler is one rank's memory");
  }
}

}  // namespace

NetworkSetup network_setup(const NetworkSpec& spec, const NetworkConfig& config) {
  NetworkSetup setup;
  setup.preset = spec.preset;
  setup.ns3_build = describe_briefly(ns3_build());
  setup.topology = config.topology;
  setup.transport = config.transport;
  setup.level = config.level;
  setup.link_rate_bps = config.link_rate.GetBitRate();
  setup.link_delay_ns = config.link_delay.GetNanoSeconds();
  setup.link_rate_text = spec.link.rate_text;
  setup.link_delay_text = spec.link.delay_text;

  setup.mtu = config.mtu;
  setup.tcp_variant = registered_name(tcp_variants(), config.tcp_variant, "cubic");
  setup.segment_size = config.segment_size;
  if (config.shaper.rate.GetBitRate() > 0) {
    setup.shaper = ShaperSetup{config.shaper.rate.GetBitRate(), config.shaper.burst,
                               config.shaper.limit, spec.link.shaper ? spec.link.shaper->rate_text : ""};
  }
  if (!config.wan.model.empty()) {
    WanSetup wan;
    wan.model = config.wan.model;
    wan.uplink_bps = config.wan.uplink.GetBitRate();
    wan.downlink_bps = config.wan.downlink.GetBitRate();
    // A trace model's File is the path the scenario's folder resolved: setup names the file
    // as written instead, so that results.json holds no path of this machine.
    for (const auto& attribute : config.wan.attributes) {
      if (!(config.wan.model == "trace" && attribute.first == "File")) wan.attributes.push_back(attribute);
    }
    wan.hold = config.wan.hold;
    wan.fade = config.wan.fade.has_value();
    wan.loss = config.wan.loss.has_value();
    if (spec.wan) {
      if (spec.wan->budget) wan.budget = {spec.wan->budget->bandwidth_hz, spec.wan->budget->snr_db};
      wan.rate_text = spec.wan->rate_text;
      wan.trace = spec.wan->trace;
    }
    setup.wan = wan;
  }

  setup.ib_mtu = config.rdma.mtu;
  setup.congestion_control = registered_name(rdma_congestion_controls(), config.rdma.congestion_control, "none");
  setup.adaptive_routing = config.rdma.adaptive_routing;
  setup.placement = config.placement;
  return setup;
}

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
  inputs.on_token = [](int64_t prompt, int64_t step, int64_t token) {
    this_lp::record_token(prompt, step, token);
  };
  // Progress lines go to a terminal only: a pipe or a CI log gets the summary alone.
  progress = progress && ProgressLine(false).enabled();

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
  KernelConfig kernel = kernel_config(checked);
  kernel.block_timeout_ns = scenario.collective_timeout_ns;
  NetworkConfig network = checked.network;
  network.processes = distributed::processes();
  const bool across = network.processes > 1;
  if (across) {
    check_runs_across(scenario, checked, network.processes);
    // Only process 0 speaks: the others' lines would interleave with its own.
    progress = progress && distributed::process() == 0;
  }
  SimCluster cluster(network, kernel);
  for (int r = 0; r < checked.ranks; ++r) {
    cluster.add_rank(meter_for(scenario, checked.rank_devices[size_t(r)]),
                     [&](Comm& world) { run_rank(scenario, checked, world, inputs, serving); });
  }
  // The taps go on once the devices exist; they die before the cluster, which owns ns-3.
  try {
    cluster.build_network();  // which looks up the names of /network/partition
  } catch (const PartitionError& e) {
    throw ScenarioError(scenario.source, child("/network/partition", e.name), e.what());
  }
  try {
    cluster.inject_faults(checked.faults);
  } catch (const FaultTargetError& e) {
    throw ScenarioError(scenario.source, e.pointer, e.what());
  }
  std::optional<LinkSampler> links;
  // For the trace's link counters and results.json's per-link totals.
  if ((outputs.trace || outputs.results) && outputs.link_samples > 0) {
    links.emplace(outputs.link_samples, cluster.flow_network());
    // TCP's acknowledgements go on after the last rank finishes, where one process has stopped.
    if (across && network.transport == "tcp") links->keep_until_end();
  }
  RunCapture capture(outputs, out_dir, scenario.name);
  std::optional<SimulationProgress> run_progress;
  if (progress && !scenario.workload.is_serving()) {
    run_progress.emplace(cluster.kernel(), size_t(scenario.workload.batch) * size_t(scenario.workload.new_tokens));
  }

  ScenarioRun run;
  run.outcome = cluster.run();
  // Across processes, each has only its own ranks' finishes: the run ends at the latest.
  const int64_t total_ns = distributed::max_over_processes(cluster.record().total_ns);
  if (links) {
    cluster.kernel().recorder().links(
        across ? links->finish(total_ns, distributed::max_over_processes(links->fitted_width_ps(total_ns)),
                               SIZE_MAX)
               : links->finish(total_ns));
  }
  cluster.kernel().recorder().outages(link_outages(total_ns));
  cluster.kernel().recorder().link_conditions(link_conditions(total_ns, kConditionSamples));
  run.record = cluster.record();
  if (across) {
    ProcessPart part;
    part.record = run.record;
    for (int r = 0; r < checked.ranks; ++r) part.ranks_here.push_back(cluster.kernel().runs_here(r));
    part.sent_elsewhere = cluster.kernel().recorder().sent_elsewhere();
    part.arrived = cluster.kernel().recorder().arrived_from_elsewhere();
    part.outcome = run.outcome;
    const std::vector<std::string> texts = distributed::gather(part_to_text(part));
    if (distributed::process() != 0) {
      run.record = RunRecord();
      run.elsewhere = true;
      return run;
    }
    std::vector<ProcessPart> parts;
    for (const std::string& text : texts) parts.push_back(part_from_text(text));
    std::vector<std::string> order;
    for (const CableDirection& direction : cable_directions()) order.push_back(direction.name);
    JoinedRun joined = join_parts(parts, order);
    run.record = std::move(joined.record);
    run.outcome = std::move(joined.outcome);
  }
  run.record.device_memory_bytes = uint64_t(checked.device.memory_bytes);
  run.network = network_setup(scenario.network, checked.network);
  if (run.outcome.status == RunOutcome::Status::kCompleted) capture.commit();
  return run;
}

}  // namespace uniference
