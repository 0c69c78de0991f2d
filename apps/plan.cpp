#include "apps/plan.h"

#include "apps/atomic_file.h"
#include "apps/compute_check.h"
#include "apps/plan_report.h"
#include "apps/progress_line.h"
#include "apps/scenario.h"
#include "apps/scenario_check.h"
#include "apps/sweep.h"
#include "bridge/network_registry.h"
#include "compute/memory_estimate.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace uniference {

namespace fs = std::filesystem;
using Assignments = std::vector<std::pair<std::string, nlohmann::json>>;

namespace {

using Clock = std::chrono::steady_clock;

std::string duration_text(int64_t ns) { return std::to_string(ns) + "ns"; }

std::string gigabytes(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GB", double(bytes) / 1e9);
  return text;
}

Assignments joined(Assignments a, const Assignments& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// What every candidate's scenario shares: the spec's sections, and its targets where the
// workload can count them (a serving stream's goodput).
Assignments common_assignments(const PlanSpec& spec, const Scenario& base) {
  Assignments set = spec.base_overrides();
  if (base.workload.is_serving() && (spec.slo_ttft_ns > 0 || spec.slo_tpot_ns > 0)) {
    nlohmann::json slo = nlohmann::json::object();
    if (spec.slo_ttft_ns > 0) slo["ttft"] = duration_text(spec.slo_ttft_ns);
    if (spec.slo_tpot_ns > 0) slo["tpot"] = duration_text(spec.slo_tpot_ns);
    set.emplace_back("/workload/slo", slo);
  }
  return set;
}

// The figures of a point that ran: its record and results.json.
PlanFigures read_figures(const SweepSpec& sweep, const SweepPoint& point, const PlanSpec& spec, bool serving) {
  PlanFigures f;
  const PointOutcome o = read_point_outcome(sweep, point);
  if (!o.recorded) return f;
  f.exit_code = o.exit_code;
  f.message = o.message;
  if (o.exit_code != 0) return f;
  std::ifstream in(fs::path(point_folder(sweep, point)) / "results.json");
  const nlohmann::json results = nlohmann::json::parse(in, nullptr, false);
  if (results.is_discarded() || !results.is_object()) {
    f.exit_code = 1;
    f.message = "its results.json cannot be read";
    return f;
  }
  f.ran = true;
  const double total_s = double(results.value("total_ns", int64_t(0))) / 1e9;
  if (serving && results.contains("serving")) {
    const nlohmann::json& s = results["serving"];
    f.ttft_ns = s["ttft_ns"].value("p99", int64_t(0));
    f.tpot_ns = double(s["tpot_ns"].value("p99", int64_t(0)));
    f.tokens_per_s = s.value("tokens_per_s", 0.0);
    f.goodput_per_s = s.value("goodput_per_s", 0.0);
  } else {
    f.ttft_ns = results.value("ttft_ns", int64_t(0));
    f.tpot_ns = results.value("tpot_ns", 0.0);
    f.tokens_per_s = total_s > 0 ? double(results["tokens"].size()) / total_s : 0;
  }
  f.meets_slo = (spec.slo_ttft_ns == 0 || f.ttft_ns <= spec.slo_ttft_ns) &&
                (spec.slo_tpot_ns == 0 || f.tpot_ns <= double(spec.slo_tpot_ns));
  if (!serving) f.goodput_per_s = f.meets_slo ? f.tokens_per_s : 0;
  // The slowest rank's split between compute and waiting on communication.
  int64_t latest = -1;
  for (const nlohmann::json& rank : results.value("ranks", nlohmann::json::array())) {
    const int64_t finish = rank.value("finish_ns", int64_t(0));
    if (finish <= latest) continue;
    latest = finish;
    if (finish <= 0) continue;
    f.compute_share = double(rank.value("compute_ns", int64_t(0))) / double(finish);
    f.wait_share = double(rank.value("comm_wait_ns", int64_t(0))) / double(finish);
  }
  if (results.contains("links")) {
    for (const nlohmann::json& link : results["links"].value("directions", nlohmann::json::array())) {
      const double u = link.value("utilisation", 0.0);
      if (u > f.busiest_utilisation) {
        f.busiest_utilisation = u;
        f.busiest_link = link.value("name", std::string());
      }
    }
  }
  return f;
}

double objective_key(const PlanFigures& f, const PlanEntry& e, PlanObjective objective) {
  switch (objective) {
    case PlanObjective::kTpot: return f.tpot_ns;
    case PlanObjective::kTtft: return double(f.ttft_ns);
    case PlanObjective::kGoodput: return -f.goodput_per_s;
    case PlanObjective::kDevices: return double(e.candidate.devices());
  }
  return 0;
}

// A stage's sweep: the listed points in `folder`, started afresh when the points asked for
// differ from the ones its folder holds (a changed spec), resumed otherwise.
SweepSpec stage_sweep(const std::string& folder, const std::string& scenario, const nlohmann::json& points) {
  const nlohmann::json doc = {{"scenario", fs::absolute(scenario).lexically_normal().string()}, {"points", points}};
  const std::string path = (fs::path(folder) / "sweep.json").string();
  const std::string text = doc.dump(2) + "\n";
  std::ifstream old(path);
  std::stringstream held;
  held << old.rdbuf();
  if (held.str() != text) {
    fs::remove_all(fs::path(folder) / "points");
    fs::create_directories(folder);
    write_file_atomically(path, text);
  }
  SweepSpec sweep = load_sweep_spec(path);
  sweep.out = folder;
  return sweep;
}

std::string figures_text(const PlanFigures& f, PlanObjective objective) {
  char text[96];
  if (objective == PlanObjective::kTtft) std::snprintf(text, sizeof text, "TTFT %.3f ms", double(f.ttft_ns) / 1e6);
  else if (objective == PlanObjective::kGoodput) std::snprintf(text, sizeof text, "goodput %.3g/s", f.goodput_per_s);
  else std::snprintf(text, sizeof text, "TPOT %.3f ms", f.tpot_ns / 1e6);
  return text;
}

// The scenario file of a plan: the base's document with the plan's assignments, its side files
// named relative to where it is written.
void write_plan_scenario(const std::string& base, const Assignments& set, const std::string& name,
                         const std::string& path) {
  std::ifstream in(base);
  nlohmann::json doc = nlohmann::json::parse(in);
  for (const std::string& assignment : as_overrides(set)) apply_override(doc, assignment, base);
  doc["name"] = name;
  const fs::path from = fs::absolute(base).parent_path();
  const fs::path to = fs::absolute(path).parent_path();
  const auto relocate = [&](auto& self, nlohmann::json& value) -> void {
    if (value.is_object() || value.is_array()) {
      for (auto& item : value) self(self, item);
    } else if (value.is_string()) {
      const fs::path file = value.get<std::string>();
      std::error_code error;
      if (file.is_relative() && file.has_extension() && fs::is_regular_file(from / file, error)) {
        value = fs::relative(from / file, to).string();
      }
    }
  };
  relocate(relocate, doc);
  write_file_atomically(path, doc.dump(2) + "\n");
}

// A layout's first data-parallel replica alone, dealt the most prompts any replica gets
// (prompt p goes to replica p mod dp): replicas share only the network, and simulating one of
// 8 ranks rather than eight takes a fifth of the time (Llama 3 70B's shapes on cm384).
Assignments one_replica(const PlanCandidate& c, int64_t batch) {
  if (c.parallel.dp == 1) return c.assignments();
  PlanCandidate replica = c;
  replica.parallel.dp = 1;
  if (!replica.endpoints.empty()) replica.endpoints.resize(size_t(replica.parallel.world()));
  Assignments set = replica.assignments();
  set.emplace_back("/workload/batch", (batch + c.parallel.dp - 1) / c.parallel.dp);
  return set;
}

// The model and devices, checked under the first layout that fits them: the base's own may not
// (expert parallelism of the spec's dense model), tensor parallelism over every device may not
// (heads it does not divide).
struct CheckedBase {
  Scenario scenario;  // the base with that layout
  CheckedCompute compute;
};

CheckedBase checked_base(const PlanSpec& spec, int devices) {
  std::optional<ScenarioError> first;
  for (const nlohmann::json& layout : {nlohmann::json(), nlohmann::json{{"strategy", "tp"}, {"tp", devices}},
                                       nlohmann::json{{"strategy", "dp"}, {"dp", devices}},
                                       nlohmann::json{{"strategy", "dp"}}}) {
    try {
      Assignments set = spec.base_overrides();
      if (!layout.is_null()) set.emplace_back("/parallel", layout);
      Scenario scenario = load_scenario(spec.scenario, as_overrides(set));
      CheckedCompute compute = check_compute(scenario);
      return {std::move(scenario), std::move(compute)};
    } catch (const ScenarioError& e) {
      if (!first) first = e;
    }
  }
  throw *first;
}

}  // namespace

bool ranks_before(const PlanEntry& a, const PlanFigures& fa, const PlanEntry& b, const PlanFigures& fb,
                  PlanObjective objective) {
  if (fa.ran != fb.ran) return fa.ran;
  if (fa.meets_slo != fb.meets_slo) return fa.meets_slo;
  const double ka = objective_key(fa, a, objective), kb = objective_key(fb, b, objective);
  if (ka != kb) return ka < kb;
  // Ties: the latency of tokens, then fewer devices, then the name.
  if (fa.tpot_ns != fb.tpot_ns) return fa.tpot_ns < fb.tpot_ns;
  if (a.candidate.devices() != b.candidate.devices()) return a.candidate.devices() < b.candidate.devices();
  return a.candidate.name < b.candidate.name;
}

namespace {

// One search: the spec, the base scenario every candidate starts from, and what it found.
class Planner {
 public:
  Planner(const PlanSpec& spec, const PlanOptions& options)
      : spec_(spec),
        options_(options),
        started_(Clock::now()),
        base_(load_scenario(spec.scenario, as_overrides(spec.base_overrides()))),
        serving_(base_.workload.is_serving()),
        common_(common_assignments(spec, base_)),
        progress_(options.quiet) {
    result_.folder = !options.out.empty() ? options.out
                     : !spec.out.empty()  ? spec.out
                                          : (fs::path("out") / "plans" / fs::path(spec.source).stem()).string();
    fs::create_directories(result_.folder);
  }

  PlanResult run() {
    enumerate();
    prune();
    if (options_.dry_run) {
      write_plan_outputs(spec_, result_);
      return result_;
    }
    const Assignments estimate = estimate_settings();
    if (!options_.quiet) {
      std::cerr << "uniference: plan of " << result_.entries.size() << " candidates on " << space_.devices
                << " devices, " << pruned_ << " pruned before simulation; estimating the rest at the "
                << result_.estimate_level << " level\n";
    }
    std::vector<size_t> to_estimate;
    for (size_t i = 0; i < result_.entries.size(); ++i) {
      if (result_.entries[i].pruned.empty()) to_estimate.push_back(i);
    }
    // A budget keeps a quarter of itself for the check.
    run_stage("estimate", to_estimate, estimate, &PlanEntry::estimate, 0.75);
    const std::vector<size_t> to_check = best_estimates();
    run_stage("check", to_check, {{"/outputs", {{"trace", false}, {"results", true}}}}, &PlanEntry::packet, 1.0);
    progress_.clear();
    choose_winner(to_check);
    write_plan_outputs(spec_, result_);
    return result_;
  }

 private:
  // The candidates, the default plan first: the base scenario as written, with tensor
  // parallelism over every device.
  void enumerate() {
    space_.exact_devices = !base_.devices.ranks.empty();
    space_.devices = spec_.devices > 0 ? spec_.devices : base_.parallel.world();
    if (space_.exact_devices && spec_.devices > 0 && spec_.devices != int(base_.devices.ranks.size())) {
      throw ScenarioError(spec_.source, "/devices/count",
                          "the base scenario lists " + std::to_string(base_.devices.ranks.size()) +
                              " devices one by one (/devices/ranks); plan over those, or give the base one profile");
    }
    const CheckedBase first_fit = checked_base(spec_, space_.devices);
    space_.layers = first_fit.compute.model.n_layers;
    space_.moe = first_fit.compute.model.is_moe();
    space_.strategies = spec_.strategies.empty() ? strategies().names() : spec_.strategies;
    for (size_t i = 0; i < space_.strategies.size(); ++i) {
      if (strategies().find(space_.strategies[i]) == nullptr) {
        throw ScenarioError(spec_.source, "/search/strategies/" + std::to_string(i),
                            "no strategy \"" + space_.strategies[i] + "\"");
      }
    }
    space_.presets = spec_.presets.empty() ? std::vector<std::string>{""} : spec_.presets;
    space_.micro_batches = spec_.micro_batches.empty() ? std::vector<int>{1} : spec_.micro_batches;
    space_.uneven_splits = space_.exact_devices;
    // Placement matters on a fabric of switch groups; elsewhere every endpoint is alike.
    Scenario probe = first_fit.scenario;
    if (!probe.network.placement.packed && int(probe.network.placement.endpoint.size()) != probe.parallel.world()) {
      probe.network.placement.packed = true;
      probe.network.placement.endpoint.clear();
    }
    const TopologyShape shape = topology_shape(check_scenario(probe).network, uint32_t(space_.devices));
    space_.endpoints = shape.endpoints;
    space_.group = shape.group;
    space_.placements = space_.group == 0            ? std::vector<std::string>{""}
                        : spec_.placements.empty() ? std::vector<std::string>{"packed", "spread"}
                                                   : spec_.placements;

    PlanEntry default_entry;
    default_entry.candidate.name = "default-tp" + std::to_string(space_.devices);
    default_entry.candidate.parallel.strategy = "tp";
    default_entry.candidate.parallel.tp = space_.devices;
    default_entry.candidate.is_default = true;
    if (!base_.network.placement.packed && int(base_.network.placement.endpoint.size()) != space_.devices) {
      default_entry.candidate.placement = "packed";
    }
    result_.entries.push_back(default_entry);
    result_.default_plan = 0;
    for (PlanCandidate& c : enumerate_candidates(space_)) {
      if (c.is_default) continue;  // the default entry stands for it
      PlanEntry e;
      e.candidate = std::move(c);
      result_.entries.push_back(std::move(e));
    }
  }

  // Each candidate checked like a scenario, then its memory against its devices'.
  void prune() {
    for (PlanEntry& e : result_.entries) {
      try {
        const Scenario s = load_scenario(spec_.scenario, as_overrides(joined(common_, e.candidate.assignments())));
        const CheckedCompute checked = check_compute(s);
        MemoryEstimateInputs in;
        in.model = checked.model;
        in.strategy = checked.degrees.strategy;
        in.degrees = checked.degrees;
        in.workload = WorkloadShape{s.workload.batch, s.workload.prompt_tokens, s.workload.new_tokens};
        if (serving_) in.serving = checked.cache;
        const std::vector<MemoryUse> use = estimate_memory(in);
        for (size_t r = 0; r < use.size(); ++r) {
          const uint64_t limit = spec_.device_memory > 0 ? spec_.device_memory
                                 : r < checked.rank_devices.size() ? uint64_t(checked.rank_devices[r].memory_bytes)
                                                                    : uint64_t(checked.device.memory_bytes);
          if (use[r].total() >= e.memory_bytes) {
            e.memory_bytes = use[r].total();
            e.memory_limit = limit;
          }
          if (e.pruned.empty() && limit > 0 && use[r].total() > limit) {
            e.pruned = "memory: rank " + std::to_string(r) + " needs " + gigabytes(use[r].total()) +
                       ", its device has " + gigabytes(limit);
          }
        }
      } catch (const ScenarioError& error) {
        e.pruned = "invalid: " + error.pointer() + ": " + error.detail();
      } catch (const std::invalid_argument& error) {
        e.pruned = std::string("invalid: ") + error.what();
      }
      if (!e.pruned.empty()) ++pruned_;
    }
  }

  // The fast estimate's assignments: the flow level with shape-only compute, where the network
  // and the compute mode allow them (measured compute needs real tensors to time); what it
  // could not have is said in the table's note.
  Assignments estimate_settings() {
    Assignments set = {{"/outputs", {{"trace", false}, {"results", true}, {"link_samples", 0}}}};
    // Asked of the first candidate that passed the checks, so that only the network and
    // compute can refuse.
    const auto first_valid = std::find_if(result_.entries.begin(), result_.entries.end(),
                                          [](const PlanEntry& e) { return e.pruned.empty(); });
    if (first_valid == result_.entries.end()) {
      write_plan_outputs(spec_, result_);
      throw ScenarioError(spec_.source, "", "no candidate fits the model, workload and memory (plan.csv says why)");
    }
    const Assignments probe = joined(common_, first_valid->candidate.assignments());
    const auto refusal = [&](const Assignments& extra) -> std::optional<ScenarioError> {
      try {
        check_scenario(load_scenario(spec_.scenario, as_overrides(joined(joined(probe, set), extra))));
      } catch (const ScenarioError& error) {
        return error;
      }
      return std::nullopt;
    };
    std::string& note = result_.estimate_note;
    if (const auto error = refusal({{"/compute/shapes_only", true}})) {
      note = "Shape-only compute is refused (" + error->pointer() + ": " + error->detail() +
             "), so candidates are estimated with the scenario's compute. ";
    } else {
      set.emplace_back("/compute/shapes_only", true);
    }
    result_.estimate_level = "flow";
    const Assignments flow = {{"/network/transport/level", "flow"}};
    const Assignments flow_ecmp = joined(flow, {{"/network/switch/routing", "ecmp"}});
    if (const auto error = refusal(flow)) {
      // Adaptive routing spreads a pair's packets over paths as queues build, which flows do
      // not; ECMP's one path per pair is the nearest, and the check routes adaptively.
      if (error->pointer() == "/network/switch/routing" && !refusal(flow_ecmp)) {
        set = joined(set, flow_ecmp);
        note += "The estimate routes by ECMP where the scenario routes adaptively (the flow level follows one "
                "path per pair); the check routes as the scenario does. ";
      } else {
        result_.estimate_level = "packet";
        note += "The flow level refuses this network (" + error->pointer() + ": " + error->detail() +
                "), so every candidate is estimated at packet level. ";
      }
    } else {
      set = joined(set, flow);
    }
    if (!serving_) {
      note += "Estimates simulate one data-parallel replica alone (the one dealt the most prompts); contention "
              "between replicas shows in the check.";
    }
    return set;
  }

  // A candidate's layout in a stage: the estimate simulates one replica of a batch run.
  Assignments stage_layout(const PlanCandidate& c, bool estimate) const {
    return estimate && !serving_ ? one_replica(c, base_.workload.batch) : c.assignments();
  }

  // Runs one stage over the `chosen` entries as a sweep of listed points in its own folder,
  // filling their figures of that stage.
  void run_stage(const std::string& stage, const std::vector<size_t>& chosen, const Assignments& extra,
                 PlanFigures PlanEntry::*figures, double budget_share) {
    if (chosen.empty()) return;
    const bool estimate = figures == &PlanEntry::estimate;
    nlohmann::json points = nlohmann::json::array();
    for (size_t i : chosen) {
      nlohmann::json set = nlohmann::json::object();
      for (const auto& [pointer, value] : joined(joined(common_, stage_layout(result_.entries[i].candidate, estimate)), extra)) {
        set[pointer] = value;
      }
      points.push_back({{"name", result_.entries[i].candidate.name}, {"set", set}});
    }
    const SweepSpec sweep = stage_sweep((fs::path(result_.folder) / stage).string(), spec_.scenario, points);
    const std::vector<SweepPoint> listed = sweep_points(sweep);
    const PlanEntry* best = nullptr;
    size_t done = 0, failed = 0;
    const auto update = [&](size_t i, const SweepPoint& point) {
      PlanEntry& e = result_.entries[i];
      PlanFigures& f = e.*figures;
      f = read_figures(sweep, point, spec_, serving_);
      if (estimate && !serving_ && e.candidate.parallel.dp > 1) {
        // One replica ran: the others, dealt as many prompts or one fewer, finish no later, so
        // the layout's throughput is the batch's share of it.
        const double dp = e.candidate.parallel.dp, batch = double(base_.workload.batch);
        const double share = batch / std::ceil(batch / dp);
        f.tokens_per_s *= share;
        f.goodput_per_s *= share;
      }
      ++done;
      if (!f.ran) ++failed;
      if (f.ran && (best == nullptr || ranks_before(e, f, *best, (*best).*figures, spec_.objective))) best = &e;
      progress_.step(done, chosen.size(),
                     stage + ": " + std::to_string(pruned_) + " pruned, " + std::to_string(failed) + " failed" +
                         (best ? ", best so far " + best->candidate.name + " (" +
                                     figures_text(best->*figures, spec_.objective) + ")"
                               : std::string()));
    };
    // Points an earlier, stopped plan recorded count at once.
    for (size_t k = 0; k < listed.size(); ++k) {
      if (read_point_outcome(sweep, listed[k]).recorded) update(chosen[k], listed[k]);
    }
    SweepRunOptions run;
    run.jobs = options_.jobs;
    run.quiet = true;
    if (options_.budget_s > 0) {
      run.deadline = started_ + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(options_.budget_s * budget_share));
    }
    run.on_end = [&](const SweepPoint& point, const PointOutcome&) { update(chosen[size_t(point.number - 1)], point); };
    run_sweep_points(options_.binary, sweep, run);
    for (const SweepPoint& point : listed) {
      if (!read_point_outcome(sweep, point).recorded) result_.budget_reached = true;
    }
  }

  // The best `check` by the estimate, and the default plan.
  std::vector<size_t> best_estimates() const {
    std::vector<size_t> ranked;
    for (size_t i = 0; i < result_.entries.size(); ++i) {
      if (result_.entries[i].estimate.ran) ranked.push_back(i);
    }
    std::sort(ranked.begin(), ranked.end(), [&](size_t a, size_t b) {
      return ranks_before(result_.entries[a], result_.entries[a].estimate, result_.entries[b],
                          result_.entries[b].estimate, spec_.objective);
    });
    ranked.resize(std::min<size_t>(ranked.size(), size_t(spec_.check)));
    if (result_.entries[0].pruned.empty() && std::find(ranked.begin(), ranked.end(), 0) == ranked.end()) {
      ranked.push_back(0);
    }
    return ranked;
  }

  // The best of those checked; its scenario written, and the command that deploys it.
  void choose_winner(const std::vector<size_t>& checked) {
    for (size_t i : checked) {
      const PlanEntry& e = result_.entries[i];
      if (!e.packet.ran) continue;
      if (result_.winner < 0 || ranks_before(e, e.packet, result_.entries[size_t(result_.winner)],
                                             result_.entries[size_t(result_.winner)].packet, spec_.objective)) {
        result_.winner = int(i);
      }
    }
    if (result_.winner < 0) return;
    const PlanEntry& w = result_.entries[size_t(result_.winner)];
    result_.winner_scenario = (fs::path(result_.folder) / "winner.json").string();
    write_plan_scenario(spec_.scenario, joined(common_, w.candidate.assignments()), base_.name + "-" + w.candidate.name,
                        result_.winner_scenario);
    const std::string preset = w.candidate.preset.empty() ? base_.collective_preset : w.candidate.preset;
    result_.deploy_command = "uniference launch -n " + std::to_string(w.candidate.devices()) + " " +
                             result_.winner_scenario + (preset == "nccl" ? " --backend nccl" : "");
  }

  const PlanSpec& spec_;
  const PlanOptions& options_;
  const Clock::time_point started_;
  const Scenario base_;  // the spec's base scenario, its sections applied
  const bool serving_;
  const Assignments common_;  // what every candidate's scenario shares
  ProgressLine progress_;
  CandidateSpace space_;
  PlanResult result_;
  int pruned_ = 0;
};

}  // namespace

PlanResult run_plan(const PlanSpec& spec, const PlanOptions& options) { return Planner(spec, options).run(); }

}  // namespace uniference
