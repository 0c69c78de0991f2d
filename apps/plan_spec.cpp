#include "apps/plan_spec.h"

#include "apps/json_checker.h"
#include "apps/scenario.h"
#include "apps/scenario_files.h"
#include "apps/units.h"

#include <cmath>
#include <filesystem>

namespace uniference {

namespace fs = std::filesystem;

const char* objective_name(PlanObjective objective) {
  switch (objective) {
    case PlanObjective::kTpot: return "tpot";
    case PlanObjective::kTtft: return "ttft";
    case PlanObjective::kGoodput: return "goodput";
    case PlanObjective::kDevices: return "devices";
  }
  return "?";
}

bool parse_bytes(const nlohmann::json& value, uint64_t* bytes) {
  if (value.is_number_integer()) {  // parsed text gives unsigned numbers, C++ signed ones
    if (value.get<int64_t>() <= 0 && !value.is_number_unsigned()) return false;
    *bytes = value.get<uint64_t>();
    return *bytes > 0;
  }
  if (!value.is_string()) return false;
  const std::string text = value.get<std::string>();
  size_t used = 0;
  const double number = leading_number(text, &used);
  if (used == 0 || !(number > 0)) return false;
  static const std::vector<std::pair<std::string, double>> units = {
      {"B", 1},        {"kB", 1e3},           {"MB", 1e6},           {"GB", 1e9},
      {"TB", 1e12},    {"KiB", 1024.0},       {"MiB", 1048576.0},    {"GiB", 1073741824.0},
      {"TiB", 1099511627776.0}};
  for (const auto& [unit, scale] : units) {
    if (text.substr(used) != unit) continue;
    const double b = std::round(number * scale);
    if (b >= 1.8e19) return false;
    *bytes = uint64_t(b);
    return true;
  }
  return false;
}

namespace {

int64_t duration(const Checker& check, const nlohmann::json& value, const std::string& at) {
  int64_t ns = 0;
  if (!value.is_string() || !parse_duration(value.get<std::string>(), &ns) || ns <= 0) {
    check.fail_found(at, "a positive duration (\"100ms\", \"5ms\")", value);
  }
  return ns;
}

std::vector<std::string> names(const Checker& check, const nlohmann::json& value, const std::string& at) {
  if (!value.is_array() || value.empty()) check.fail_found(at, "a non-empty array of names", value);
  std::vector<std::string> list;
  for (size_t i = 0; i < value.size(); ++i) list.push_back(check.string(value[i], at + "/" + std::to_string(i)));
  return list;
}

}  // namespace

std::vector<std::pair<std::string, nlohmann::json>> PlanSpec::base_overrides() const {
  std::vector<std::pair<std::string, nlohmann::json>> set;
  if (!model.is_null()) set.emplace_back("/model", model);
  if (!workload.is_null()) set.emplace_back("/workload", workload);
  if (!compute.is_null()) set.emplace_back("/compute", compute);
  if (!profile.empty()) set.emplace_back("/devices/profile", profile);
  if (seed >= 0) set.emplace_back("/seed", seed);
  return set;
}

std::vector<std::string> as_overrides(const std::vector<std::pair<std::string, nlohmann::json>>& set) {
  std::vector<std::string> assignments;
  // Values as JSON text, so that the string "10" stays a string.
  for (const auto& [pointer, value] : set) assignments.push_back(pointer + "=" + value.dump());
  return assignments;
}

PlanSpec load_plan_spec(const std::string& path) {
  const nlohmann::json doc = read_json_file(path, "the plan spec");
  const Checker check(path);
  check.object(doc, "", {"$schema", "description", "scenario", "model", "workload", "compute", "devices",
                         "objective", "slo", "search", "check", "seed", "out"});
  PlanSpec spec;
  spec.source = path;
  const nlohmann::json& scenario = check.require(doc, "", "scenario", "the base scenario's file");
  spec.scenario = beside_scenario(path, check.string(scenario, "/scenario"));
  if (!fs::is_regular_file(spec.scenario)) check.fail("/scenario", "no such file: " + spec.scenario);

  // The sections' keys are the scenario's: checked below, with the base.
  const std::pair<const char*, nlohmann::json*> sections[] = {
      {"model", &spec.model}, {"workload", &spec.workload}, {"compute", &spec.compute}};
  for (const auto& [section, into] : sections) {
    if (const nlohmann::json* value = Checker::find(doc, section)) {
      if (!value->is_object()) check.fail_found(std::string("/") + section, "an object, as a scenario's", *value);
      *into = *value;
    }
  }
  // A replay table is named relative to the spec, as the spec's other files are; the base reads
  // it relative to its own folder, so the name is rewritten to lead there from the base's.
  if (spec.compute.is_object() && spec.compute.contains("table") && spec.compute["table"].is_string()) {
    spec.compute["table"] = fs::relative(beside_scenario(path, spec.compute["table"].get<std::string>()),
                                         fs::absolute(spec.scenario).parent_path())
                                .string();
  }
  if (const nlohmann::json* devices = Checker::find(doc, "devices")) {
    check.object(*devices, "/devices", {"count", "memory", "profile"});
    if (const nlohmann::json* count = Checker::find(*devices, "count")) {
      spec.devices = check.positive_int(*count, "/devices/count");
    }
    if (const nlohmann::json* memory = Checker::find(*devices, "memory")) {
      if (!parse_bytes(*memory, &spec.device_memory)) {
        check.fail_found("/devices/memory", "a size in bytes (\"80GB\", \"24GiB\", or a number)", *memory);
      }
    }
    if (const nlohmann::json* profile = Checker::find(*devices, "profile")) {
      spec.profile = check.string(*profile, "/devices/profile");
    }
  }
  if (const nlohmann::json* objective = Checker::find(doc, "objective")) {
    const std::string name = check.choice(*objective, "/objective", {"tpot", "ttft", "goodput", "devices"});
    spec.objective = name == "ttft"      ? PlanObjective::kTtft
                     : name == "goodput" ? PlanObjective::kGoodput
                     : name == "devices" ? PlanObjective::kDevices
                                         : PlanObjective::kTpot;
  }
  if (const nlohmann::json* slo = Checker::find(doc, "slo")) {
    check.object(*slo, "/slo", {"ttft", "tpot"});
    if (const nlohmann::json* ttft = Checker::find(*slo, "ttft")) spec.slo_ttft_ns = duration(check, *ttft, "/slo/ttft");
    if (const nlohmann::json* tpot = Checker::find(*slo, "tpot")) spec.slo_tpot_ns = duration(check, *tpot, "/slo/tpot");
  }
  if ((spec.objective == PlanObjective::kDevices || spec.objective == PlanObjective::kGoodput) &&
      spec.slo_ttft_ns == 0 && spec.slo_tpot_ns == 0) {
    check.fail(doc.contains("slo") ? "/slo" : "/objective",
               std::string("objective \"") + objective_name(spec.objective) +
                   "\" counts what meets targets: give /slo/ttft, /slo/tpot or both");
  }
  if (const nlohmann::json* search = Checker::find(doc, "search")) {
    check.object(*search, "/search", {"strategies", "presets", "placements", "micro_batches"});
    if (const nlohmann::json* v = Checker::find(*search, "strategies")) spec.strategies = names(check, *v, "/search/strategies");
    if (const nlohmann::json* v = Checker::find(*search, "presets")) spec.presets = names(check, *v, "/search/presets");
    if (const nlohmann::json* v = Checker::find(*search, "placements")) {
      if (!v->is_array() || v->empty()) check.fail_found("/search/placements", "a non-empty array of names", *v);
      for (size_t i = 0; i < v->size(); ++i) {
        spec.placements.push_back(check.choice((*v)[i], "/search/placements/" + std::to_string(i), {"packed", "spread"}));
      }
    }
    if (const nlohmann::json* v = Checker::find(*search, "micro_batches")) {
      if (!v->is_array() || v->empty()) check.fail_found("/search/micro_batches", "a non-empty array of counts", *v);
      for (size_t i = 0; i < v->size(); ++i) {
        spec.micro_batches.push_back(check.positive_int((*v)[i], "/search/micro_batches/" + std::to_string(i)));
      }
    }
  }
  if (const nlohmann::json* count = Checker::find(doc, "check")) {
    spec.check = int(check.integer(*count, "/check", 0, 1000, "a count from 0 to 1000"));
  }
  if (const nlohmann::json* seed = Checker::find(doc, "seed")) {
    spec.seed = int64_t(check.integer(*seed, "/seed", 0, INT64_MAX, "a whole number of 0 or more"));
  }
  if (const nlohmann::json* out = Checker::find(doc, "out")) {
    spec.out = beside_scenario(path, check.string(*out, "/out"));
  }

  // The base with the spec's sections: a mistake in them is reported where the spec wrote it.
  try {
    load_scenario(spec.scenario, as_overrides(spec.base_overrides()));
  } catch (const ScenarioError& e) {
    // What the spec set, it reports at its own pointer; the rest is the base's mistake.
    for (const auto& [pointer, value] : spec.base_overrides()) {
      if (e.pointer() == pointer || e.pointer().rfind(pointer + "/", 0) == 0) {
        throw ScenarioError(path, e.pointer(), e.detail());
      }
    }
    throw;
  }
  return spec;
}

}  // namespace uniference
