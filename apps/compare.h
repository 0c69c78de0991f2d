// uniference compare: measured collective times against the simulator's, case by case, with
// the accuracy figures validation reports (per-case error, MAPE, R²), as a table and as a
// markdown report with plots. The measured side is any CSV with op, ranks, bytes and a time
// in seconds (colltest's own CSV, a testbed's, nccl-tests' converted), so users bring data
// from their own clusters.
#pragma once

#include "apps/colltest.h"

#include <string>
#include <vector>

namespace uniference {

// One measured case: `op` on `ranks` ranks with nccl-tests' size S, taking `seconds`.
struct Measurement {
  std::string op;
  int ranks = 0;
  uint64_t bytes = 0;
  double seconds = 0;
  // The optional algorithm column: where it names a collective preset (as uniference-deploy's
  // colltest and validation/testbed/gloo_sweep.py write it), the preset that simulates what ran.
  std::string algorithm;
};

// The fields of one CSV line (or of a list with another separator), trimmed of spaces and a
// trailing carriage return.
std::vector<std::string> split_csv_line(const std::string& line, char separator = ',');

// Reads a CSV whose header names the columns op, ranks, bytes and seconds (or time_s, as
// colltest writes it), and optionally algorithm; other columns are ignored. Throws std::invalid_argument naming the
// file, line and column of the first problem.
std::vector<Measurement> read_measurements(const std::string& path);

// Mean absolute percentage error of `predicted` against `measured`, in percent.
double mape(const std::vector<double>& predicted, const std::vector<double>& measured);
// Coefficient of determination of `predicted` as a model of `measured`:
// 1 - sum (m - p)² / sum (m - mean m)².
double r_squared(const std::vector<double>& predicted, const std::vector<double>& measured);

struct ComparedCase {
  Measurement measured;
  double predicted_seconds = 0;
  std::string algorithm;  // what the simulator ran
  double error_percent() const {
    return 100.0 * (predicted_seconds - measured.seconds) / measured.seconds;
  }
};

// Simulates every measured case on the scenario's network (the measured sizes exactly;
// the preset or algorithms in `options`, warm-up and iterations too), in the file's order.
// Where `options` names neither a preset nor an algorithm, a case whose algorithm column names
// a collective preset runs that preset, and its algorithm reads "PRESET/ALGORITHM".
std::vector<ComparedCase> compare_measurements(const CheckedScenario& scenario,
                                               const std::vector<Measurement>& measured,
                                               const ColltestOptions& options,
                                               const std::function<void(const std::string&)>& progress = {});

// Every measured case against the same case (op, ranks, bytes) of another measurement, taken
// as the prediction: how well one sweep of a testbed predicts another, the floor under any
// simulator's error there. Throws std::invalid_argument naming a case `other` lacks or holds
// twice.
std::vector<ComparedCase> compare_with_measurements(const std::vector<Measurement>& measured,
                                                    const std::vector<Measurement>& other,
                                                    const std::string& other_name);

// The per-case table and the accuracy lines: all cases, and those of at least `large_bytes`;
// the predicted column headed `predicted_label`.
std::string comparison_table(const std::vector<ComparedCase>& cases, uint64_t large_bytes,
                             const std::string& predicted_label = "simulated");

// Writes report.md and its plots (predicted against measured with y = x, error against
// size; through gnuplot) into `dir`. Throws when the folder or gnuplot fails.
void write_comparison_report(const std::vector<ComparedCase>& cases, uint64_t large_bytes,
                             const std::string& title, const std::string& dir,
                             const std::string& predicted_label = "simulated");

}  // namespace uniference
