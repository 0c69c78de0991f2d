#include "apps/plan_candidates.h"

#include <algorithm>
#include <set>

namespace uniference {

std::vector<std::pair<std::string, nlohmann::json>> PlanCandidate::assignments() const {
  nlohmann::json layout = {{"strategy", parallel.strategy}};
  for (const auto& [key, value] : {std::pair<const char*, int>{"tp", parallel.tp}, {"pp", parallel.pp},
                                   {"dp", parallel.dp}, {"sp", parallel.sp}, {"ep", parallel.ep},
                                   {"micro_batches", parallel.micro_batches}}) {
    if (value != 1) layout[key] = value;
  }
  if (!parallel.stages.empty()) layout["stages"] = parallel.stages;
  std::vector<std::pair<std::string, nlohmann::json>> set = {{"/parallel", layout}};
  if (!preset.empty()) set.emplace_back("/collectives/preset", preset);
  if (placement == "packed") set.emplace_back("/network/placement", "packed");
  if (placement == "spread") set.emplace_back("/network/placement", endpoints);
  return set;
}

std::vector<int> degree_choices(int n) {
  std::vector<int> choices;
  if (n < 1) return choices;
  for (int d = 1; d <= n; d = d < 8 ? d + 1 : d * 2) choices.push_back(d);
  if (choices.back() != n) choices.push_back(n);
  return choices;
}

std::vector<uint32_t> spread_endpoints(int ranks, uint32_t endpoints, uint32_t group) {
  const uint32_t size = group == 0 ? std::max(endpoints, 1u) : group;
  const uint32_t groups = std::max(1u, (endpoints + size - 1) / size);
  std::vector<uint32_t> placed;
  std::vector<uint32_t> used(groups, 0);  // endpoints taken in each group
  for (int r = 0; r < ranks; ++r) {
    uint32_t g = uint32_t(r) % groups;
    // A full group passes its turn to the next with room.
    for (uint32_t tried = 0; tried < groups && (g * size + used[g] >= std::min(endpoints, (g + 1) * size)); ++tried) {
      g = (g + 1) % groups;
    }
    placed.push_back(g * size + used[g]++);
  }
  return placed;
}

namespace {

// The model-parallel layouts of one strategy (degrees other than dp), smallest first.
std::vector<ParallelDegrees> layouts(const std::string& strategy, const CandidateSpace& space) {
  std::vector<ParallelDegrees> out;
  const auto make = [&](int tp, int pp, int sp, int ep) {
    ParallelDegrees d;
    d.strategy = strategy;
    d.tp = tp, d.pp = pp, d.sp = sp, d.ep = ep;
    return d;
  };
  const std::vector<int> degrees = degree_choices(space.devices);
  if (strategy == "dp") out.push_back(make(1, 1, 1, 1));
  for (int n : degrees) {
    if (n < 2) continue;
    if (strategy == "tp") out.push_back(make(n, 1, 1, 1));
    if (strategy == "voltage" || strategy == "kilovolts") out.push_back(make(1, 1, n, 1));
    if (strategy == "ep" && space.moe) out.push_back(make(1, 1, 1, n));
    if (strategy == "pp" && n <= space.layers) out.push_back(make(1, n, 1, 1));
    if (strategy == "tp-pp") {
      for (int pp : degrees) {
        if (pp >= 2 && n * pp <= space.devices && pp <= space.layers) out.push_back(make(n, pp, 1, 1));
      }
    }
  }
  return out;
}

// A pipeline's stage splits: the even one (no stages key), and with `uneven` for two stages
// every other split up to 16 layers, or eight spread over the layers beyond.
std::vector<std::vector<int64_t>> stage_splits(int pp, int64_t layers, bool uneven) {
  std::vector<std::vector<int64_t>> splits = {{}};
  if (!uneven || pp != 2 || layers < 3) return splits;
  const int64_t even = (layers + 1) / 2;
  const int64_t step = layers <= 16 ? 1 : std::max<int64_t>(1, layers / 8);
  for (int64_t first = 1; first < layers; first += step) {
    if (first != even) splits.push_back({first, layers - first});
  }
  return splits;
}

std::string stages_text(const std::vector<int64_t>& stages) {
  std::string text;
  for (int64_t s : stages) text += (text.empty() ? "" : ".") + std::to_string(s);
  return text;
}

// "tp2-pp2-dp2-s3.13-mb4": the degrees a layout sets, in the order a user would say them.
std::string layout_name(const ParallelDegrees& d) {
  std::string name;
  if (d.strategy == "dp") name = "dp" + std::to_string(d.dp);
  else if (d.strategy == "tp") name = "tp" + std::to_string(d.tp);
  else if (d.strategy == "pp") name = "pp" + std::to_string(d.pp);
  else if (d.strategy == "tp-pp") name = "tp" + std::to_string(d.tp) + "-pp" + std::to_string(d.pp);
  else if (d.strategy == "ep") name = "ep" + std::to_string(d.ep);
  else name = d.strategy + std::to_string(d.sp);
  if (d.strategy != "dp" && d.dp > 1) name += "-dp" + std::to_string(d.dp);
  if (!d.stages.empty()) name += "-s" + stages_text(d.stages);
  if (d.micro_batches > 1) name += "-mb" + std::to_string(d.micro_batches);
  return name;
}

}  // namespace

std::vector<PlanCandidate> enumerate_candidates(const CandidateSpace& space) {
  std::vector<PlanCandidate> out;
  std::set<std::string> names;
  const auto add = [&](PlanCandidate c) {
    if (names.insert(c.name).second) out.push_back(std::move(c));
  };
  const auto finish = [&](ParallelDegrees d, bool is_default) {
    for (const std::string& preset : space.presets) {
      for (const std::string& placement : space.placements) {
        // One rank sits alike anywhere.
        if (d.world() == 1 && placement == "spread") continue;
        PlanCandidate c;
        c.parallel = d;
        c.preset = preset;
        c.placement = placement;
        c.is_default = is_default;
        if (placement == "spread") c.endpoints = spread_endpoints(d.world(), space.endpoints, space.group);
        c.name = layout_name(d);
        if (!preset.empty() && space.presets.size() > 1) c.name += "-" + preset;
        if (!placement.empty() && space.placements.size() > 1) c.name += "-" + placement;
        add(std::move(c));
        is_default = false;  // the first preset and placement only
      }
    }
  };
  // The plan to beat first: Megatron's default, tensor parallelism over every device.
  if (space.devices >= 2) {
    ParallelDegrees d;
    d.strategy = "tp";
    d.tp = space.devices;
    finish(d, true);
  }
  for (const std::string& strategy : space.strategies) {
    for (const ParallelDegrees& layout : layouts(strategy, space)) {
      const int model_ranks = layout.world();
      for (int dp : degree_choices(space.devices / model_ranks)) {
        if (space.exact_devices && model_ranks * dp != space.devices) continue;
        const bool pipeline = layout.pp > 1;
        for (const std::vector<int64_t>& stages : stage_splits(layout.pp, space.layers, space.uneven_splits)) {
          for (int micro : pipeline ? space.micro_batches : std::vector<int>{1}) {
            ParallelDegrees d = layout;
            d.dp = dp;
            d.stages = stages;
            d.micro_batches = micro;
            finish(d, false);
          }
        }
      }
    }
  }
  return out;
}

}  // namespace uniference
