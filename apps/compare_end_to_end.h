// uniference compare, end to end: measured latencies of whole runs (time to first token, time
// per output token, the run's total, or one request's) against the simulation of the same
// scenario. The measured side is a CSV naming, per row, the scenario and its overrides, so a
// deployment of any strategy (`uniference launch`, or a user's own serving system) is compared
// case by case, with the same accuracy figures as the collectives.
#pragma once

#include "apps/compare.h"
#include "bridge/run_record.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace uniference {

// One measured figure of a run of `scenario` with `overrides` (--set assignments).
struct EndToEndMeasurement {
  std::string scenario;                // a path, resolved against the CSV's folder
  std::vector<std::string> overrides;  // "/pointer=value", as --set takes them
  std::string metric;                  // one of end_to_end_metrics()
  std::optional<int64_t> request;      // a request's id; none: the run's figure
  double seconds = 0;
};

// ttft, tpot and total of a run (its first prompt's first token, the mean time per later
// token, the whole run); ttft, tpot and e2e (arrival to last token) of one request.
const std::vector<std::string>& end_to_end_metrics();

// Whether a CSV's header has the columns of an end-to-end file (scenario and metric) rather
// than a collective one.
bool is_end_to_end_csv(const std::string& path);

// Reads a CSV whose header names the columns scenario, metric and seconds, and optionally set
// (overrides separated by ';') and request. Throws std::invalid_argument naming the file, line
// and column of the first problem.
std::vector<EndToEndMeasurement> read_end_to_end(const std::string& path);

// The simulated figure a measurement names in a run's record; throws std::invalid_argument
// when the run has no such figure (a request it did not serve, tpot of one token).
double end_to_end_figure(const RunRecord& record, const EndToEndMeasurement& m);

// Simulates each distinct (scenario, overrides) `repeats` times, through `simulate`, and pairs
// every measurement with the median of its figure over those runs (the mean of the middle two
// for an even count), as validation/testbed/run-e2e.sh takes the median of its deployments: a
// scenario whose compute is `measured` simulates differently every time. Cases carry the
// scenario's name and overrides as their op. Throws std::invalid_argument for repeats < 1.
std::vector<ComparedCase> compare_end_to_end(
    const std::vector<EndToEndMeasurement>& measured,
    const std::function<RunRecord(const std::string& scenario, const std::vector<std::string>& overrides)>&
        simulate,
    const std::function<void(const std::string&)>& progress = {}, int repeats = 1);

// Every measured figure against the same figure (scenario, overrides, metric, request) of
// another measurement, in the simulator's place: two deployments of the same cases, or the
// simulations run-e2e.sh SIMULATE=1 ran beside each deployment. Ranks are not known (0).
// Throws std::invalid_argument naming `other_name` for a case it lacks or has twice.
std::vector<ComparedCase> compare_end_to_end_against(const std::vector<EndToEndMeasurement>& measured,
                                                     const std::vector<EndToEndMeasurement>& other,
                                                     const std::string& other_name);

}  // namespace uniference
