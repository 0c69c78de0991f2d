// uniference run: check a scenario, simulate it, report what ran.
#include "apps/command_line.h"
#include "apps/commands/command.h"
#include "apps/commands/command_support.h"
#include "apps/progress_line.h"
#include "apps/report.h"
#include "apps/run_scenario.h"
#include "apps/scenario.h"
#include "bridge/distributed.h"
#include "bridge/interrupts.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <filesystem>
#include <iostream>
#include <stdexcept>

namespace uniference {

namespace {

// `uniference run --processes K ...`: this binary under mpirun, K processes (as root, which
// Open MPI refuses unless told; more processes than cores, oversubscribed).
int run_under_mpirun(const std::vector<std::string>& args, const std::string& processes) {
  char self[4096];
  const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length <= 0) {
    std::cerr << "uniference: --processes: cannot find this binary: " << std::strerror(errno) << "\n";
    return 1;
  }
  self[length] = '\0';
  std::vector<std::string> command = {"mpirun"};
  if (geteuid() == 0) command.push_back("--allow-run-as-root");
  command.insert(command.end(), {"--oversubscribe", "-np", processes, self, "run"});
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--processes") ++i;  // and its value
    else command.push_back(args[i]);
  }
  std::vector<char*> argv;
  for (std::string& word : command) argv.push_back(word.data());
  argv.push_back(nullptr);
  execvp("mpirun", argv.data());
  std::cerr << "uniference: --processes " << processes
            << " needs mpirun (Open MPI: apt-get install openmpi-bin): " << std::strerror(errno) << "\n";
  return 1;
}

int run(const std::vector<std::string>& args, const char*) {
  std::string scenario_path, out_dir, processes;
  std::vector<std::string> overrides;
  bool quiet = false;
  try {
    for_each_argument(args, 0, [&](const std::string& a, const auto& value) {
      if (a == "--out") out_dir = value();
      else if (a == "--set") overrides.push_back(value());
      else if (a == "--processes") processes = value();
      else if (a == "--quiet") quiet = true;
      else if (!a.empty() && a[0] == '-') throw std::invalid_argument("unknown option '" + a + "'");
      else if (scenario_path.empty()) scenario_path = a;
      else throw std::invalid_argument("more than one scenario given");
    });
    if (scenario_path.empty()) throw std::invalid_argument("run needs a scenario file");
    if (!processes.empty() && (processes.find_first_not_of("0123456789") != std::string::npos ||
                               std::stoul(processes) == 0)) {
      throw std::invalid_argument("--processes takes a count of processes, not '" + processes + "'");
    }
  } catch (const std::invalid_argument& e) {
    return usage_error(e.what());
  }
  if (!processes.empty() && processes != "1") {
    if (!distributed::available()) {
      std::cerr << "uniference: --processes " << processes << ": " << distributed::why_unavailable() << "\n";
      return 2;
    }
    return run_under_mpirun(args, processes);
  }
  // One of mpirun's processes: the others run the rest of the network (bridge/distributed.h).
  const bool across = distributed::launched_with_peers();
  struct Finish {
    ~Finish() { distributed::finish(); }
  } finish_mpi;

  // Ctrl-C or SIGTERM ends the run where it is and writes what it has (bridge/interrupts.h).
  watch_interrupts();
  return reporting_errors([&] {
    const Scenario scenario = load_scenario(scenario_path, overrides);
    if (out_dir.empty()) out_dir = (std::filesystem::path("out") / scenario.name).string();
    // MPI once the scenario is read, before ns-3's simulator is: it must be the distributed one.
    if (across) distributed::enable(nullptr, nullptr);
    // Status lines, like the progress line, are for a person at a terminal.
    const bool chatty = ProgressLine(quiet).enabled() && distributed::process() == 0;
    if (chatty) {
      std::cerr << "uniference: running " << scenario.name;
      if (across) std::cerr << " across " << distributed::processes() << " processes";
      std::cerr << "\n";
    }
    ScenarioRun run = run_scenario(scenario, !quiet, out_dir);
    if (run.elsewhere) return run.outcome.exit_code();
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
          {"SCENARIO.json [--out DIR] [--set POINTER=VALUE]... [--quiet] [--processes K]"},
          {{"run SCENARIO.json",
            "check the scenario, run it, print a summary table, and write\n"
            "results.json and trace.json (Chrome/Perfetto) into the output folder"},
           {"run SCENARIO.json --processes 4",
            "the same run cut across 4 processes on ns-3's distributed engine (mpirun -np 4\n"
            "uniference run ... does the same; needs ns-3 with MPI and shape-only compute)"}},
          run};
}

}  // namespace uniference
