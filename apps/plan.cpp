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
#include <functional>
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
  f.wall_s = o.wall_s;
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
    f.memory_bytes = std::max<uint64_t>(f.memory_bytes, rank["memory"].value("total_bytes", uint64_t(0)));
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

PlanResult run_plan(const PlanSpec& spec, const PlanOptions& options) {
  const auto started = Clock::now();
  PlanResult result;
  result.folder = !options.out.empty() ? options.out
                  : !spec.out.empty()  ? spec.out
                                       : (fs::path("out") / "plans" / fs::path(spec.source).stem()).string();
  fs::create_directories(result.folder);

  const Scenario base = load_scenario(spec.scenario, as_overrides(spec.base_overrides()));
  const bool serving = base.workload.is_serving();
  const Assignments common = common_assignments(spec, base);

  CandidateSpace space;
  space.exact_devices = !base.devices.ranks.empty();
  space.devices = spec.devices > 0 ? spec.devices : base.parallel.world();
  // The plan to beat: the base scenario as written, with tensor parallelism over every device.
  ParallelDegrees default_layout;
  default_layout.strategy = "tp";
  default_layout.tp = space.devices;
  const CheckedBase first_fit = checked_base(spec, space.devices);
  const CheckedCompute& base_compute = first_fit.compute;
  if (space.exact_devices && spec.devices > 0 && spec.devices != int(base.devices.ranks.size())) {
    throw ScenarioError(spec.source, "/devices/count",
                        "the base scenario lists " + std::to_string(base.devices.ranks.size()) +
                            " devices one by one (/devices/ranks); plan over those, or give the base one profile");
  }
  space.layers = base_compute.model.n_layers;
  space.moe = base_compute.model.is_moe();
  space.strategies = spec.strategies.empty() ? strategies().names() : spec.strategies;
  for (size_t i = 0; i < space.strategies.size(); ++i) {
    if (strategies().find(space.strategies[i]) == nullptr) {
      throw ScenarioError(spec.source, "/search/strategies/" + std::to_string(i),
                          "no strategy \"" + space.strategies[i] + "\"");
    }
  }
  space.presets = spec.presets.empty() ? std::vector<std::string>{""} : spec.presets;
  space.micro_batches = spec.micro_batches.empty() ? std::vector<int>{1} : spec.micro_batches;
  space.uneven_splits = space.exact_devices;

  // Placement matters on a fabric of switch groups; elsewhere every endpoint is alike.
  {
    Scenario probe = first_fit.scenario;
    if (!probe.network.placement.packed && int(probe.network.placement.endpoint.size()) != probe.parallel.world()) {
      probe.network.placement.packed = true;
      probe.network.placement.endpoint.clear();
    }
    const TopologyShape shape = topology_shape(check_scenario(probe).network, uint32_t(space.devices));
    space.endpoints = shape.endpoints;
    space.group = shape.group;
  }
  space.placements = space.group == 0 ? std::vector<std::string>{""}
                     : spec.placements.empty() ? std::vector<std::string>{"packed", "spread"}
                                               : spec.placements;

  PlanEntry default_entry;
  default_entry.candidate.name = "default-tp" + std::to_string(space.devices);
  default_entry.candidate.parallel = default_layout;
  default_entry.candidate.is_default = true;
  if (!base.network.placement.packed && int(base.network.placement.endpoint.size()) != space.devices) {
    default_entry.candidate.placement = "packed";
  }
  result.entries.push_back(default_entry);
  for (PlanCandidate& c : enumerate_candidates(space)) {
    if (c.is_default) continue;  // the default entry above stands for it
    PlanEntry e;
    e.candidate = std::move(c);
    result.entries.push_back(std::move(e));
  }
  result.default_plan = 0;

  // Check each like a scenario, then its memory against its devices'.
  ProgressLine progress(options.quiet);
  int pruned = 0;
  for (PlanEntry& e : result.entries) {
    try {
      const Scenario s = load_scenario(spec.scenario, as_overrides(joined(common, e.candidate.assignments())));
      const CheckedCompute checked = check_compute(s);
      MemoryEstimateInputs in;
      in.model = checked.model;
      in.strategy = checked.degrees.strategy;
      in.degrees = checked.degrees;
      in.workload = WorkloadShape{s.workload.batch, s.workload.prompt_tokens, s.workload.new_tokens};
      if (serving) in.serving = checked.cache;
      const std::vector<MemoryUse> use = estimate_memory(in);
      for (size_t r = 0; r < use.size(); ++r) {
        const uint64_t limit = spec.device_memory > 0 ? spec.device_memory
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
    if (!e.pruned.empty()) ++pruned;
  }

  if (options.dry_run) {
    write_plan_outputs(spec, result);
    return result;
  }

  // The fast estimate: the flow level with shape-only compute, where the network and the
  // compute mode allow them (measured compute needs real tensors to time).
  Assignments estimate_set = {{"/outputs", {{"trace", false}, {"results", true}, {"link_samples", 0}}}};
  // Asked of the first candidate that passed the checks, so that only the network and compute
  // can refuse.
  const auto first_valid = std::find_if(result.entries.begin(), result.entries.end(),
                                        [](const PlanEntry& e) { return e.pruned.empty(); });
  if (first_valid == result.entries.end()) {
    write_plan_outputs(spec, result);
    throw ScenarioError(spec.source, "", "no candidate fits the model, workload and memory (plan.csv says why)");
  }
  const Assignments probe = joined(common, first_valid->candidate.assignments());
  const auto refusal = [&](const Assignments& extra) -> std::optional<ScenarioError> {
    try {
      check_scenario(load_scenario(spec.scenario, as_overrides(joined(joined(probe, estimate_set), extra))));
    } catch (const ScenarioError& error) {
      return error;
    }
    return std::nullopt;
  };
  if (const auto error = refusal({{"/compute/shapes_only", true}})) {
    result.estimate_note = "shape-only compute is refused (" + error->pointer() + ": " + error->detail() +
                           "), so candidates are estimated with the scenario's compute. ";
  } else {
    estimate_set.emplace_back("/compute/shapes_only", true);
  }
  result.estimate_level = "flow";
  const Assignments flow = {{"/network/transport/level", "flow"}};
  const Assignments flow_ecmp = {{"/network/transport/level", "flow"}, {"/network/switch/routing", "ecmp"}};
  if (const auto error = refusal(flow)) {
    // Adaptive routing spreads a pair's packets over paths as queues build, which flows do not
    // model; ECMP's one path per pair is the estimate's nearest, and the check routes adaptively.
    if (error->pointer() == "/network/switch/routing" && !refusal(flow_ecmp)) {
      estimate_set = joined(estimate_set, flow_ecmp);
      result.estimate_note += "The estimate routes by ECMP where the scenario routes adaptively (the flow level "
                              "follows one path per pair); the check routes as the scenario does. ";
    } else {
      result.estimate_level = "packet";
      result.estimate_note += "The flow level refuses this network (" + error->pointer() + ": " + error->detail() +
                              "), so every candidate is estimated at packet level. ";
    }
  } else {
    estimate_set = joined(estimate_set, flow);
  }
  if (!serving) {
    result.estimate_note += "Estimates simulate one data-parallel replica alone (the one dealt the most prompts); "
                            "contention between replicas shows in the check.";
  }
  if (!options.quiet) {
    std::cerr << "uniference: plan of " << result.entries.size() << " candidates on " << space.devices
              << " devices, " << pruned << " pruned before simulation; estimating the rest at the "
              << result.estimate_level << " level"
              << (result.estimate_level == "packet" ? " (the flow level refuses this network)" : "") << "\n";
  }

  const auto deadline = [&](double share) -> std::optional<Clock::time_point> {
    if (options.budget_s <= 0) return std::nullopt;
    return started + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options.budget_s * share));
  };
  // Runs one stage over `chosen` entries; fills their figures (estimate or packet).
  const auto run_stage = [&](const std::string& stage, const std::vector<size_t>& chosen,
                             const std::function<Assignments(const PlanCandidate&)>& layout, const Assignments& extra,
                             PlanFigures PlanEntry::*figures, double budget_share) {
    nlohmann::json points = nlohmann::json::array();
    for (size_t i : chosen) {
      nlohmann::json set = nlohmann::json::object();
      for (const auto& [pointer, value] : joined(joined(common, layout(result.entries[i].candidate)), extra)) {
        set[pointer] = value;
      }
      points.push_back({{"name", result.entries[i].candidate.name}, {"set", set}});
    }
    if (chosen.empty()) return;
    const SweepSpec sweep = stage_sweep((fs::path(result.folder) / stage).string(), spec.scenario, points);
    const std::vector<SweepPoint> listed = sweep_points(sweep);
    const PlanEntry* best = nullptr;
    size_t done = 0, failed = 0;
    const auto update = [&](size_t i, const SweepPoint& point) {
      PlanEntry& e = result.entries[i];
      e.*figures = read_figures(sweep, point, spec, serving);
      if (figures == &PlanEntry::estimate && !serving && e.candidate.parallel.dp > 1) {
        // One replica was simulated: the others, dealt as many prompts or one fewer, finish no
        // later, so the layout's throughput is the batch's share of it.
        const double dp = e.candidate.parallel.dp, batch = double(base.workload.batch);
        const double share = batch / std::ceil(batch / dp);
        e.estimate.tokens_per_s *= share;
        e.estimate.goodput_per_s *= share;
      }
      ++done;
      if (!(e.*figures).ran) ++failed;
      if ((e.*figures).ran && (best == nullptr || ranks_before(e, e.*figures, *best, (*best).*figures, spec.objective))) {
        best = &e;
      }
      progress.step(done, chosen.size(),
                    stage + ": " + std::to_string(pruned) + " pruned, " + std::to_string(failed) + " failed" +
                        (best ? ", best so far " + best->candidate.name + " (" +
                                    figures_text(best->*figures, spec.objective) + ")"
                              : std::string()));
    };
    // Points recorded by an earlier, stopped plan count at once.
    for (size_t k = 0; k < listed.size(); ++k) {
      if (read_point_outcome(sweep, listed[k]).recorded) update(chosen[k], listed[k]);
    }
    SweepRunOptions run;
    run.jobs = options.jobs;
    run.quiet = true;
    run.deadline = deadline(budget_share);
    run.on_end = [&](const SweepPoint& point, const PointOutcome&) {
      update(chosen[size_t(point.number - 1)], point);
    };
    run_sweep_points(options.binary, sweep, run);
    for (size_t k = 0; k < listed.size(); ++k) {
      if (!read_point_outcome(sweep, listed[k]).recorded) result.budget_reached = true;
    }
  };

  std::vector<size_t> to_estimate;
  for (size_t i = 0; i < result.entries.size(); ++i) {
    if (result.entries[i].pruned.empty()) to_estimate.push_back(i);
  }
  // A budget keeps a quarter of itself for the packet-level check.
  const auto estimated_layout = [&](const PlanCandidate& c) {
    return serving ? c.assignments() : one_replica(c, base.workload.batch);
  };
  run_stage("estimate", to_estimate, estimated_layout, estimate_set, &PlanEntry::estimate, 0.75);

  // The best few by the estimate, and the default plan, simulated as the spec's scenario says.
  std::vector<size_t> ranked;
  for (size_t i : to_estimate) {
    if (result.entries[i].estimate.ran) ranked.push_back(i);
  }
  std::sort(ranked.begin(), ranked.end(), [&](size_t a, size_t b) {
    return ranks_before(result.entries[a], result.entries[a].estimate, result.entries[b], result.entries[b].estimate,
                        spec.objective);
  });
  std::vector<size_t> to_check(ranked.begin(), ranked.begin() + std::min<size_t>(ranked.size(), size_t(spec.check)));
  if (result.entries[0].pruned.empty() && std::find(to_check.begin(), to_check.end(), 0) == to_check.end()) {
    to_check.push_back(0);
  }
  run_stage("check", to_check, [](const PlanCandidate& c) { return c.assignments(); },
            {{"/outputs", {{"trace", false}, {"results", true}}}}, &PlanEntry::packet, 1.0);
  progress.clear();

  for (size_t i : to_check) {
    const PlanEntry& e = result.entries[i];
    if (!e.packet.ran) continue;
    if (result.winner < 0 ||
        ranks_before(e, e.packet, result.entries[size_t(result.winner)], result.entries[size_t(result.winner)].packet,
                     spec.objective)) {
      result.winner = int(i);
    }
  }
  if (result.winner >= 0) {
    const PlanEntry& w = result.entries[size_t(result.winner)];
    result.winner_scenario = (fs::path(result.folder) / "winner.json").string();
    write_plan_scenario(spec.scenario, joined(common, w.candidate.assignments()),
                        base.name + "-" + w.candidate.name, result.winner_scenario);
    const std::string preset = w.candidate.preset.empty() ? base.collective_preset : w.candidate.preset;
    result.deploy_command = "uniference launch -n " + std::to_string(w.candidate.devices()) + " " +
                            result.winner_scenario + (preset == "nccl" ? " --backend nccl" : "");
  }
  write_plan_outputs(spec, result);
  return result;
}

}  // namespace uniference
