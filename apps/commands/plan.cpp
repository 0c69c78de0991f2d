// uniference plan: the best layout for a model on a network, found by simulation
// (apps/plan.h), reported as a table, a plot and the command that deploys it.
#include "apps/command_line.h"
#include "apps/commands/command.h"
#include "apps/commands/command_support.h"
#include "apps/plan.h"
#include "apps/plan_report.h"
#include "apps/units.h"

#include <filesystem>
#include <iostream>
#include <stdexcept>

namespace uniference {

namespace {

// "600", "600s", "10min": seconds.
double budget_seconds(const std::string& text) {
  if (text.size() > 3 && text.compare(text.size() - 3, 3, "min") == 0) {
    const std::optional<double> minutes = parse_number(text.substr(0, text.size() - 3));
    if (minutes && *minutes > 0) return *minutes * 60;
  }
  if (const std::optional<double> seconds = parse_number(text); seconds && *seconds > 0) return *seconds;
  int64_t ns = 0;
  if (parse_duration(text, &ns) && ns > 0) return double(ns) / 1e9;
  throw std::invalid_argument("--budget takes a positive time (\"600s\", \"10min\"), not '" + text + "'");
}

int plan_main(const std::vector<std::string>& args, const char* argv0) {
  std::string spec_path;
  PlanOptions options;
  try {
    for_each_argument(args, 0, [&](const std::string& a, const auto& value) {
      if (a == "-j" || a == "--jobs") options.jobs = int_argument(a, value(), 1);
      else if (a.rfind("-j", 0) == 0 && a.size() > 2 && a[2] != '-') options.jobs = int_argument("-j", a.substr(2), 1);
      else if (a == "--budget") options.budget_s = budget_seconds(value());
      else if (a == "--out") options.out = value();
      else if (a == "--quiet") options.quiet = true;
      else if (a == "--dry-run") options.dry_run = true;
      else if (!a.empty() && a[0] == '-') throw std::invalid_argument("unknown option '" + a + "'");
      else if (spec_path.empty()) spec_path = a;
      else throw std::invalid_argument("more than one plan spec given");
    });
    if (spec_path.empty()) throw std::invalid_argument("plan needs a spec file");
  } catch (const std::invalid_argument& e) {
    return usage_error(std::string("plan: ") + e.what());
  }
  return reporting_errors([&] {
    const PlanSpec spec = load_plan_spec(spec_path);
    std::error_code error;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
    options.binary = error ? std::string(argv0) : self.string();
    const PlanResult result = run_plan(spec, options);
    std::cout << plan_table(spec, result);
    if (options.dry_run) return 0;
    std::cout << "\n" << plan_explanation(spec, result);
    if (!options.quiet) std::cerr << "uniference: wrote " << result.folder << "/plan.csv, plan.html, plan.png\n";
    return result.winner >= 0 ? 0 : 1;
  });
}

}  // namespace

Command plan_command() {
  return {"plan",
          {"SPEC.json [-j N] [--budget TIME] [--out DIR] [--dry-run] [--quiet]"},
          {{"plan SPEC.json",
            "find the best way to split a model over a network: every strategy,\n"
            "degree, stage split, collective preset and placement the spec allows,\n"
            "pruned by the devices' memory, ranked at the flow level with shape-only\n"
            "compute, the best few (\"check\") and the default tensor-parallel plan\n"
            "simulated as the scenario runs them; prints the table, why the winner\n"
            "wins and the command that deploys it, and writes plan.csv, plan.png,\n"
            "plan.html and winner.json (default folder out/plans/<spec's stem>).\n"
            "-j N runs N simulations at a time; a stopped plan resumes; --budget\n"
            "TIME (\"600s\", \"10min\") bounds it, keeping a quarter for the check;\n"
            "--dry-run lists the candidates and what prunes them, simulating none.\n"
            "SPEC: {\"scenario\": \"base.json\", \"devices\": {\"count\": 4},\n"
            "\"objective\": \"tpot\"} (docs/planner.md)"}},
          plan_main, kQuietOption};
}

}  // namespace uniference
