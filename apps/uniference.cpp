// uniference: the command-line front end.
//
//   uniference run SCENARIO.json [--out DIR] [--set POINTER=VALUE]... [--quiet]
//   uniference validate SCENARIO.json [--set POINTER=VALUE]...
//   uniference reference --check|--write SOURCE_ROOT
//   uniference colltest SCENARIO.json [--op OP] [--algorithm A] [--preset P] [--ranks N] ...
//
// Exit codes: 0 success, 1 runtime error, 2 bad scenario or usage, 3 deadlock.
#include "apps/atomic_file.h"
#include "apps/colltest.h"
#include "apps/command_line.h"
#include "apps/compare.h"
#include "apps/compare_end_to_end.h"
#include "apps/fresh_process.h"
#include "apps/launch.h"
#include "apps/reference.h"
#include "apps/report.h"
#include "apps/run_scenario.h"
#include "apps/scenario.h"
#include "apps/scenario_check.h"
#include "compute/device_measure.h"
#include "compute/model_config.h"
#include "compute/replay_profile.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr int kExitUsage = 2;

const char* kUsage = R"(usage: uniference run SCENARIO.json [--out DIR] [--set POINTER=VALUE]... [--quiet]
       uniference validate SCENARIO.json [--set POINTER=VALUE]...
       uniference reference --check|--write SOURCE_ROOT
       uniference colltest SCENARIO.json [--op OP] [--algorithm NAME] [--attribute NAME=VALUE]...
                           [--preset NAME] [--ranks N] [--min-bytes B] [--max-bytes B]
                           [--step-factor F] [--warmup N] [--iters N] [--csv FILE] [--plot FILE.png]
                           [--out DIR]
                           [--backend gloo|nccl [--netns NS1,... --master-addr HOST]]
                           [--set POINTER=VALUE]...
       uniference compare MEASURED.csv --scenario SCENARIO.json [--preset NAME] [--algorithm NAME]
                          [--large-bytes B] [--warmup N] [--iters N] [--report DIR]
                          [--set POINTER=VALUE]...
       uniference compare RUNS.csv [--repeats K] [--report DIR] [--set POINTER=VALUE]...
       uniference compare MEASURED.csv --against OTHER.csv [--large-bytes B] [--report DIR]
       uniference profile-network [--backend gloo|nccl] [--netns NS1,NS2 --master-addr HOST]
                                  [--min-bytes B] [--max-bytes B] [--iters N] [--out FILE.json]
       uniference profile-device [--name NAME] [--description TEXT] [--out FILE.json]
       uniference profile --out FILE.csv [--model M] [--max-prompt N] [--max-batch B] [--repeats R]
       uniference launch (-n N | --netns NS1,NS2,...) SCENARIO.json [--master-addr HOST]
                         [--master-port PORT] [--backend gloo|nccl] [--timeout S]
                         [--rendezvous-timeout S] [--out DIR] [--set POINTER=VALUE]... [--quiet]
       uniference --help

Simulates distributed inference of real libtorch shard code over a packet-level ns-3
network, as described by SCENARIO.json (see docs/scenarios.md for every key).

commands:
  run SCENARIO.json   check the scenario, run it, print a summary table, and write
                      results.json and trace.json (Chrome/Perfetto) into the output folder
  validate SCENARIO.json
                      check the scenario only (every key, every name against its registry,
                      every ns-3 Attribute, and that the model, the parallel degrees and the
                      workload fit together); runs nothing
  reference --check|--write SOURCE_ROOT
                      compare (or regenerate) the generated lists in scenarios/schema.json
                      and docs/scenarios.md with the registries; --check exits 1 on a
                      difference
  colltest SCENARIO.json
                      an nccl-tests-style sweep of one operation on the scenario's network
                      (data-free: the bytes move, no tensors are allocated); prints size,
                      count, type, algorithm, time, algbw and busbw per size
                      --op: all_reduce (default), all_gather, reduce_scatter, broadcast,
                        reduce, all_to_all, gather, scatter, send_recv, barrier
                      --algorithm, --attribute: the algorithm (and its ns-3 Attributes) to
                        run instead of the scenario's; --preset gloo|nccl|auto: the preset
                        that chooses for every size instead of the scenario's /collectives
                      --ranks (default: the scenario's), --min-bytes and --max-bytes (64K,
                        1M, 2G or bytes; default 1K and 1M), --step-factor (default 2),
                        --warmup (default 1), --iters (default 3)
                      --backend gloo|nccl: the same sweep for real, --ranks processes on
                        this host (CPU float32 tensors), not the scenario's network; or one
                        in each of --netns NS1,NS2,... (with --master-addr, as launch)
                      --csv FILE: op,ranks,bytes,algorithm,time_s,algbw_GBps,busbw_GBps
                      --plot FILE.png: bus bandwidth against size, through gnuplot
                      --out DIR: where the pcap files and flowmon.xml go that the
                        scenario's /outputs/pcap and /outputs/flow_monitor ask for, one set
                        for the whole sweep (default: the current folder)
  compare MEASURED.csv --scenario SCENARIO.json
                      measured collective times against the simulator's: every row of the
                      CSV (header naming op, ranks, bytes, and seconds or time_s: colltest's
                      own CSV, or your cluster's) is simulated on the scenario's network at
                      its size; prints per-case error, MAPE and R² (all sizes, and sizes >=
                      --large-bytes, default 1M); --report DIR writes report.md with plots
                      (gnuplot): simulated against measured with y = x, error against size;
                      --preset, --algorithm, --warmup (default 1), --iters (default 2) as
                      colltest
  compare MEASURED.csv --against OTHER.csv
                      one measurement against another of the same cases (a rerun of the
                      sweep): OTHER's time of each case taken as the prediction, with the
                      same table, MAPE, R² and --report; how far a testbed repeats itself,
                      the floor under a simulator's error against it. Two CSVs of whole runs
                      pair rows by scenario, set, metric and request (OTHER may be the
                      simulations run-e2e.sh SIMULATE=1 ran beside each deployment)
  compare RUNS.csv    measured whole runs against simulated ones: every row (header naming
                      scenario, metric, seconds, and optionally set and request) names a
                      scenario file (relative to the CSV), its overrides (set, separated by
                      ';') and a figure: ttft, tpot or total of the run, or ttft, tpot or e2e
                      of one request; each scenario and overrides is simulated --repeats
                      times (default 1), each in a process of its own as each deployment
                      is, and every figure is the median of those runs (for measured
                      compute, which differs run to run); prints per-case error,
                      MAPE and R², --report DIR as above with error by case
  profile-network     a ping-pong between 2 real ranks (on this host, or in --netns NS1,NS2
                      of an emulated testbed) over the backend (default gloo), sizes
                      --min-bytes (default 8) to --max-bytes (default 16M) by 4, the median
                      of --iters (default 5) round trips; fits t = alpha + beta S, prints it
                      with the star links it suggests (--set lines for a scenario) and
                      writes the network profile JSON to --out
  profile-device      measure this machine's CPU as libtorch runs on it (peak FLOP/s of
                      fp32 and bf16 matrix products, copy bandwidth, per-operator launch
                      overhead, physical memory) and print a device profile (devices/*.json
                      format), or write it to --out; a scenario names the file in
                      /devices/profile, or it becomes a preset in devices/
  profile --out FILE.csv
                      time every operator of --model (default tiny) on this device, whole
                      model on one device, prefills of 1, 2, 4 ... --max-prompt (default 64)
                      positions and decode steps of 1, 2, 4 ... --max-batch (default 8)
                      sequences, --repeats (default 3) each; writes the replay table
                      (median per operator and size) that "compute": {"mode": "replay",
                      "table": FILE} charges from
  launch SCENARIO.json
                      deploy for real: start the scenario's ranks as uniference-deploy
                      processes on this host (-n N), or one in each network namespace
                      (--netns, with --master-addr the address of the first), over Gloo
                      (default) or NCCL; their output comes prefixed "[rank r] "; rank 0
                      prints the summary with real times and writes results.json and
                      trace.json (default out/<scenario name>-deploy). A free port is
                      chosen unless --master-port. --timeout S bounds every communication
                      call (default 120) and --rendezvous-timeout S the wait for all ranks
                      to join (default 60); a rank that fails names the lost peer, and
                      launch exits with the first failing rank's code (uniference-deploy
                      --help)

options:
  --out DIR           output folder (default: out/<scenario name>); created if missing;
                      files are replaced atomically, nothing is written for a failed run
  --set POINTER=VALUE override one key of the scenario by JSON pointer before it is
                      checked, e.g. --set /network/link/rate=10Gbps; VALUE is read as
                      JSON when it is JSON (10, true, {...}), else as a string; repeatable
  --quiet             no progress lines on stderr
  -h, --help          this text

exit codes:
  0  the run completed
  1  a runtime error (an exception in shard code, an output that cannot be written)
  2  a bad scenario (the message names the JSON path) or bad command-line usage
  3  deadlock: every unfinished rank is blocked and nothing is in flight (the report
     names each blocked rank, its operation, its peer or group, tag, and since when)

registered names (scenario values):
)";

void print_usage(std::ostream& out) { out << kUsage << uniference::registered_names_help(); }

int usage_error(const std::string& message) {
  std::cerr << "uniference: " << message << "\n\n";
  print_usage(std::cerr);
  return kExitUsage;
}

int reference_command(const std::vector<std::string>& args) {
  if (args.size() != 3 || (args[1] != "--check" && args[1] != "--write")) {
    return usage_error("reference needs --check or --write and the source root");
  }
  const bool write = args[1] == "--write";
  try {
    std::string differ = uniference::update_reference(args[2], write);
    if (differ.empty()) return 0;
    std::cerr << (write ? "uniference: regenerated\n" : "uniference: out of date with the registries "
                                                        "(run uniference reference --write):\n")
              << differ;
    return write ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "uniference: error: " << e.what() << "\n";
    return 1;
  }
}

// Runs a command, reporting a bad scenario (exit 2) or any other error (exit 1) in one line.
int reporting_errors(const std::function<int()>& body) {
  try {
    return body();
  } catch (const uniference::ScenarioError& e) {
    std::cerr << "uniference: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "uniference: error: " << e.what() << "\n";
    return 1;
  }
}

// "a,b,c" -> {"a", "b", "c"}.
std::vector<std::string> comma_list(const std::string& text) {
  std::vector<std::string> items;
  for (size_t start = 0; start <= text.size();) {
    const size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) items.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

// colltest --backend: the same sweep on `ranks` real processes, launched here (or one per
// network namespace of `launch`).
int real_colltest(const uniference::ColltestOptions& options, int ranks,
                  uniference::LaunchOptions launch, const std::string& csv,
                  const std::string& plot, const char* argv0) {
  if (!launch.netns.empty()) ranks = int(launch.netns.size());
  uniference::check_colltest(options, ranks);
  launch.ranks = ranks;
  uniference::check_launch(launch);
  launch.deploy_binary = uniference::deploy_binary_beside(argv0);
  const auto absolute = [](const std::string& path) {
    return std::filesystem::absolute(path).string();
  };
  std::ostringstream step;
  step << options.step_factor;
  launch.deploy_args = {"colltest", "--backend", options.backend, "--op", options.op,
                        "--min-bytes", std::to_string(options.min_bytes),
                        "--max-bytes", std::to_string(options.max_bytes),
                        "--step-factor", step.str(),
                        "--warmup", std::to_string(options.warmup),
                        "--iters", std::to_string(options.iters)};
  if (!csv.empty()) launch.deploy_args.insert(launch.deploy_args.end(), {"--csv", absolute(csv)});
  if (!plot.empty()) launch.deploy_args.insert(launch.deploy_args.end(), {"--plot", absolute(plot)});
  return uniference::launch(launch);
}

int colltest_command(const std::vector<std::string>& args, const char* argv0) {
  uniference::ColltestOptions options;
  uniference::LaunchOptions launch;  // with --backend: where the ranks run
  std::string scenario_path, csv, plot, out_dir = ".";
  std::vector<std::string> overrides;
  try {
    uniference::for_each_argument(args, 1, [&](const std::string& a, const auto& value) {
      if (a == "--op") options.op = value();
      else if (a == "--algorithm") options.algorithm = value();
      else if (a == "--attribute") {
        const std::string& v = value();
        const size_t eq = v.find('=');
        if (eq == std::string::npos) throw std::invalid_argument("--attribute needs NAME=VALUE");
        options.attributes.emplace_back(v.substr(0, eq), v.substr(eq + 1));
      } else if (a == "--preset") options.preset = value();
      else if (a == "--backend") options.backend = value();
      else if (a == "--netns") launch.netns = comma_list(value());
      else if (a == "--master-addr") launch.master_addr = value();
      else if (a == "--master-port") launch.master_port = std::stoi(value());
      else if (a == "--ranks") options.ranks = std::stoi(value());
      else if (a == "--min-bytes") options.min_bytes = uniference::parse_byte_count(value());
      else if (a == "--max-bytes") options.max_bytes = uniference::parse_byte_count(value());
      else if (a == "--step-factor") options.step_factor = std::stod(value());
      else if (a == "--warmup") options.warmup = std::stoi(value());
      else if (a == "--iters") options.iters = std::stoi(value());
      else if (a == "--csv") csv = value();
      else if (a == "--plot") plot = value();
      else if (a == "--out") out_dir = value();
      else if (a == "--set") overrides.push_back(value());
      else if (!a.empty() && a[0] == '-') throw std::invalid_argument("unknown option '" + a + "'");
      else if (scenario_path.empty()) scenario_path = a;
      else throw std::invalid_argument("more than one scenario given");
    });
    if (scenario_path.empty()) throw std::invalid_argument("colltest needs a scenario file");
    if (!options.backend.empty() && out_dir != ".") {
      throw std::invalid_argument("--out holds the simulation's pcap files and flowmon.xml: "
                                  "without --backend");
    }
    if (!options.backend.empty() && (!options.algorithm.empty() || !options.preset.empty())) {
      throw std::invalid_argument("--algorithm and --preset choose for the simulator; with --backend "
                                  "the library chooses");
    }
    if (options.backend.empty() && (!launch.netns.empty() || !launch.master_addr.empty())) {
      throw std::invalid_argument("--netns and --master-addr place real ranks: they need --backend");
    }
  } catch (const std::exception& e) {
    return usage_error(std::string("colltest: ") + e.what());
  }
  if (!options.backend.empty()) {
    return reporting_errors([&] {
      const uniference::CheckedScenario checked =
          uniference::check_scenario(uniference::load_scenario(scenario_path, overrides));
      try {
        return real_colltest(options, options.ranks > 0 ? options.ranks : checked.ranks, launch,
                             csv, plot, argv0);
      } catch (const std::invalid_argument& e) {
        std::cerr << "uniference: colltest: " << e.what() << "\n";
        return kExitUsage;
      }
    });
  }
  return reporting_errors([&] {
    const uniference::Scenario scenario = uniference::load_scenario(scenario_path, overrides);
    const uniference::CheckedScenario checked = uniference::check_scenario(scenario);
    std::vector<uniference::ColltestRow> rows;
    try {
      // /outputs/pcap and /outputs/flow_monitor capture the whole sweep, into --out.
      rows = uniference::run_colltest(
          checked, options,
          [](uint64_t bytes) { std::cerr << "uniference colltest: " << bytes << " bytes\n"; },
          scenario.outputs, out_dir, scenario.name);
    } catch (const std::invalid_argument& e) {
      std::cerr << "uniference: colltest: " << e.what() << "\n";
      return kExitUsage;
    }
    std::cout << uniference::colltest_table(rows);
    if (!csv.empty()) uniference::write_file_atomically(csv, uniference::colltest_csv(rows));
    if (!plot.empty()) uniference::plot_colltest(rows, plot, "simulated");
    return 0;
  });
}

// compare, for a CSV of whole runs: every distinct scenario and overrides simulated `repeats`
// times, with the command line's --set after the row's own, each run in a process of its own
// as each deployment is (fresh_process.h).
int compare_end_to_end_command(const std::string& measured_path, const std::vector<std::string>& overrides,
                               int repeats, const std::string& report) {
  return reporting_errors([&] {
    std::vector<uniference::EndToEndMeasurement> measured;
    std::vector<uniference::ComparedCase> cases;
    try {
      measured = uniference::read_end_to_end(measured_path);
      const auto simulate = [&](const std::string& scenario, std::vector<std::string> row_overrides) {
        row_overrides.insert(row_overrides.end(), overrides.begin(), overrides.end());
        return uniference::run_in_fresh_process([&] {
          return uniference::run_scenario(uniference::load_scenario(scenario, row_overrides), false).record;
        });
      };
      cases = uniference::compare_end_to_end(
          measured, simulate,
          [](const std::string& what) { std::cerr << "uniference compare: simulating " << what << "\n"; },
          repeats);
    } catch (const std::invalid_argument& e) {
      std::cerr << "uniference: compare: " << e.what() << "\n";
      return kExitUsage;
    }
    std::cout << uniference::comparison_table(cases, 0);
    if (!report.empty()) {
      uniference::write_comparison_report(cases, 0, measured_path + ": whole runs, deployed against simulated",
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
    std::vector<uniference::ComparedCase> cases;
    try {
      const bool runs = uniference::is_end_to_end_csv(measured_path);
      if (runs != uniference::is_end_to_end_csv(against_path)) {
        throw std::invalid_argument(measured_path + " and " + against_path +
                                    " are not both whole runs or both collectives");
      }
      cases = runs ? uniference::compare_end_to_end_against(uniference::read_end_to_end(measured_path),
                                                            uniference::read_end_to_end(against_path), against_path)
                   : uniference::compare_with_measurements(uniference::read_measurements(measured_path),
                                                           uniference::read_measurements(against_path),
                                                           against_path);
    } catch (const std::invalid_argument& e) {
      std::cerr << "uniference: compare: " << e.what() << "\n";
      return kExitUsage;
    }
    std::cout << uniference::comparison_table(cases, large_bytes, "other");
    if (!report.empty()) {
      uniference::write_comparison_report(cases, large_bytes, measured_path + " against " + against_path,
                                          report, "other");
      std::cerr << "uniference: wrote " << report << "/report.md\n";
    }
    return 0;
  });
}

int compare_command(const std::vector<std::string>& args) {
  uniference::ColltestOptions options;
  options.iters = 2;
  std::string measured_path, scenario_path, against_path, report;
  uint64_t large_bytes = 1 << 20;
  int repeats = 0;  // 0: not given
  std::vector<std::string> overrides;
  try {
    uniference::for_each_argument(args, 1, [&](const std::string& a, const auto& value) {
      if (a == "--scenario") scenario_path = value();
      else if (a == "--repeats") {
        repeats = std::stoi(value());
        if (repeats < 1) throw std::invalid_argument("--repeats needs K >= 1");
      }
      else if (a == "--against") against_path = value();
      else if (a == "--preset") options.preset = value();
      else if (a == "--algorithm") options.algorithm = value();
      else if (a == "--large-bytes") large_bytes = uniference::parse_byte_count(value());
      else if (a == "--warmup") options.warmup = std::stoi(value());
      else if (a == "--iters") options.iters = std::stoi(value());
      else if (a == "--report") report = value();
      else if (a == "--set") overrides.push_back(value());
      else if (!a.empty() && a[0] == '-') throw std::invalid_argument("unknown option '" + a + "'");
      else if (measured_path.empty()) measured_path = a;
      else throw std::invalid_argument("more than one measurement file given");
    });
    if (measured_path.empty()) throw std::invalid_argument("compare needs a CSV of measurements");
    if (repeats != 0 && (!against_path.empty() || !uniference::is_end_to_end_csv(measured_path))) {
      throw std::invalid_argument("--repeats is for a CSV of whole runs (collectives take --iters)");
    }
    if (!against_path.empty()) {
      if (!scenario_path.empty()) {
        throw std::invalid_argument("--against compares two measurements; --scenario simulates one");
      }
    } else if (uniference::is_end_to_end_csv(measured_path)) {
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
    return compare_end_to_end_command(measured_path, overrides, std::max(repeats, 1), report);
  }
  return reporting_errors([&] {
    std::vector<uniference::Measurement> measured;
    try {
      measured = uniference::read_measurements(measured_path);
    } catch (const std::invalid_argument& e) {
      std::cerr << "uniference: compare: " << e.what() << "\n";
      return kExitUsage;
    }
    const uniference::CheckedScenario checked =
        uniference::check_scenario(uniference::load_scenario(scenario_path, overrides));
    std::vector<uniference::ComparedCase> cases;
    try {
      cases = uniference::compare_measurements(checked, measured, options, [](const std::string& what) {
        std::cerr << "uniference compare: simulating " << what << "\n";
      });
    } catch (const std::invalid_argument& e) {
      std::cerr << "uniference: compare: " << e.what() << "\n";
      return kExitUsage;
    }
    std::cout << uniference::comparison_table(cases, large_bytes);
    if (!report.empty()) {
      uniference::write_comparison_report(cases, large_bytes,
                                          measured_path + " against " + scenario_path, report);
      std::cerr << "uniference: wrote " << report << "/report.md\n";
    }
    return 0;
  });
}

int profile_network_command(const std::vector<std::string>& args, const char* argv0) {
  uniference::LaunchOptions launch;
  launch.ranks = 2;
  launch.deploy_args = {"netprofile"};
  try {
    uniference::for_each_argument(args, 1, [&](const std::string& a, const auto& value) {
      if (a == "--netns") launch.netns = comma_list(value());
      else if (a == "--master-addr") launch.master_addr = value();
      else if (a == "--master-port") launch.master_port = std::stoi(value());
      else if (a == "--out") {
        launch.deploy_args.insert(launch.deploy_args.end(),
                                  {a, std::filesystem::absolute(value()).string()});
      } else if (a == "--backend" || a == "--min-bytes" || a == "--max-bytes" || a == "--iters") {
        const std::string& v = value();
        launch.deploy_args.insert(launch.deploy_args.end(), {a, v});
      } else {
        throw std::invalid_argument("unknown option '" + a + "'");
      }
    });
    if (!launch.netns.empty()) {
      if (launch.netns.size() != 2) throw std::invalid_argument("--netns needs exactly 2 namespaces");
      launch.ranks = 0;
    }
    uniference::check_launch(launch);
  } catch (const std::exception& e) {
    return usage_error(std::string("profile-network: ") + e.what());
  }
  launch.deploy_binary = uniference::deploy_binary_beside(argv0);
  return reporting_errors([&] { return uniference::launch(launch); });
}

int launch_command(const std::vector<std::string>& args, const char* argv0) {
  uniference::LaunchOptions options;
  double timeout_s = 120;
  try {
    uniference::for_each_argument(args, 1, [&](const std::string& a, const auto& value) {
      if (a == "-n") options.ranks = std::stoi(value());
      else if (a == "--netns") options.netns = comma_list(value());
      else if (a == "--master-addr") options.master_addr = value();
      else if (a == "--master-port") options.master_port = std::stoi(value());
      else if (a == "--timeout") {
        const std::string& v = value();
        timeout_s = std::stod(v);
        options.deploy_args.insert(options.deploy_args.end(), {a, v});
      } else if (a == "--backend" || a == "--rendezvous-timeout" || a == "--out" || a == "--set") {
        const std::string& v = value();
        options.deploy_args.insert(options.deploy_args.end(), {a, v});
      } else if (a == "--quiet") options.deploy_args.push_back(a);
      else if (!a.empty() && a[0] == '-') throw std::invalid_argument("unknown option '" + a + "'");
      else options.deploy_args.push_back(a);
    });
    uniference::check_launch(options);
  } catch (const std::exception& e) {
    return usage_error(std::string("launch: ") + e.what());
  }
  options.rank_timeout = std::chrono::milliseconds(int64_t(timeout_s * 1000));
  options.deploy_binary = uniference::deploy_binary_beside(argv0);
  return reporting_errors([&] { return uniference::launch(options); });
}

int profile_command(const std::vector<std::string>& args) {
  std::string model = "tiny", out;
  uniference::ProfileShapes shapes;
  uint64_t seed = 1;
  try {
    uniference::for_each_argument(args, 1, [&](const std::string& a, const auto& value) {
      if (a == "--model") model = value();
      else if (a == "--out") out = value();
      else if (a == "--max-prompt") shapes.max_prompt = std::stoll(value());
      else if (a == "--max-batch") shapes.max_batch = std::stoll(value());
      else if (a == "--repeats") shapes.repeats = std::stoi(value());
      else if (a == "--seed") seed = std::stoull(value());
      else throw std::invalid_argument("unknown argument '" + a + "'");
    });
    if (out.empty()) throw std::invalid_argument("needs --out FILE.csv");
  } catch (const std::exception& e) {
    return usage_error(std::string("profile: ") + e.what());
  }
  return reporting_errors([&] {
    const uniference::ModelConfig config = uniference::model_preset(model);
    const uniference::ReplayTable table = uniference::profile_model(config, seed, shapes);
    uniference::write_file_atomically(out, table.csv());
    std::cerr << "uniference: wrote " << out << " (" << table.rows() << " timings of model "
              << model << ")\n";
    return 0;
  });
}

int profile_device_command(const std::vector<std::string>& args) {
  std::string out, name = "cpu";
  std::string description = "this machine's CPU, measured by uniference profile-device";
  try {
    uniference::for_each_argument(args, 1, [&](const std::string& a, const auto& value) {
      if (a == "--out") out = value();
      else if (a == "--name") name = value();
      else if (a == "--description") description = value();
      else throw std::invalid_argument("unknown argument '" + a + "'");
    });
  } catch (const std::exception& e) {
    return usage_error(std::string("profile-device: ") + e.what());
  }
  return reporting_errors([&] {
    const std::string text =
        uniference::device_profile_text(uniference::measure_this_device(name, description));
    if (out.empty()) {
      std::cout << text;
    } else {
      uniference::write_file_atomically(out, text);
      std::cerr << "uniference: wrote " << out << "\n";
    }
    return 0;
  });
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usage_error("no command given");
  if (args[0] == "-h" || args[0] == "--help") {
    print_usage(std::cout);
    return 0;
  }
  const std::string command = args[0];
  if (command == "reference") return reference_command(args);
  if (command == "colltest") return colltest_command(args, argv[0]);
  if (command == "launch") return launch_command(args, argv[0]);
  if (command == "compare") return compare_command(args);
  if (command == "profile-network") return profile_network_command(args, argv[0]);
  if (command == "profile-device") return profile_device_command(args);
  if (command == "profile") return profile_command(args);
  if (command != "run" && command != "validate") {
    return usage_error("unknown command '" + command + "'");
  }

  std::string scenario_path, out_dir;
  std::vector<std::string> overrides;
  bool quiet = false;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--out" && command == "run") {
      if (i + 1 >= args.size()) return usage_error("--out needs a folder");
      out_dir = args[++i];
    } else if (args[i] == "--set") {
      if (i + 1 >= args.size()) return usage_error("--set needs POINTER=VALUE");
      overrides.push_back(args[++i]);
    } else if (args[i] == "--quiet" && command == "run") {
      quiet = true;
    } else if (args[i] == "-h" || args[i] == "--help") {
      print_usage(std::cout);
      return 0;
    } else if (!args[i].empty() && args[i][0] == '-') {
      return usage_error("unknown option '" + args[i] + "'");
    } else if (scenario_path.empty()) {
      scenario_path = args[i];
    } else {
      return usage_error("more than one scenario given");
    }
  }
  if (scenario_path.empty()) return usage_error(command + " needs a scenario file");

  return reporting_errors([&] {
    uniference::Scenario scenario = uniference::load_scenario(scenario_path, overrides);
    if (command == "validate") {
      uniference::check_scenario(scenario);
      std::cout << scenario_path << ": valid\n";
      return 0;
    }
    if (out_dir.empty()) out_dir = (std::filesystem::path("out") / scenario.name).string();
    if (!quiet) std::cerr << "uniference: running " << scenario.name << "\n";
    uniference::ScenarioRun run = uniference::run_scenario(scenario, !quiet, out_dir);
    if (run.outcome.status != uniference::RunOutcome::Status::kCompleted) {
      std::cerr << "uniference: " << run.outcome.report << "\n";
      return run.outcome.exit_code();
    }
    // The report names the transport the run used and its packet size, defaults resolved.
    const uniference::NetworkConfig network = uniference::check_scenario(scenario).network;
    scenario.network.transport.kind = network.transport;
    if (network.transport == "rdma") scenario.network.link.ib_mtu = network.rdma.mtu;
    std::cout << uniference::summary_table(scenario, run.record);
    uniference::write_outputs(scenario, run.record, out_dir);
    if (!quiet) std::cerr << "uniference: wrote " << out_dir << "\n";
    return 0;
  });
}
