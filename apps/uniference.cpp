// uniference: the command-line front end.
//
//   uniference run SCENARIO.json [--out DIR] [--set POINTER=VALUE]... [--quiet]
//   uniference validate SCENARIO.json [--set POINTER=VALUE]...
//   uniference reference --check|--write SOURCE_ROOT
//
// Exit codes: 0 success, 1 runtime error, 2 bad scenario or usage, 3 deadlock.
#include "apps/reference.h"
#include "apps/report.h"
#include "apps/run_scenario.h"
#include "apps/scenario.h"
#include "apps/scenario_check.h"

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace {

constexpr int kExitUsage = 2;

const char* kUsage = R"(usage: uniference run SCENARIO.json [--out DIR] [--set POINTER=VALUE]... [--quiet]
       uniference validate SCENARIO.json [--set POINTER=VALUE]...
       uniference reference --check|--write SOURCE_ROOT
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

  try {
    uniference::Scenario scenario = uniference::load_scenario(scenario_path, overrides);
    if (command == "validate") {
      uniference::check_scenario(scenario);
      std::cout << scenario_path << ": valid\n";
      return 0;
    }
    if (out_dir.empty()) out_dir = (std::filesystem::path("out") / scenario.name).string();
    if (!quiet) std::cerr << "uniference: running " << scenario.name << "\n";
    uniference::ScenarioRun run = uniference::run_scenario(scenario, !quiet);
    if (run.outcome.status != uniference::RunOutcome::Status::kCompleted) {
      std::cerr << "uniference: " << run.outcome.report << "\n";
      return run.outcome.exit_code();
    }
    std::cout << uniference::summary_table(scenario, run.record);
    uniference::write_outputs(scenario, run.record, out_dir);
    if (!quiet) std::cerr << "uniference: wrote " << out_dir << "\n";
    return 0;
  } catch (const uniference::ScenarioError& e) {
    std::cerr << "uniference: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "uniference: error: " << e.what() << "\n";
    return 1;
  }
}
