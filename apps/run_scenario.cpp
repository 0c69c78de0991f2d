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
#include "compute/background_traffic.h"
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
  if (scenario.devices.host_cores > 0) {
    refuse("/devices/host_cores", "gives every rank a device of its own: a host's ranks would "
                                  "share its cores across processes");
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
  if (!scenario.jobs.empty()) refuse("/jobs", "runs one job");
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

// /devices/host_cores: consecutive ranks, ranks_per_host at a time (all by default), share
// a host's cores.
void share_host_cores(Kernel& kernel, const DeviceSpec& devices) {
  if (devices.host_cores <= 0) return;
  const int ranks = kernel.lp_count();
  const int per_host = devices.ranks_per_host > 0 ? devices.ranks_per_host : ranks;
  for (int first = 0; first < ranks; first += per_host) {
    std::vector<int> host;
    for (int r = first; r < std::min(ranks, first + per_host); ++r) host.push_back(r);
    kernel.share_cores(host, devices.host_cores);
  }
}

KernelConfig kernel_config(const CheckedCompute& checked) {
  KernelConfig kernel;
  kernel.seed = checked.seed;
  kernel.wake_mean_ns = checked.wake_latency.mean_ns;
  kernel.wake_samples_ns = checked.wake_latency.samples_ns;
  return kernel;
}

// What one model job's ranks read: the strategy's inputs, and serving's.
struct JobInputs {
  StrategyInputs strategy;
  ServingInputs serving;
};

// A model job's inputs; its serving requests arrive from `start_ns` on. Where `progress` is
// given, a serving job shows its requests there.
JobInputs job_inputs(const Scenario& scenario, const CheckedCompute& checked, int64_t start_ns,
                     std::optional<ServingProgress>* progress) {
  JobInputs in;
  in.strategy = strategy_inputs(scenario, checked);
  in.strategy.weights_loaded = this_lp::discard_compute;
  in.strategy.on_memory = [](const MemoryUse& use) {
    this_lp::record_memory(use.weights, use.kv_cache, use.activations);
  };
  in.strategy.on_token = [](int64_t prompt, int64_t step, int64_t token) {
    this_lp::record_token(prompt, step, token);
  };
  if (scenario.workload.is_serving()) {
    in.serving = serving_inputs(scenario, checked);
    for (Request& request : in.serving.requests) request.arrival_ns += start_ns;
    in.serving.clock.now_ns = this_lp::clock_ns;
    in.serving.clock.sleep_until_ns = this_lp::sleep_until;
    if (progress != nullptr) progress->emplace(in.serving.requests.size());
    in.serving.on_finished = [progress](const RequestRecord& record) {
      this_lp::record_request(record);
      if (progress != nullptr) (*progress)->finished(record);
    };
  }
  return in;
}

// Tokens a run of batch jobs makes, for its progress line; 0 (not known) where a job serves.
size_t expected_tokens(const Scenario& scenario) {
  const auto of = [](const Scenario& s) { return size_t(s.workload.batch) * size_t(s.workload.new_tokens); };
  if (scenario.jobs.empty()) return of(scenario);
  size_t tokens = 0;
  for (const JobSpec& job : scenario.jobs) {
    if (!job.alone) continue;
    if (job.alone->workload.is_serving()) return 0;
    tokens += of(*job.alone);
  }
  return tokens;
}

// The ranks of every job of /jobs, each job a world of its own. The inputs live in `inputs`,
// which the ranks read while the cluster runs.
void add_jobs(SimCluster& cluster, const Scenario& scenario, const CheckedScenario& checked,
              std::vector<JobInputs>& inputs) {
  inputs.reserve(checked.jobs.size());
  std::vector<JobWorld> worlds;
  std::vector<JobRanks> ranks;
  for (const CheckedJob& job : checked.jobs) {
    const JobSpec& spec = *job.spec;
    worlds.push_back({job.first_rank, job.ranks, spec.alone ? spec.alone->seed : scenario.seed});
    ranks.push_back({spec.name, job.first_rank, job.ranks});
    if (spec.traffic) {
      inputs.emplace_back();
      TrafficRounds rounds{spec.traffic->pattern, spec.traffic->bytes, spec.start_ns,
                           spec.traffic->period_ns, scenario.shapes_only};
      Kernel* kernel = &cluster.kernel();
      for (int r = 0; r < job.ranks; ++r) {
        const int rank = cluster.add_rank(make_modeled_meter(checked.device), [rounds, kernel](Comm& world) {
          TrafficClock clock{this_lp::sleep_until,
                             [kernel](int64_t ns) { return kernel->foreground_finished_before(ns); }};
          run_background_traffic(world, rounds, clock);
        });
        kernel->set_background(rank);
      }
      continue;
    }
    inputs.push_back(job_inputs(*spec.alone, job.compute, spec.start_ns, nullptr));
    const JobInputs* in = &inputs.back();
    const CheckedJob* checked_job = &job;
    for (int r = 0; r < job.ranks; ++r) {
      cluster.add_rank(meter_for(*spec.alone, job.compute.rank_devices[size_t(r)]), [checked_job, in](Comm& world) {
        const JobSpec& spec = *checked_job->spec;
        if (spec.start_ns > 0) this_lp::sleep_until(spec.start_ns);
        run_rank(*spec.alone, checked_job->compute, world, in->strategy, in->serving);
      });
    }
  }
  cluster.set_jobs(std::move(worlds));
  cluster.kernel().recorder().jobs(std::move(ranks));
}

ScenarioRun run_scenario(const Scenario& scenario, bool progress, const std::string& out_dir) {
  const CheckedScenario checked = check_scenario(scenario);
  // Progress lines go to a terminal only: a pipe or a CI log gets the summary alone.
  progress = progress && ProgressLine(false).enabled();

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
  std::optional<ServingProgress> serving_progress;
  const bool serving = scenario.jobs.empty() && scenario.workload.is_serving();
  SimCluster cluster(network, kernel);
  std::vector<JobInputs> inputs;
  if (scenario.jobs.empty()) {
    inputs.push_back(job_inputs(scenario, checked, 0, progress ? &serving_progress : nullptr));
    const JobInputs* in = &inputs.back();
    for (int r = 0; r < checked.ranks; ++r) {
      cluster.add_rank(meter_for(scenario, checked.rank_devices[size_t(r)]), [&scenario, &checked, in](Comm& world) {
        run_rank(scenario, checked, world, in->strategy, in->serving);
      });
    }
  } else {
    add_jobs(cluster, scenario, checked, inputs);
  }
  share_host_cores(cluster.kernel(), scenario.devices);
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
    if (!checked.jobs.empty()) {
      std::vector<int> job_of_rank;
      for (size_t j = 0; j < checked.jobs.size(); ++j) job_of_rank.resize(job_of_rank.size() + size_t(checked.jobs[j].ranks), int(j));
      links->attribute_jobs(job_of_rank);
    }
  }
  RunCapture capture(outputs, out_dir, scenario.name);
  std::optional<SimulationProgress> run_progress;
  if (progress && !serving) run_progress.emplace(cluster.kernel(), expected_tokens(scenario));

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
