// uniference sweep: a grid of scenarios from one base (apps/sweep.h), run here N at a time,
// or written out as a GNU parallel job list and a Slurm array, and collected into sweep.csv.
#include "apps/command_line.h"
#include "apps/commands/command.h"
#include "apps/commands/command_support.h"
#include "apps/sweep.h"

#include <filesystem>
#include <iostream>
#include <stdexcept>

namespace uniference {

namespace {

int sweep(const std::vector<std::string>& args, const char* argv0) {
  std::string spec_path, out_dir;
  int jobs = 1, point = 0;
  bool jobs_file = false, collect = false, quiet = false;
  try {
    for_each_argument(args, 0, [&](const std::string& a, const auto& value) {
      if (a == "-j" || a == "--jobs") jobs = int_argument(a, value(), 1);
      else if (a.rfind("-j", 0) == 0 && a.size() > 2 && a[2] != '-') jobs = int_argument("-j", a.substr(2), 1);
      else if (a == "--point") point = int_argument(a, value(), 1);
      else if (a == "--jobs-file") jobs_file = true;
      else if (a == "--collect") collect = true;
      else if (a == "--out") out_dir = value();
      else if (a == "--quiet") quiet = true;
      else if (!a.empty() && a[0] == '-') throw std::invalid_argument("unknown option '" + a + "'");
      else if (spec_path.empty()) spec_path = a;
      else throw std::invalid_argument("more than one sweep spec given");
    });
    if (spec_path.empty()) throw std::invalid_argument("sweep needs a spec file");
    if (int(jobs_file) + int(collect) + int(point > 0) > 1) {
      throw std::invalid_argument("--point, --jobs-file and --collect are different modes: give one");
    }
  } catch (const std::invalid_argument& e) {
    return usage_error(e.what());
  }

  return reporting_errors([&] {
    SweepSpec spec = load_sweep_spec(spec_path);
    if (!out_dir.empty()) spec.out = out_dir;
    std::error_code error;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
    const std::string binary = error ? std::string(argv0) : self.string();
    const std::vector<SweepPoint> points = sweep_points(spec);
    if (point > 0) {
      if (point > int(points.size())) {
        std::cerr << "uniference: --point " << point << ": the sweep has " << points.size() << " points\n";
        return kExitUsage;
      }
      const int code = run_sweep_point(spec, points[size_t(point) - 1]);
      if (!quiet) std::cerr << "uniference: point " << point << " (" << points[size_t(point) - 1].name << "): exit " << code << "\n";
      return code;
    }
    if (collect) {
      std::cout << write_sweep_csv(spec) << "\n";
      return 0;
    }
    const auto [jobs_path, slurm_path] = write_sweep_jobs(binary, spec);
    if (jobs_file) {
      std::cout << jobs_path << "\n" << slurm_path << "\n";
      return 0;
    }
    SweepRunOptions run;
    run.jobs = jobs;
    run.quiet = quiet;
    run_sweep_points(binary, spec, run);
    const std::string csv = write_sweep_csv(spec);
    int unrecorded = 0;
    for (const SweepPoint& p : points) unrecorded += read_point_outcome(spec, p).recorded ? 0 : 1;
    if (!quiet) std::cerr << "uniference: wrote " << csv << "\n";
    if (unrecorded > 0) {
      std::cerr << "uniference: " << unrecorded << " points ended without a record; run the sweep again to resume\n";
      return 1;
    }
    return 0;
  });
}

}  // namespace

Command sweep_command() {
  return {"sweep",
          {"SPEC.json [-j N] [--out DIR] [--quiet]", "SPEC.json --jobs-file [--out DIR]",
           "SPEC.json --point K [--out DIR] [--quiet]", "SPEC.json --collect [--out DIR]"},
          {{"sweep SPEC.json",
            "run every point of a grid of scenarios not yet recorded, N at a time,\n"
            "and write sweep.csv (a row a point: its values, seed, exit code, TTFT,\n"
            "TPOT, total time, wall time); a stopped sweep resumes where it stopped.\n"
            "SPEC: {\"scenario\": \"base.json\", \"grid\": {\"/parallel/tp\": [1, 2]},\n"
            "\"seeds\": [1, 2], \"out\": \"out/name\"} (docs/sweeps.md)"},
           {"sweep --jobs-file", "write jobs.txt (a point a line, for GNU parallel) and slurm.sh\n"
                                 "(a job array whose task N runs line N); run nothing"},
           {"sweep --point K", "run point K (line K of jobs.txt) and record it; exits with its code"},
           {"sweep --collect", "write sweep.csv from the points recorded so far"}},
          sweep, kQuietOption};
}

}  // namespace uniference
