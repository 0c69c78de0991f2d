// uniference crosscheck: the same scenario at /network/transport/level "packet" and "flow",
// side by side, so a user sees where the flow level's answer holds and what its speed buys:
// a whole run's communication calls by operation and size, and its end-to-end figures; or
// an nccl-tests-style sweep of one collective (colltest.h) at both levels, size by size.
#pragma once

#include "apps/colltest_sweep.h"
#include "apps/scenario.h"
#include "bridge/run_record.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace uniference {

// The scenario at one level ("packet" or "flow"), asking for no capture (crosscheck writes no
// files, and pcap and FlowMonitor need packets) and no trace's link counters.
Scenario at_level(const Scenario& scenario, const std::string& level);

// A communication call's size class: "< 64 KiB", "64 KiB-1 MiB", ">= 1 MiB".
std::string size_class(uint64_t bytes);

// The communication calls of one operation class and size class at both levels. Send and recv
// are one class, "send/recv". A call's time is from its issue to its completion (an
// asynchronous call's flight; a blocking call's wait), summed over the ranks that made it.
struct CallClass {
  std::string op;
  std::string size;  // size_class()
  int size_order = 0;
  uint64_t packet_calls = 0;
  uint64_t flow_calls = 0;
  double packet_total_ns = 0;
  double flow_total_ns = 0;
};

// Every call class that either run made, by operation then size.
std::vector<CallClass> call_classes(const RunRecord& packet, const RunRecord& flow);

// One whole run at each level, and the wall time each took.
struct LevelRuns {
  std::string scenario;  // its name
  RunRecord packet;
  RunRecord flow;
  double packet_wall_s = 0;
  double flow_wall_s = 0;
};

// Runs the scenario at the packet level and then the flow level; throws ScenarioError (before
// running anything) when the flow level cannot carry its network, std::runtime_error when a
// run fails. `progress` is told of each level as it starts.
LevelRuns run_both_levels(const Scenario& scenario,
                          const std::function<void(const std::string& level)>& progress = {});

// The calls table, then TTFT, TPOT (or, serving, mean TTFT and request latency), the
// simulated time and the wall time of each level with their ratio.
std::string level_runs_table(const LevelRuns& runs);

// One size of a sweep at both levels.
struct SweepPair {
  uint64_t bytes = 0;
  std::string algorithm;
  double packet_s = 0;  // simulated time of one iteration (colltest's time)
  double flow_s = 0;
  double packet_wall_s = 0;  // wall time of the size (its warm-up and timed iterations)
  double flow_wall_s = 0;
};

struct LevelSweeps {
  std::string scenario;
  std::string op;
  int ranks = 0;
  std::vector<SweepPair> sizes;
  double packet_wall_s = 0;  // the whole sweep, network set-up included
  double flow_wall_s = 0;
};

// colltest's sweep (run_colltest) of `options` on the scenario's network at both levels.
LevelSweeps sweep_both_levels(const Scenario& scenario, const ColltestOptions& options,
                              const std::function<void(const std::string& level, uint64_t bytes)>&
                                  progress = {});

std::string level_sweeps_table(const LevelSweeps& sweeps);

// (flow - packet) / packet in percent; NaN when packet is 0.
double level_error_percent(double packet, double flow);

}  // namespace uniference
