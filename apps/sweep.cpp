#include "apps/sweep.h"

#include "apps/atomic_file.h"
#include "apps/json_checker.h"
#include "apps/progress_line.h"
#include "apps/report.h"
#include "apps/run_scenario.h"
#include "apps/scenario.h"
#include "apps/scenario_files.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

namespace uniference {

namespace fs = std::filesystem;

namespace {

// The last reference token of a pointer, unescaped: "/network/link/rate" -> "rate".
std::string last_token(const std::string& pointer) {
  std::string token = pointer.substr(pointer.rfind('/') + 1);
  for (size_t at = 0; (at = token.find('~', at)) != std::string::npos; ++at) {
    token.replace(at, 2, token.compare(at, 2, "~1") == 0 ? "/" : "~");
  }
  return token;
}

// A value as a point's name shows it: strings bare, other values as JSON, and anything but
// letters, digits, '.', '+' and '-' as '-', so that the name is a plain folder name.
std::string value_text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (!value.is_object()) return value.dump();
  std::string text;  // {"strategy": "tp", "tp": 4} -> "strategy-tp.tp-4"
  for (const auto& [key, item] : value.items()) text += (text.empty() ? "" : ".") + key + "-" + value_text(item);
  return text;
}

std::string name_part(const std::string& label, const nlohmann::json& value) {
  std::string text = label + "-" + value_text(value);
  for (char& c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '+' && c != '-') c = '-';
  }
  return text;
}

std::string shell_quoted(const std::string& word) {
  bool plain = !word.empty();
  for (char c : word) plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || std::strchr("/._-+=:,", c));
  if (plain) return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string absolute(const std::string& path) { return fs::absolute(path).lexically_normal().string(); }

// Set by SIGINT or SIGTERM while points run: the runner stops them and returns.
volatile std::sig_atomic_t stop_requested = 0;

void request_stop(int) { stop_requested = 1; }

// Catches SIGINT and SIGTERM for its lifetime (without SA_RESTART, so waitpid returns), and
// puts the previous handlers back.
class StopSignals {
 public:
  StopSignals() {
    struct sigaction action {};
    action.sa_handler = request_stop;
    sigemptyset(&action.sa_mask);
    stop_requested = 0;
    ::sigaction(SIGINT, &action, &previous_int_);
    ::sigaction(SIGTERM, &action, &previous_term_);
  }
  ~StopSignals() {
    ::sigaction(SIGINT, &previous_int_, nullptr);
    ::sigaction(SIGTERM, &previous_term_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction previous_int_ {};
  struct sigaction previous_term_ {};
};

}  // namespace

SweepSpec load_sweep_spec(const std::string& path) {
  const nlohmann::json doc = read_json_file(path, "the sweep spec");
  const Checker check(path);
  check.object(doc, "", {"scenario", "grid", "points", "seeds", "out"});
  SweepSpec spec;
  spec.source = path;

  const nlohmann::json& scenario = check.require(doc, "", "scenario", "the base scenario's file");
  if (!scenario.is_string() || scenario.get<std::string>().empty()) {
    check.fail_found("/scenario", "the base scenario's file, a non-empty string", scenario);
  }
  spec.scenario = beside_scenario(path, scenario.get<std::string>());
  if (!fs::is_regular_file(spec.scenario)) check.fail("/scenario", "no such file: " + spec.scenario);

  const nlohmann::json* grid = Checker::find(doc, "grid");
  const nlohmann::json* listed = Checker::find(doc, "points");
  if ((grid == nullptr) == (listed == nullptr)) {
    check.fail(grid ? "/points" : "", grid ? "give the points as a grid or as a list, not both"
                                            : "missing key: a grid of values (\"grid\") or a "
                                              "list of points (\"points\")");
  }
  const auto check_pointer = [&](const std::string& pointer, const std::string& at) {
    if (pointer.empty() || pointer[0] != '/') {
      check.fail(at, "a key here is a JSON pointer into the scenario, starting with '/'");
    }
  };
  if (grid != nullptr) {
    if (!grid->is_object() || grid->empty()) {
      check.fail_found("/grid", "an object of JSON pointers and their values, not empty", *grid);
    }
    for (const auto& [pointer, values] : grid->items()) {
      const std::string at = child("/grid", pointer);
      check_pointer(pointer, at);
      if (!values.is_array() || values.empty()) check.fail_found(at, "a non-empty array of values", values);
      spec.grid.emplace_back(pointer, std::vector<nlohmann::json>(values.begin(), values.end()));
    }
  } else {
    if (!listed->is_array() || listed->empty()) check.fail_found("/points", "a non-empty array of points", *listed);
    for (size_t i = 0; i < listed->size(); ++i) {
      const std::string at = "/points/" + std::to_string(i);
      const nlohmann::json& point = (*listed)[i];
      check.object(point, at, {"name", "set"});
      SweepSpec::Listed entry;
      entry.name = check.string(check.require(point, at, "name", "the point's name"), at + "/name");
      for (const char c : entry.name) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '+' && c != '-') {
          check.fail(at + "/name", "a point's name is a plain folder name: letters, digits, '.', '+' and '-'");
        }
      }
      const nlohmann::json& set = check.require(point, at, "set", "an object of JSON pointers and values");
      if (!set.is_object() || set.empty()) check.fail_found(at + "/set", "an object of JSON pointers and values", set);
      for (const auto& [pointer, value] : set.items()) {
        check_pointer(pointer, child(at + "/set", pointer));
        if (pointer == "/seed" && doc.contains("seeds")) check.fail(child(at + "/set", pointer), "the spec gives seeds already");
        entry.values.emplace_back(pointer, value);
      }
      spec.listed.push_back(std::move(entry));
    }
  }

  if (const nlohmann::json* seeds = Checker::find(doc, "seeds")) {
    if (!seeds->is_array() || seeds->empty()) check.fail_found("/seeds", "a non-empty array of seeds", *seeds);
    if (grid != nullptr && grid->contains("/seed")) check.fail("/seeds", "the grid sweeps /seed already");
    for (size_t i = 0; i < seeds->size(); ++i) {
      const nlohmann::json& seed = (*seeds)[i];
      if (!seed.is_number_unsigned()) {
        check.fail_found("/seeds/" + std::to_string(i), "a whole number of 0 or more", seed);
      }
      spec.seeds.push_back(seed.get<int64_t>());
    }
  }
  if (const nlohmann::json* out = Checker::find(doc, "out")) {
    if (!out->is_string() || out->get<std::string>().empty()) check.fail_found("/out", "a folder, a non-empty string", *out);
    spec.out = beside_scenario(path, out->get<std::string>());
  }
  return spec;
}

std::vector<std::string> SweepPoint::overrides() const {
  std::vector<std::string> assignments;
  // Values as JSON text, so that the string "10" stays a string.
  for (const auto& [pointer, value] : values) assignments.push_back(pointer + "=" + value.dump());
  return assignments;
}

namespace {

std::string point_number(size_t index) {
  char number[16];
  std::snprintf(number, sizeof number, "%04zu", index + 1);
  return number;
}

}  // namespace

std::vector<SweepPoint> sweep_points(const SweepSpec& spec) {
  std::vector<SweepPoint> points;
  if (!spec.listed.empty()) {
    const std::vector<int64_t> seeds = spec.seeds.empty() ? std::vector<int64_t>{-1} : spec.seeds;
    for (const SweepSpec::Listed& entry : spec.listed) {
      for (int64_t seed : seeds) {
        SweepPoint point;
        point.number = int(points.size()) + 1;
        point.name = point_number(points.size()) + "_" + entry.name;
        point.values = entry.values;
        if (seed >= 0) {
          point.values.emplace_back("/seed", seed);
          point.name += "_" + name_part("seed", seed);
        }
        points.push_back(std::move(point));
      }
    }
    return points;
  }
  std::vector<std::pair<std::string, std::vector<nlohmann::json>>> axes = spec.grid;
  if (!spec.seeds.empty()) axes.emplace_back("/seed", std::vector<nlohmann::json>(spec.seeds.begin(), spec.seeds.end()));
  size_t count = 1;
  for (const auto& axis : axes) count *= axis.second.size();
  for (size_t index = 0; index < count; ++index) {
    SweepPoint point;
    point.number = int(index) + 1;
    point.name = point_number(index);
    // The last axis varies fastest: index in mixed radix, last digit first.
    std::vector<size_t> digit(axes.size());
    for (size_t a = axes.size(), rest = index; a-- > 0;) {
      digit[a] = rest % axes[a].second.size();
      rest /= axes[a].second.size();
    }
    for (size_t a = 0; a < axes.size(); ++a) {
      const nlohmann::json& value = axes[a].second[digit[a]];
      point.values.emplace_back(axes[a].first, value);
      point.name += "_" + name_part(last_token(axes[a].first), value);
    }
    points.push_back(std::move(point));
  }
  return points;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::vector<std::string> swept_pointers(const SweepSpec& spec) {
  std::vector<std::string> pointers;
  for (const auto& axis : spec.grid) pointers.push_back(axis.first);
  for (const SweepSpec::Listed& entry : spec.listed) {
    for (const auto& value : entry.values) {
      if (std::find(pointers.begin(), pointers.end(), value.first) == pointers.end()) pointers.push_back(value.first);
    }
  }
  return pointers;
}

std::string sweep_folder(const SweepSpec& spec) {
  return spec.out.empty() ? (fs::path("out") / fs::path(spec.source).stem()).string() : spec.out;
}

std::string point_folder(const SweepSpec& spec, const SweepPoint& point) {
  return (fs::path(sweep_folder(spec)) / "points" / point.name).string();
}

int run_sweep_point(const SweepSpec& spec, const SweepPoint& point) {
  const auto started = std::chrono::steady_clock::now();
  const std::string dir = point_folder(spec, point);
  const std::string record = (fs::path(dir) / "point.json").string();
  fs::create_directories(dir);
  fs::remove(record);  // a run that dies now must not leave an earlier run's record behind
  PointOutcome o;
  try {
    const Scenario scenario = load_scenario(spec.scenario, point.overrides());
    o.seed = int64_t(scenario.seed);
    const ScenarioRun run = run_scenario(scenario, false, dir);
    if (run.outcome.status != RunOutcome::Status::kCompleted) {
      o.exit_code = run.outcome.exit_code();
      o.message = run.outcome.report;
    } else {
      write_outputs(scenario, run.network, run.record, dir);
      o.ttft_ns = run.record.ttft_ns();
      o.tpot_ns = run.record.tpot_ns();
      o.total_ns = run.record.total_ns;
    }
  } catch (const ScenarioError& e) {
    o.exit_code = 2;
    o.message = e.what();
  } catch (const std::exception& e) {
    o.exit_code = 1;
    o.message = e.what();
  }
  o.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  nlohmann::json values = nlohmann::json::object();
  for (const auto& [pointer, value] : point.values) values[pointer] = value;
  const nlohmann::json doc = {{"point", point.number}, {"name", point.name},   {"values", values},
                              {"exit_code", o.exit_code}, {"message", o.message}, {"seed", o.seed},
                              {"ttft_ns", o.ttft_ns}, {"tpot_ns", o.tpot_ns}, {"total_ns", o.total_ns},
                              {"wall_s", o.wall_s}};
  write_file_atomically(record, doc.dump(2) + "\n");
  return o.exit_code;
}

PointOutcome read_point_outcome(const SweepSpec& spec, const SweepPoint& point) {
  PointOutcome o;
  std::ifstream in(fs::path(point_folder(spec, point)) / "point.json");
  if (!in) return o;
  const nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return o;  // not ours whole: run it again
  o.recorded = true;
  o.exit_code = doc.value("exit_code", 1);
  o.message = doc.value("message", std::string());
  o.seed = doc.value("seed", int64_t(0));
  o.ttft_ns = doc.value("ttft_ns", int64_t(0));
  o.tpot_ns = doc.value("tpot_ns", 0.0);
  o.total_ns = doc.value("total_ns", int64_t(0));
  o.wall_s = doc.value("wall_s", 0.0);
  return o;
}

std::vector<std::string> point_command(const std::string& binary, const SweepSpec& spec,
                                       const SweepPoint& point) {
  return {absolute(binary), "sweep", absolute(spec.source), "--point", std::to_string(point.number),
          "--out", absolute(sweep_folder(spec)), "--quiet"};
}

std::pair<std::string, std::string> write_sweep_jobs(const std::string& binary, const SweepSpec& spec) {
  const std::vector<SweepPoint> points = sweep_points(spec);
  const fs::path dir = absolute(sweep_folder(spec));
  fs::create_directories(dir);
  std::string jobs;
  for (const SweepPoint& point : points) {
    std::string line;
    for (const std::string& word : point_command(binary, spec, point)) line += (line.empty() ? "" : " ") + shell_quoted(word);
    jobs += line + "\n";
  }
  const std::string jobs_path = (dir / "jobs.txt").string();
  write_file_atomically(jobs_path, jobs);

  const std::string collect = shell_quoted(absolute(binary)) + " sweep " + shell_quoted(absolute(spec.source)) +
                              " --out " + shell_quoted(dir.string()) + " --collect";
  std::ostringstream slurm;
  slurm << "#!/bin/bash\n"
        << "# The points of " << fs::path(spec.source).filename().string() << " as a Slurm job array: task N runs\n"
        << "# line N of jobs.txt. Submit with `sbatch " << (dir / "slurm.sh").string() << "`; when every task\n"
        << "# has ended, `" << collect << "` writes sweep.csv.\n"
        << "#SBATCH --job-name=" << fs::path(spec.source).stem().string() << "\n"
        << "#SBATCH --array=1-" << points.size() << "\n"
        << "#SBATCH --ntasks=1\n"
        << "#SBATCH --cpus-per-task=1\n"
        << "#SBATCH --output=" << (dir / "slurm-%A_%a.out").string() << "\n"
        << "set -eu\n"
        << "line=$(sed -n \"${SLURM_ARRAY_TASK_ID}p\" " << shell_quoted((dir / "jobs.txt").string()) << ")\n"
        << "if [ -z \"$line\" ]; then echo \"slurm.sh: no line ${SLURM_ARRAY_TASK_ID} in jobs.txt\" >&2; exit 2; fi\n"
        << "eval \"$line\"\n";
  const std::string slurm_path = (dir / "slurm.sh").string();
  write_file_atomically(slurm_path, slurm.str());
  fs::permissions(slurm_path, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                  fs::perm_options::add);
  return {jobs_path, slurm_path};
}

int run_sweep_points(const std::string& binary, const SweepSpec& spec, const SweepRunOptions& options) {
  const std::vector<SweepPoint> points = sweep_points(spec);
  std::vector<const SweepPoint*> todo;
  for (const SweepPoint& point : points) {
    if (!read_point_outcome(spec, point).recorded) todo.push_back(&point);
  }
  const bool quiet = options.quiet || bool(options.on_end);
  if (!quiet) {
    std::cerr << "uniference: sweep of " << points.size() << " points, " << points.size() - todo.size()
              << " already recorded, " << todo.size() << " to run, " << options.jobs << " at a time\n";
  }
  const auto past_deadline = [&] { return options.deadline && std::chrono::steady_clock::now() >= *options.deadline; };
  // Points that end well advance the progress line; failures are printed as lines that stay.
  ProgressLine line(quiet);
  std::map<pid_t, const SweepPoint*> running;
  size_t next = 0;
  int done = 0;
  const StopSignals signals;
  while ((next < todo.size() && !past_deadline()) || !running.empty()) {
    if (stop_requested || past_deadline()) {
      // Points stopped half way leave no record (point.json is written last, whole), so a
      // resumed sweep runs exactly them and those never started.
      for (const auto& [child, point] : running) ::kill(child, SIGTERM);
      for (const auto& [child, point] : running) ::waitpid(child, nullptr, 0);
      if (stop_requested) throw SweepStopped(done);
      break;
    }
    while (next < todo.size() && int(running.size()) < options.jobs) {
      const SweepPoint* point = todo[next++];
      std::vector<std::string> words = point_command(binary, spec, *point);
      std::vector<char*> argv;
      for (std::string& word : words) argv.push_back(word.data());
      argv.push_back(nullptr);
      std::cout << std::flush;
      std::cerr << std::flush;
      const pid_t child = ::fork();
      if (child < 0) throw std::runtime_error(std::string("cannot start a point: ") + std::strerror(errno));
      if (child == 0) {
        ::execv(argv[0], argv.data());
        std::fprintf(stderr, "uniference: cannot run %s: %s\n", argv[0], std::strerror(errno));
        ::_exit(127);
      }
      running[child] = point;
    }
    int status = 0;
    // With a deadline, look every 20 ms rather than block until a point ends.
    const pid_t child = ::waitpid(-1, &status, options.deadline ? WNOHANG : 0);
    if (child == 0) {
      ::usleep(20000);
      continue;
    }
    if (child < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("lost track of the points' processes: ") + std::strerror(errno));
    }
    const auto it = running.find(child);
    if (it == running.end()) continue;
    const SweepPoint& point = *it->second;
    running.erase(it);
    ++done;
    if (options.on_end) options.on_end(point, read_point_outcome(spec, point));
    if (quiet) continue;
    const PointOutcome o = read_point_outcome(spec, point);
    const std::string head = "[" + std::to_string(done) + "/" + std::to_string(todo.size()) + "] " + point.name + ": ";
    if (!o.recorded) {
      line.note("  " + head + "ended without a record (" +
                (WIFSIGNALED(status) ? "signal " + std::to_string(WTERMSIG(status))
                                     : "exit " + std::to_string(WEXITSTATUS(status))) +
                "); it runs again when the sweep is resumed");
    } else if (o.exit_code != 0) {
      line.note("  " + head + "exit " + std::to_string(o.exit_code) +
                (o.message.empty() ? "" : ": " + o.message.substr(0, o.message.find('\n'))));
    } else {
      line.step(size_t(done), todo.size(), "points, the last " + point.name);
    }
  }
  return done;
}

std::string write_sweep_csv(const SweepSpec& spec) {
  const std::vector<std::string> pointers = swept_pointers(spec);
  std::string csv = "point";
  for (const std::string& pointer : pointers) csv += "," + csv_field(pointer);
  csv += ",seed,exit_code,ttft_ns,tpot_ns,total_ns,wall_s,message\n";
  for (const SweepPoint& point : sweep_points(spec)) {
    const PointOutcome o = read_point_outcome(spec, point);
    csv += csv_field(point.name);
    for (const std::string& pointer : pointers) {
      const auto it = std::find_if(point.values.begin(), point.values.end(),
                                   [&](const auto& value) { return value.first == pointer; });
      csv += ",";
      if (it == point.values.end()) continue;  // a listed point that leaves it as the base has it
      csv += csv_field(it->second.is_string() ? it->second.get<std::string>() : it->second.dump());
    }
    char figures[160];
    std::snprintf(figures, sizeof figures, "%lld,%.3f,%lld,%.3f", static_cast<long long>(o.ttft_ns), o.tpot_ns,
                  static_cast<long long>(o.total_ns), o.wall_s);
    csv += "," + (o.recorded ? std::to_string(o.seed) : std::string()) + "," +
           (o.recorded ? std::to_string(o.exit_code) : std::string()) + "," +
           (o.recorded ? std::string(figures) : std::string(",,,")) + "," + csv_field(o.message) + "\n";
  }
  const std::string path = (fs::path(sweep_folder(spec)) / "sweep.csv").string();
  fs::create_directories(sweep_folder(spec));
  write_file_atomically(path, csv);
  return path;
}

}  // namespace uniference
