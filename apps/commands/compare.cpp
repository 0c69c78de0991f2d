// uniference compare: measured times against simulated ones, or against another measurement.
#include "apps/command_line.h"
#include "apps/commands/command.h"
#include "apps/commands/command_support.h"
#include "apps/compare.h"
#include "apps/compare_end_to_end.h"
#include "apps/colltest_sweep.h"
#include "apps/fresh_process.h"
#include "apps/progress_line.h"
#include "apps/run_scenario.h"
#include "apps/scenario.h"
#include "apps/scenario_check.h"
#include "apps/units.h"

#include <algorithm>
#include <iostream>
#include <stdexcept>

namespace uniference {

namespace {

// compare, for a CSV of whole runs: every distinct scenario and overrides simulated `repeats`
// times, with the command line's --set after the row's own, each run in a process of its own
// as each deployment is (fresh_process.h).
int compare_end_to_end_command(const std::string& measured_path, const std::vector<std::string>& overrides,
                               int repeats, const std::string& report, bool quiet) {
  return reporting_errors([&] {
    std::vector<EndToEndMeasurement> measured;
    std::vector<ComparedCase> cases;
    ProgressLine line(quiet);
    try {
      measured = read_end_to_end(measured_path);
      const auto simulate = [&](const std::string& scenario, std::vector<std::string> row_overrides) {
        row_overrides.insert(row_overrides.end(), overrides.begin(), overrides.end());
        return run_in_fresh_process([&] {
          return run_scenario(load_scenario(scenario, row_overrides), false).record;
        });
      };
      cases = compare_end_to_end(
          measured, simulate,
          [&](const std::string& what) { line.show("compare: simulating " + what, true); }, repeats);
    } catch (const std::invalid_argument& e) {
      std::cerr << "uniference: compare: " << e.what() << "\n";
      return kExitUsage;
    }
    line.clear();
    std::cout << comparison_table(cases, 0);
    if (!report.empty()) {
      write_comparison_report(cases, 0, measured_path + ": whole runs, deployed against simulated",
                                          report);
      std::cerr << "uniference: wrote " << report << "/report.md\n";
    }
    return 0;
  });
}

// compare --against: one measurement (of collectives, or of whole runs) as the prediction of
// another.
int compare_measured_command(const std::string& measured_path, const std::string& against_path,
                             uint64_t large_bytes, const std::string& report) {
  return reporting_errors([&] {
    std::vector<ComparedCase> cases;
    try {
      const bool runs = is_end_to_end_csv(measured_path);
      if (runs != is_end_to_end_csv(against_path)) {
        throw std::invalid_argument(measured_path + " and " + against_path +
                                    " are not both whole runs or both collectives");
      }
      cases = runs ? compare_end_to_end_against(read_end_to_end(measured_path),
                                                            read_end_to_end(against_path), against_path)
                   : compare_with_measurements(read_measurements(measured_path),
                                                           read_measurements(against_path),
                                                           against_path);
    } catch (const std::invalid_argument& e) {
      std::cerr << "uniference: compare: " << e.what() << "\n";
      return kExitUsage;
    }
    std::cout << comparison_table(cases, large_bytes, "other");
    if (!report.empty()) {
      write_comparison_report(cases, large_bytes, measured_path + " against " + against_path,
                                          report, "other");
      std::cerr << "uniference: wrote " << report << "/report.md\n";
    }
    return 0;
  });
}

int compare_main(const std::vector<std::string>& args, const char*) {
  ColltestOptions options;
  options.iters = 2;
  std::string measured_path, scenario_path, against_path, report;
  uint64_t large_bytes = 1 << 20;
  int repeats = 0;  // 0: not given
  bool quiet = false;
  std::vector<std::string> overrides;
  try {
    for_each_argument(args, 0, [&](const std::string& a, const auto& value) {
      if (a == "--scenario") scenario_path = value();
      else if (a == "--repeats") {
        repeats = std::stoi(value());
        if (repeats < 1) throw std::invalid_argument("--repeats needs K >= 1");
      }
      else if (a == "--against") against_path = value();
      else if (a == "--preset") options.preset = value();
      else if (a == "--algorithm") options.algorithm = value();
      else if (a == "--large-bytes") large_bytes = parse_byte_count(value());
      else if (a == "--warmup") options.warmup = std::stoi(value());
      else if (a == "--iters") options.iters = std::stoi(value());
      else if (a == "--report") report = value();
      else if (a == "--set") overrides.push_back(value());
      else if (a == "--quiet") quiet = true;
      else if (!a.empty() && a[0] == '-') throw std::invalid_argument("unknown option '" + a + "'");
      else if (measured_path.empty()) measured_path = a;
      else throw std::invalid_argument("more than one measurement file given");
    });
    if (measured_path.empty()) throw std::invalid_argument("compare needs a CSV of measurements");
    if (repeats != 0 && (!against_path.empty() || !is_end_to_end_csv(measured_path))) {
      throw std::invalid_argument("--repeats is for a CSV of whole runs (collectives take --iters)");
    }
    if (!against_path.empty()) {
      if (!scenario_path.empty()) {
        throw std::invalid_argument("--against compares two measurements; --scenario simulates one");
      }
    } else if (is_end_to_end_csv(measured_path)) {
      if (!scenario_path.empty()) {
        throw std::invalid_argument("an end-to-end CSV names its scenarios in its scenario column; "
                                    "--scenario is for collective measurements");
      }
    } else if (scenario_path.empty()) {
      throw std::invalid_argument("compare needs --scenario");
    }
  } catch (const std::exception& e) {
    return usage_error(std::string("compare: ") + e.what());
  }
  if (!against_path.empty()) return compare_measured_command(measured_path, against_path, large_bytes, report);
  if (scenario_path.empty()) {
    return compare_end_to_end_command(measured_path, overrides, std::max(repeats, 1), report, quiet);
  }
  return reporting_errors([&] {
    std::vector<Measurement> measured;
    try {
      measured = read_measurements(measured_path);
    } catch (const std::invalid_argument& e) {
      std::cerr << "uniference: compare: " << e.what() << "\n";
      return kExitUsage;
    }
    const CheckedScenario checked =
        check_scenario(load_scenario(scenario_path, overrides));
    std::vector<ComparedCase> cases;
    try {
      ProgressLine line(quiet);
      cases = compare_measurements(checked, measured, options, [&](const std::string& what) {
        line.show("compare: simulating " + what, true);
      });
    } catch (const std::invalid_argument& e) {
      std::cerr << "uniference: compare: " << e.what() << "\n";
      return kExitUsage;
    }
    std::cout << comparison_table(cases, large_bytes);
    if (!report.empty()) {
      write_comparison_report(cases, large_bytes,
                                          measured_path + " against " + scenario_path, report);
      std::cerr << "uniference: wrote " << report << "/report.md\n";
    }
    return 0;
  });
}

}  // namespace

Command compare_command() {
  return {"compare",
          {"MEASURED.csv --scenario SCENARIO.json [--preset NAME] [--algorithm NAME]\n"
            "[--large-bytes B] [--warmup N] [--iters N] [--report DIR]\n"
            "[--set POINTER=VALUE]...",
           "RUNS.csv [--repeats K] [--report DIR] [--set POINTER=VALUE]...",
           "MEASURED.csv --against OTHER.csv [--large-bytes B] [--report DIR]"},
          {{"compare MEASURED.csv --scenario SCENARIO.json",
            "measured collective times against the simulator's: every row of the\n"
            "CSV (header naming op, ranks, bytes, and seconds or time_s: colltest's\n"
            "own CSV, or your cluster's) is simulated on the scenario's network at\n"
            "its size; prints per-case error, MAPE and R² (all sizes, and sizes >=\n"
            "--large-bytes, default 1M); --report DIR writes report.md with plots\n"
            "(gnuplot): simulated against measured with y = x, error against size;\n"
            "--preset, --algorithm, --warmup (default 1), --iters (default 2) as\n"
            "colltest; without --preset or --algorithm, a row whose algorithm\n"
            "column names a collective preset (a deployment's colltest writes the\n"
            "one that simulates it: gloo-receive-first, gloo, nccl) runs that preset"},
           {"compare MEASURED.csv --against OTHER.csv",
            "one measurement against another of the same cases (a rerun of the\n"
            "sweep): OTHER's time of each case taken as the prediction, with the\n"
            "same table, MAPE, R² and --report; how far a testbed repeats itself,\n"
            "the floor under a simulator's error against it. Two CSVs of whole runs\n"
            "pair rows by scenario, set, metric and request (OTHER may be the\n"
            "simulations run-e2e.sh SIMULATE=1 ran beside each deployment)"},
           {"compare RUNS.csv",
            "measured whole runs against simulated ones: every row (header naming\n"
            "scenario, metric, seconds, and optionally set and request) names a\n"
            "scenario file (relative to the CSV), its overrides (set, separated by\n"
            "';') and a figure: ttft, tpot or total of the run, or ttft, tpot or e2e\n"
            "of one request; each scenario and overrides is simulated --repeats\n"
            "times (default 1), each in a process of its own as each deployment\n"
            "is, and every figure is the median of those runs (for measured\n"
            "compute, which differs run to run); prints per-case error,\n"
            "MAPE and R², --report DIR as above with error by case"}},
          compare_main, kSetKey | kQuietOption};
}

}  // namespace uniference
