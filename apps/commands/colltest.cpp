// uniference colltest: an nccl-tests-style sweep of one collective, simulated or real.
#include "apps/command_line.h"
#include "apps/commands/command.h"
#include "apps/commands/command_support.h"
#include "apps/progress_line.h"
#include "apps/colltest.h"
#include "apps/colltest_sweep.h"
#include "apps/fresh_process.h"
#include "apps/launch.h"
#include "apps/scenario.h"
#include "apps/scenario_check.h"
#include "apps/atomic_file.h"
#include "apps/units.h"

#include <filesystem>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace uniference {

namespace {

// The help's --op line: the operations colltest_sweep.h accepts, the default marked, wrapped
// as the rest of the help. Generated, so that it never lags behind the sweep.
std::string colltest_op_help() {
  constexpr size_t kWidth = 68;
  const std::string default_op = ColltestOptions().op;
  std::string text = "--op:", line_start_pad = "  ";
  size_t line_length = text.size();
  const std::vector<std::string>& ops = colltest_ops();
  for (size_t i = 0; i < ops.size(); ++i) {
    const std::string word = ops[i] + (ops[i] == default_op ? " (default)" : "") +
                             (i + 1 < ops.size() ? "," : "");
    if (line_length + 1 + word.size() > kWidth) {
      text += "\n" + line_start_pad + word;
      line_length = line_start_pad.size() + word.size();
    } else {
      text += " " + word;
      line_length += 1 + word.size();
    }
  }
  return text;
}

// colltest --backend: the same sweep on `ranks` real processes, launched here (or one per
// network namespace of `launch`).
int real_colltest(const ColltestOptions& options, const std::string& exchanges, int ranks,
                  LaunchOptions launch, const std::string& csv,
                  const std::string& plot, const char* argv0) {
  if (!launch.netns.empty()) ranks = int(launch.netns.size());
  check_colltest(options, ranks);
  launch.ranks = ranks;
  check_launch(launch);
  launch.deploy_binary = deploy_binary_beside(argv0);
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
  if (!exchanges.empty()) launch.deploy_args.insert(launch.deploy_args.end(), {"--exchanges", exchanges});
  if (!csv.empty()) launch.deploy_args.insert(launch.deploy_args.end(), {"--csv", absolute(csv)});
  if (!plot.empty()) launch.deploy_args.insert(launch.deploy_args.end(), {"--plot", absolute(plot)});
  return uniference::launch(launch);
}

int colltest_main(const std::vector<std::string>& args, const char* argv0) {
  ColltestOptions options;
  LaunchOptions launch;  // with --backend: where the ranks run
  std::string scenario_path, csv, plot, exchanges, out_dir = ".";
  std::vector<std::string> overrides;
  bool quiet = false;
  try {
    for_each_argument(args, 0, [&](const std::string& a, const auto& value) {
      if (a == "--op") options.op = value();
      else if (a == "--algorithm") options.algorithm = value();
      else if (a == "--attribute") {
        const std::string& v = value();
        const size_t eq = v.find('=');
        if (eq == std::string::npos) throw std::invalid_argument("--attribute needs NAME=VALUE");
        options.attributes.emplace_back(v.substr(0, eq), v.substr(eq + 1));
      } else if (a == "--preset") options.preset = value();
      else if (a == "--backend") options.backend = value();
      else if (a == "--exchanges") exchanges = value();
      else if (a == "--netns") launch.netns = comma_list(value());
      else if (a == "--master-addr") launch.master_addr = value();
      else if (a == "--master-port") launch.master_port = std::stoi(value());
      else if (a == "--ranks") options.ranks = std::stoi(value());
      else if (a == "--min-bytes") options.min_bytes = parse_byte_count(value());
      else if (a == "--max-bytes") options.max_bytes = parse_byte_count(value());
      else if (a == "--step-factor") options.step_factor = std::stod(value());
      else if (a == "--warmup") options.warmup = std::stoi(value());
      else if (a == "--iters") options.iters = std::stoi(value());
      else if (a == "--csv") csv = value();
      else if (a == "--plot") plot = value();
      else if (a == "--out") out_dir = value();
      else if (a == "--set") overrides.push_back(value());
      else if (a == "--quiet") quiet = true;
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
    if (options.backend.empty() && (!launch.netns.empty() || !launch.master_addr.empty() || !exchanges.empty())) {
      throw std::invalid_argument("--netns, --master-addr and --exchanges are for real ranks: they need --backend");
    }
  } catch (const std::exception& e) {
    return usage_error(std::string("colltest: ") + e.what());
  }
  if (!options.backend.empty()) {
    return reporting_errors([&] {
      const CheckedScenario checked =
          check_scenario(load_scenario(scenario_path, overrides));
      try {
        return real_colltest(options, exchanges, options.ranks > 0 ? options.ranks : checked.ranks,
                             launch, csv, plot, argv0);
      } catch (const std::invalid_argument& e) {
        std::cerr << "uniference: colltest: " << e.what() << "\n";
        return kExitUsage;
      }
    });
  }
  return reporting_errors([&] {
    const Scenario scenario = load_scenario(scenario_path, overrides);
    const CheckedScenario checked = check_scenario(scenario);
    std::vector<ColltestRow> rows;
    ProgressLine line(quiet);
    try {
      // /outputs/pcap and /outputs/flow_monitor capture the whole sweep, into --out.
      rows = run_colltest(
          checked, options,
          [&](uint64_t bytes) { line.show("colltest: " + std::to_string(bytes) + " bytes", true); },
          scenario.outputs, out_dir, scenario.name);
    } catch (const std::invalid_argument& e) {
      std::cerr << "uniference: colltest: " << e.what() << "\n";
      return kExitUsage;
    }
    line.clear();
    std::cout << colltest_table(rows);
    if (!csv.empty()) write_file_atomically(csv, colltest_csv(rows));
    if (!plot.empty()) plot_colltest(rows, plot, "simulated");
    return 0;
  });
}

}  // namespace

Command colltest_command() {
  const std::string about =
      "an nccl-tests-style sweep of one operation on the scenario's network\n"
      "(data-free: the bytes move, no tensors are allocated); prints size,\n"
      "count, type, algorithm, time, algbw and busbw per size\n" +
      colltest_op_help() +
      "\n"
      "--algorithm, --attribute: the algorithm (and its ns-3 Attributes) to\n"
      "  run instead of the scenario's; --preset NAME (gloo,\n"
      "  gloo-receive-first, nccl, auto): the preset\n"
      "  that chooses for every size instead of the scenario's /collectives\n"
      "--ranks (default: the scenario's), --min-bytes and --max-bytes (64K,\n"
      "  1M, 2G or bytes; default 1K and 1M), --step-factor (default 2),\n"
      "  --warmup (default 1), --iters (default 3)\n"
      "--backend gloo|nccl: the same sweep for real, --ranks processes on\n"
      "  this host (CPU float32 tensors), not the scenario's network; or one\n"
      "  in each of --netns NS1,NS2,... (with --master-addr, as launch);\n"
      "  --exchanges stock|receive-first as launch; the algorithm column names\n"
      "  the preset that simulates what ran (gloo, gloo-receive-first, nccl)\n"
      "--csv FILE: op,ranks,bytes,algorithm,time_s,algbw_GBps,busbw_GBps\n"
      "--plot FILE.png: bus bandwidth against size, through gnuplot\n"
      "--out DIR: where the pcap files and flowmon.xml go that the\n"
      "  scenario's /outputs/pcap and /outputs/flow_monitor ask for, one set\n"
      "  for the whole sweep (default: the current folder)";
  return {"colltest",
          {"SCENARIO.json [--op OP] [--algorithm NAME] [--attribute NAME=VALUE]...\n"
           "[--preset NAME] [--ranks N] [--min-bytes B] [--max-bytes B]\n"
           "[--step-factor F] [--warmup N] [--iters N] [--csv FILE] [--plot FILE.png]\n"
           "[--out DIR]\n"
           "[--backend gloo|nccl [--exchanges stock|receive-first]\n"
           " [--netns NS1,... --master-addr HOST]]\n"
           "[--set POINTER=VALUE]..."},
          {{"colltest SCENARIO.json", about}},
          colltest_main, kSetKey | kQuietOption};
}

}  // namespace uniference
