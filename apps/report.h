// What a run tells its user: a summary table on stdout, results.json for scripts and
// trace.json for Perfetto (docs/design.md section 6). All three are functions of the Scenario,
// the network the run used (NetworkSetup: what ran, not what was written) and the RunRecord
// alone: equal inputs give byte-identical outputs (no wall-clock times, host names or paths
// inside), so two runs can be compared with diff. A deployment ran on a real network, not a
// simulated one: its reports take no NetworkSetup and say nothing of the scenario's network.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "apps/network_setup.h"
#include "apps/scenario.h"
#include "bridge/run_record.h"

namespace uniference {

// Format tag and version of results.json; the version changes when keys are added, change
// meaning or disappear (docs/scenarios.md lists each version's change).
inline constexpr const char* kResultsFormat = "uniference-results";
inline constexpr int kResultsFormatVersion = 6;

// Human-readable summary: total simulated time, TTFT, TPOT, tokens, compute vs
// communication split, and one line per rank (compute, communication wait, bytes sent,
// finish). Ends with a newline.
std::string summary_table(const Scenario& scenario, const NetworkSetup& network, const RunRecord& record);
// A deployment's (record.deployed_on): no simulated network.
std::string summary_table(const Scenario& scenario, const RunRecord& record);

// Machine-readable results. Times are integer nanoseconds ("*_ns"), except tpot_ns, a mean.
// docs/scenarios.md lists the keys.
nlohmann::json results_json(const Scenario& scenario, const NetworkSetup& network, const RunRecord& record);
// A deployment's: `setup` holds no simulated network.
nlohmann::json results_json(const Scenario& scenario, const RunRecord& record);

// The record with only the spans and messages that start before the time at which
// `max_events` of them have started (the whole record when it holds no more); *cut_ns is that
// time, or -1 when nothing was cut.
RunRecord trace_window(const RunRecord& record, uint64_t max_events, int64_t* cut_ns);

// Creates out_dir if needed and writes results.json and trace.json into it, each if the
// scenario's outputs ask for it, each atomically (apps/atomic_file.h). Both are rendered
// before either is written. Throws OutputError naming the path that failed.
void write_outputs(const Scenario& scenario, const NetworkSetup& network, const RunRecord& record,
                   const std::string& out_dir);
// A deployment's.
void write_outputs(const Scenario& scenario, const RunRecord& record, const std::string& out_dir);

// Durations for people: "850 ns", "12.345 µs", "1.500 ms", "2.000 s" (three decimals,
// rounded to the nearest unit / 1000, computed from the integer).
std::string format_duration(int64_t ns);

// Bytes in decimal units, three decimals: "512 B", "1.250 GB".
std::string format_bytes(uint64_t bytes);

}  // namespace uniference
