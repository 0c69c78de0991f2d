// uniference crosscheck: a scenario, or one collective's sweep on its network, at the packet
// level and at the flow level, side by side.
#include "apps/command_line.h"
#include "apps/commands/command.h"
#include "apps/commands/command_support.h"
#include "apps/progress_line.h"
#include "apps/crosscheck.h"
#include "apps/scenario.h"

#include <iostream>
#include <stdexcept>

namespace uniference {

namespace {

int crosscheck_main(const std::vector<std::string>& args, const char*) {
  ColltestOptions options;
  bool sweep = false, quiet = false;
  std::string scenario_path;
  std::vector<std::string> overrides;
  // Which option gave a value, for the message when the value is refused.
  const auto read = [](const std::string& option, const auto& parse) {
    try {
      return parse();
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(option + ": " + e.what());
    } catch (const std::out_of_range&) {
      throw std::invalid_argument(option + ": out of range");
    }
  };
  try {
    bool sweep_option = false;  // an option that only a sweep takes
    for_each_argument(args, 0, [&](const std::string& a, const auto& value) {
      if (a == "--op") {
        options.op = value();
        sweep = true;
      } else if (a == "--min-bytes" || a == "--max-bytes") {
        const std::string text = value();
        (a == "--min-bytes" ? options.min_bytes : options.max_bytes) =
            read(a, [&] { return parse_byte_count(text); });
        sweep_option = true;
      } else if (a == "--ranks" || a == "--iters" || a == "--warmup") {
        const std::string text = value();
        (a == "--ranks" ? options.ranks : a == "--iters" ? options.iters : options.warmup) =
            read(a, [&] { return std::stoi(text); });
        sweep_option = true;
      } else if (a == "--step-factor") {
        const std::string text = value();
        options.step_factor = read(a, [&] { return std::stod(text); });
        sweep_option = true;
      } else if (a == "--set") {
        overrides.push_back(value());
      } else if (a == "--quiet") {
        quiet = true;
      } else if (!a.empty() && a[0] == '-') {
        throw std::invalid_argument("unknown option '" + a + "'");
      } else if (scenario_path.empty()) {
        scenario_path = a;
      } else {
        throw std::invalid_argument("more than one scenario given");
      }
    });
    if (scenario_path.empty()) throw std::invalid_argument("crosscheck needs a scenario file");
    if (sweep_option && !sweep) {
      throw std::invalid_argument("--min-bytes, --max-bytes, --step-factor, --ranks, --iters and "
                                  "--warmup shape a sweep: they need --op");
    }
    if (sweep) {
      // The operation and the range are checked before anything runs; the ranks once the
      // scenario is read.
      check_colltest(options, 2);
    }
  } catch (const std::exception& e) {
    return usage_error(std::string("crosscheck: ") + e.what());
  }

  return reporting_errors([&] {
    const Scenario scenario = load_scenario(scenario_path, overrides);
    if (!sweep) {
      ProgressLine line(quiet);
      const LevelRuns runs = run_both_levels(scenario, [&](const std::string& level) {
        line.show("crosscheck: " + scenario.name + " at the " + level + " level", true);
      });
      line.clear();
      std::cout << level_runs_table(runs);
      return 0;
    }
    LevelSweeps sweeps;
    try {
      ProgressLine line(quiet);
      sweeps = sweep_both_levels(scenario, options, [&](const std::string& level, uint64_t bytes) {
        line.show("crosscheck: " + level + " level, " + std::to_string(bytes) + " bytes", true);
      });
    } catch (const std::invalid_argument& e) {
      std::cerr << "uniference: crosscheck: " << e.what() << "\n";
      return kExitUsage;
    }
    std::cout << level_sweeps_table(sweeps);
    return 0;
  });
}

}  // namespace

Command crosscheck_command() {
  return {"crosscheck",
          {"SCENARIO.json [--set POINTER=VALUE]... [--quiet]",
           "SCENARIO.json --op OP [--ranks N] [--min-bytes B] [--max-bytes B]\n"
           "[--step-factor F] [--warmup N] [--iters N]\n"
           "[--set POINTER=VALUE]... [--quiet]"},
          {{"crosscheck SCENARIO.json",
            "run the scenario at /network/transport/level \"packet\" and then\n"
            "\"flow\", and print, by operation (send and recv as one, send/recv)\n"
            "and size (< 64 KiB, 64 KiB-1 MiB, >= 1 MiB), the calls' mean time\n"
            "from issue to completion at each level and the flow level's error;\n"
            "then TTFT, TPOT (serving: mean TTFT and request latency) and the\n"
            "simulated time with their errors, and each level's wall time with\n"
            "the ratio packet/flow. Writes no files; a network the flow level\n"
            "cannot carry is refused (exit 2) at its JSON pointer before anything\n"
            "runs\n"
            "--op OP: instead, colltest's sweep of OP (the operations colltest\n"
            "  takes) on the scenario's network at both levels: per size, the\n"
            "  time at each level, the error, and the wall time of each level with\n"
            "  the ratio; --ranks, --min-bytes, --max-bytes, --step-factor,\n"
            "  --warmup and --iters as colltest's"}},
          crosscheck_main, kSetKey | kQuietOption};
}

}  // namespace uniference
