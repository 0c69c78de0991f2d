// Runs a scenario in simulation: the network its registries build, one LP per rank
// running the registered strategy's shard program, and greedy generation on it.
#pragma once

#include "apps/compute_check.h"
#include "apps/network_setup.h"
#include "apps/scenario.h"
#include "bridge/kernel.h"
#include "bridge/network_config.h"
#include "bridge/run_record.h"

#include <string>

namespace uniference {

struct ScenarioRun {
  RunOutcome outcome;
  RunRecord record;
  NetworkSetup network;  // the network the run was built from, for its reports
  // A process of a run across processes other than process 0: it ran its part and handed
  // it to process 0, which holds the whole record and reports it; this one reports nothing.
  bool elsewhere = false;
};

// Runs a scenario (checking it, once; see scenario_check.h). Under mpirun, once
// distributed::enable() has run, each process runs its part of the network and process 0
// gets the whole record (apps/distributed_run.h); a scenario that cannot be cut is refused at
// its pointer (ScenarioError). With `progress` and stderr a
// terminal, shows a progress line there (simulated time, wall time, events per second,
// tokens or requests done); in a pipe, nothing. The record carries the trace's link counters
// (/outputs/link_samples). The network captures a scenario asks for (/outputs/pcap,
// /outputs/flow_monitor) go into `out_dir` once the run has completed: pcap files are
// written into a folder beside them during the run and moved into place only then, so a
// run that fails leaves none. Throws OutputError when they cannot be written.
ScenarioRun run_scenario(const Scenario& scenario, bool progress, const std::string& out_dir = "");

// The network a run built from `config` used, as its reports state it; `spec` gives what
// NetworkConfig does not keep: the preset's name, and how rates and delays were written.
NetworkSetup network_setup(const NetworkSpec& spec, const NetworkConfig& config);

// The kernel a checked scenario's ranks run on (run, colltest): its seed and its hosts'
// wake-up latency.
KernelConfig kernel_config(const CheckedCompute& checked);

}  // namespace uniference
