// A sweep: one base scenario, a grid of values for some of its keys and a list of seeds,
// expanded into points with stable names. Each point is one command line
// (`uniference sweep SPEC --point K`), so the same points run here N at a time, under GNU
// parallel from jobs.txt, or as a Slurm job array; each records its outcome in its own
// folder, and sweep.csv is collected from those records. A point already recorded is not
// run again, so a sweep that was stopped resumes where it stopped.
//
// SPEC.json:
//   {"scenario": "base.json",                          relative to the spec's folder
//    "grid": {"/parallel/tp": [1, 2], "/network/link/rate": ["10Gbps", "100Gbps"]},
//    "seeds": [1, 2],                                  optional: /seed of each point
//    "out": "out/my-sweep"}                            optional; default out/<spec's stem>
// or, instead of "grid", a list of points, each its own assignments (the planner writes these):
//    "points": [{"name": "tp-4", "set": {"/parallel": {"strategy": "tp", "tp": 4}}}, ...]
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <optional>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace uniference {

struct SweepSpec {
  std::string source;    // the spec's path, as given (errors name it)
  std::string scenario;  // the base scenario's path, resolved against the spec's folder
  // Pointer and its values, pointers in alphabetical order (a JSON object's keys carry no
  // order here); every point takes one value of each.
  std::vector<std::pair<std::string, std::vector<nlohmann::json>>> grid;
  // Or listed points (grid empty): each one's name and its assignments, in the spec's order.
  struct Listed {
    std::string name;
    std::vector<std::pair<std::string, nlohmann::json>> values;
  };
  std::vector<Listed> listed;
  std::vector<int64_t> seeds;  // empty: each point keeps the base scenario's seed
  std::string out;             // the sweep's folder; empty: out/<spec's stem>
};

// Reads and checks a spec: ScenarioError at the pointer of any mistake (exit 2). The grid's
// values are not checked here: a point whose scenario they make invalid is recorded with
// exit code 2 and its message.
SweepSpec load_sweep_spec(const std::string& path);

struct SweepPoint {
  int number = 0;    // 1-based: the line of jobs.txt, the Slurm array's task id
  std::string name;  // stable: number and values, e.g. "0003_tp-2_rate-10Gbps_seed-1"
  std::vector<std::pair<std::string, nlohmann::json>> values;  // pointer -> value; /seed last
  // The --set assignments that make the point's scenario from the base.
  std::vector<std::string> overrides() const;
};

// Every point, the grid's last pointer varying fastest and the seed faster still; or every
// listed point, each with every seed.
std::vector<SweepPoint> sweep_points(const SweepSpec& spec);

// What a point's run left: its record, point.json in its folder, written last and whole.
struct PointOutcome {
  bool recorded = false;  // point.json exists: the point ran to an end (any exit code)
  int exit_code = 0;      // uniference run's: 0, 1 runtime error, 2 bad scenario, 3 deadlock
  std::string message;    // why it failed; empty when it completed
  int64_t seed = 0;       // the seed it ran with (0 when its scenario could not be read)
  int64_t ttft_ns = 0, total_ns = 0;
  double tpot_ns = 0, wall_s = 0;
};

// The sweep's folder, and a point's folder inside it.
std::string sweep_folder(const SweepSpec& spec);
std::string point_folder(const SweepSpec& spec, const SweepPoint& point);

// Runs one point in this process, writes its outputs and point.json into its folder, and
// returns its exit code. Never throws for a failed point: a failure is its record.
int run_sweep_point(const SweepSpec& spec, const SweepPoint& point);

// The point's record, or one with recorded = false.
PointOutcome read_point_outcome(const SweepSpec& spec, const SweepPoint& point);

// The command that runs a point, as jobs.txt holds it: this binary (absolute), the spec and
// the sweep's folder (absolute), so a line runs from any directory on a shared filesystem.
std::vector<std::string> point_command(const std::string& binary, const SweepSpec& spec,
                                       const SweepPoint& point);

// Writes jobs.txt (one point_command a line, shell-quoted) and slurm.sh (a job array whose
// task N runs line N) into the sweep's folder; returns their paths.
std::pair<std::string, std::string> write_sweep_jobs(const std::string& binary, const SweepSpec& spec);

// A sweep stopped by SIGINT or SIGTERM: the points running then were stopped too.
class SweepStopped : public std::runtime_error {
 public:
  explicit SweepStopped(int ran)
      : std::runtime_error("the sweep was stopped after " + std::to_string(ran) +
                           " points; run it again to resume") {}
};

struct SweepRunOptions {
  int jobs = 1;  // processes at a time
  bool quiet = false;
  // Called as each point ends, with its record (recorded = false: it left none); when given,
  // the caller shows progress and the runner prints nothing per point.
  std::function<void(const SweepPoint&, const PointOutcome&)> on_end;
  // No point starts after it, and the points still running then are stopped (leaving no
  // record, so they run when the sweep is resumed).
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

// Runs every point not yet recorded, `options.jobs` processes at a time (each runs
// point_command), printing a line per point as it ends unless quiet. Returns how many ended.
// SIGINT or SIGTERM stops the points running and throws SweepStopped.
int run_sweep_points(const std::string& binary, const SweepSpec& spec, const SweepRunOptions& options);

// The pointers a sweep sets, one column each in sweep.csv: the grid's, or every pointer the
// listed points set, in the order they first appear.
std::vector<std::string> swept_pointers(const SweepSpec& spec);

// A CSV field as RFC 4180 writes it: quoted, its quotes doubled, when it holds a comma, a
// quote or a line break.
std::string csv_field(const std::string& text);

// Writes sweep.csv from the points' records: one row a point, one column per swept pointer,
// then seed, exit_code, ttft_ns, tpot_ns, total_ns, wall_s and message. A point not recorded
// has an empty exit_code. Returns the file's path.
std::string write_sweep_csv(const SweepSpec& spec);

}  // namespace uniference
