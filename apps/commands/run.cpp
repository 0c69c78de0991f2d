// uniference run: check a scenario, simulate it, report what ran.
#include "apps/command_line.h"
#include "apps/commands/command.h"
#include "apps/commands/command_support.h"
#include "apps/progress_line.h"
#include "apps/report.h"
#include "apps/run_scenario.h"
#include "apps/scenario.h"
#include "bridge/interrupts.h"

#include <filesystem>
#include <iostream>
#include <stdexcept>

namespace uniference {

namespace {

int run(const std::vector<std::string>& args, const char*) {
  std::string scenario_path, out_dir;
  std::vector<std::string> overrides;
  bool quiet = false;
  try {
    for_each_argument(args, 0, [&](const std::string& a, const auto& value) {
      if (a == "--out") out_dir = value();
      else if (a == "--set") overrides.push_back(value());
      else if (a == "--quiet") quiet = true;
      else if (!a.empty() && a[0] == '-') throw std::invalid_argument("unknown option '" + a + "'");
      else if (scenario_path.empty()) scenario_path = a;
      else throw std::invalid_argument("more than one scenario given");
    });
    if (scenario_path.empty()) throw std::invalid_argument("run needs a scenario file");
  } catch (const std::invalid_argument& e) {
    return usage_error(e.what());
  }

  // Ctrl-C or SIGTERM ends the run where it is and writes what it has (bridge/interrupts.h).
  watch_interrupts();
  return reporting_errors([&] {
    const Scenario scenario = load_scenario(scenario_path, overrides);
    if (out_dir.empty()) out_dir = (std::filesystem::path("out") / scenario.name).string();
    // Status lines, like the progress line, are for a person at a terminal.
    const bool chatty = ProgressLine(quiet).enabled();
    if (chatty) std::cerr << "uniference: running " << scenario.name << "\n";
    ScenarioRun run = run_scenario(scenario, !quiet, out_dir);
    const bool interrupted = run.outcome.status == RunOutcome::Status::kInterrupted;
    const bool faulted = run.outcome.status == RunOutcome::Status::kFaulted;
    if (run.outcome.status != RunOutcome::Status::kCompleted && !interrupted && !faulted) {
      std::cerr << "uniference: " << run.outcome.report << "\n";
      return run.outcome.exit_code();
    }
    // A run stopped by a signal or by a fault it could not finish after reports what it had
    // done by then, marked so: the trace shows the fault and what it left waiting.
    if (interrupted || faulted) run.record.partial = run.outcome.report;
    // The reports say what ran: the network the run was built from, defaults resolved.
    std::cout << summary_table(scenario, run.network, run.record);
    write_outputs(scenario, run.network, run.record, out_dir);
    if (interrupted) {
      std::cerr << "uniference: " << run.outcome.report << "; wrote what it had done by then to " << out_dir
                << " (results.json's \"partial\" says so)\n";
      return run.outcome.exit_code();
    }
    if (faulted) {
      std::cerr << "uniference: the run cannot finish after a fault, " << run.outcome.report
                << "uniference: wrote what it had done by then to " << out_dir
                << " (results.json's \"partial\" says so)\n";
      return run.outcome.exit_code();
    }
    if (chatty) std::cerr << "uniference: wrote " << out_dir << "\n";
    return 0;
  });
}

}  // namespace

Command run_command() {
  return {"run",
          {"SCENARIO.json [--out DIR] [--set POINTER=VALUE]... [--quiet]"},
          {{"run SCENARIO.json",
            "check the scenario, run it, print a summary table, and write\n"
            "results.json and trace.json (Chrome/Perfetto) into the output folder"}},
          run};
}

}  // namespace uniference
