#include "apps/scenario.h"

#include "apps/json_checker.h"
#include "apps/scenario_files.h"
#include "apps/scenario_jobs.h"
#include "apps/scenario_keys.h"
#include "apps/scenario_network.h"
#include "apps/scenario_values.h"
#include "bridge/rank_names.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

namespace uniference {

const char* compute_mode_name(ComputeMode mode) {
  switch (mode) {
    case ComputeMode::kModeled:
      return "modeled";
    case ComputeMode::kReplay:
      return "replay";
    case ComputeMode::kMeasured:
      return "measured";
  }
  return "modeled";
}

namespace {


ModelSpec read_model(const Checker& check, const json& value, const std::string& pointer) {
  check.object(value, pointer, scenario_keys_under("/model"));
  ModelSpec model;
  model.preset = check.string(check.require(value, pointer, "preset", "a model preset name"),
                              child(pointer, "preset"));
  if (const json* v = Checker::find(value, "layers")) {
    model.layers = check.positive_int(*v, child(pointer, "layers"));
  }
  return model;
}

ParallelDegrees read_parallel(const Checker& check, const json& value, const std::string& pointer) {
  check.object(value, pointer, scenario_keys_under("/parallel"));
  ParallelDegrees parallel;
  parallel.strategy = check.string(check.require(value, pointer, "strategy", "a strategy name"),
                                   child(pointer, "strategy"));
  const auto degree = [&](const char* key, int& out) {
    if (const json* v = Checker::find(value, key)) out = check.positive_int(*v, child(pointer, key));
  };
  degree("tp", parallel.tp);
  degree("pp", parallel.pp);
  degree("dp", parallel.dp);
  degree("sp", parallel.sp);
  degree("ep", parallel.ep);
  degree("micro_batches", parallel.micro_batches);
  if (const json* v = Checker::find(value, "dispatch")) {
    parallel.dispatch = check.string(*v, child(pointer, "dispatch"));
    parallel.dispatch_written = true;
  }
  const int64_t ranks = int64_t(parallel.tp) * parallel.pp * parallel.dp * parallel.sp * parallel.ep;
  if (ranks > 1000000) {
    check.fail(pointer, "tp x pp x dp x sp x ep is " + std::to_string(ranks) +
                            " ranks; at most 1000000 are supported");
  }
  if (const json* v = Checker::find(value, "stages")) {
    const std::string at = child(pointer, "stages");
    if (!v->is_array() || v->empty()) check.fail_found(at, "a non-empty array of layer counts", *v);
    for (size_t i = 0; i < v->size(); ++i) {
      parallel.stages.push_back(check.positive_int((*v)[i], child(at, std::to_string(i))));
    }
  }
  return parallel;
}

// A length: a positive integer, or {"distribution": ..., its keys}. `column` is the trace
// column's default name.
LengthSpec read_length(const Checker& check, const json& value, const std::string& pointer,
                       const std::string& source, const std::string& column) {
  LengthSpec spec;
  if (!value.is_object()) {
    spec.value = check.positive_int(value, pointer);
    return spec;
  }
  const LengthDistribution& distribution = [&]() -> const LengthDistribution& {
    const std::string at = child(pointer, "distribution");
    const std::string name = check.choice(
        check.require(value, pointer, "distribution", "a length distribution name"), at,
        length_distributions().names());
    return length_distributions().at(name);
  }();
  spec.distribution = distribution.name;
  std::vector<std::string> known = distribution.keys;
  known.insert(known.begin(), "distribution");
  check.object(value, pointer, known);
  const auto whole = [&](const char* key) {
    return int64_t(check.positive_int(check.require(value, pointer, key, "a positive integer"),
                                      child(pointer, key)));
  };
  if (spec.distribution == "fixed") spec.value = whole("value");
  if (spec.distribution == "uniform" || spec.distribution == "lognormal") {
    spec.min = whole("min");
    spec.max = whole("max");
    if (spec.max < spec.min) {
      check.fail(child(pointer, "max"), "is below min (" + std::to_string(spec.min) + ")");
    }
  }
  if (spec.distribution == "lognormal") {
    const std::string median_at = child(pointer, "median"), sigma_at = child(pointer, "sigma");
    spec.median = check.number(check.require(value, pointer, "median", "a number"), median_at);
    if (!(spec.median > 0)) check.fail_found(median_at, "a number above 0", value["median"]);
    spec.sigma = check.number(check.require(value, pointer, "sigma", "a number"), sigma_at);
    if (!(spec.sigma >= 0) || spec.sigma > 10) {
      check.fail_found(sigma_at, "a number from 0 to 10", value["sigma"]);
    }
  }
  if (spec.distribution == "trace") {
    const std::string file =
        check.string(check.require(value, pointer, "file", "a CSV file name"), child(pointer, "file"));
    std::string name = column;
    if (const json* v = Checker::find(value, "column")) name = check.string(*v, child(pointer, "column"));
    spec.trace = read_length_column(check, pointer, beside_scenario(source, file), name);
  }
  return spec;
}

// The longest length a spec can give.
int64_t longest(const LengthSpec& spec) {
  if (spec.distribution == "fixed") return spec.value;
  if (spec.distribution == "trace") return *std::max_element(spec.trace.begin(), spec.trace.end());
  return spec.max;
}

int64_t duration_ns(const Checker& check, const json& value, const std::string& pointer) {
  int64_t ns = 0;
  if (!value.is_string() || !parse_duration(value.get<std::string>(), &ns) || ns <= 0) {
    check.fail_found(pointer, "a positive duration such as \"500ms\" or \"60s\"", value);
  }
  return ns;
}

ServingSpec read_serving(const Checker& check, const json& value, const std::string& pointer,
                         const std::string& source) {
  ServingSpec serving;
  const std::string arrivals_at = child(pointer, "arrivals");
  const json& arrivals = check.require(value, pointer, "arrivals", "an object");
  check.object(arrivals, arrivals_at, scenario_keys_under("/workload/arrivals"));
  if (const json* v = Checker::find(arrivals, "process")) {
    check.choice(*v, child(arrivals_at, "process"), {"poisson"});
  }
  const std::string rate_at = child(arrivals_at, "rate");
  serving.arrivals.rate_per_s =
      check.number(check.require(arrivals, arrivals_at, "rate", "requests per second"), rate_at);
  if (!(serving.arrivals.rate_per_s > 0) || serving.arrivals.rate_per_s > 1e9) {
    check.fail_found(rate_at, "requests per second, above 0", arrivals["rate"]);
  }
  const json* count = Checker::find(arrivals, "requests");
  const json* duration = Checker::find(arrivals, "duration");
  if ((count == nullptr) == (duration == nullptr)) {
    check.fail(arrivals_at, "give exactly one of \"requests\" (how many) and \"duration\" (how long)");
  }
  if (count != nullptr) {
    serving.arrivals.count =
        check.integer(*count, child(arrivals_at, "requests"), 1, 10'000'000, "1 to 10000000 requests");
  } else {
    serving.arrivals.duration_ns = duration_ns(check, *duration, child(arrivals_at, "duration"));
  }
  serving.prompt = read_length(check, check.require(value, pointer, "prompt_tokens", "a length"),
                               child(pointer, "prompt_tokens"), source, "prompt_tokens");
  serving.output = read_length(check, check.require(value, pointer, "new_tokens", "a length"),
                               child(pointer, "new_tokens"), source, "new_tokens");
  if (const json* v = Checker::find(value, "scheduler")) {
    const std::string at = child(pointer, "scheduler");
    check.object(*v, at, scenario_keys_under("/workload/scheduler"));
    if (const json* name = Checker::find(*v, "name")) {
      serving.scheduler.name = check.choice(*name, child(at, "name"), schedulers().names());
    }
    if (const json* n = Checker::find(*v, "max_batch")) {
      serving.scheduler.max_batch = check.integer(*n, child(at, "max_batch"), 1, 4096, "1 to 4096");
    }
    if (const json* n = Checker::find(*v, "kv_cache_tokens")) {
      serving.scheduler.kv_cache_tokens =
          check.integer(*n, child(at, "kv_cache_tokens"), 1, int64_t(1) << 40, "a positive integer");
    }
  }
  if (const json* v = Checker::find(value, "disaggregation")) {
    const std::string at = child(pointer, "disaggregation");
    check.object(*v, at, scenario_keys_under("/workload/disaggregation"));
    serving.disaggregation.prefill =
        check.positive_int(check.require(*v, at, "prefill", "a positive integer"), child(at, "prefill"));
    serving.disaggregation.decode =
        check.positive_int(check.require(*v, at, "decode", "a positive integer"), child(at, "decode"));
  }
  if (const json* v = Checker::find(value, "slo")) {
    const std::string at = child(pointer, "slo");
    check.object(*v, at, scenario_keys_under("/workload/slo"));
    if (const json* t = Checker::find(*v, "ttft")) serving.slo_ttft_ns = duration_ns(check, *t, child(at, "ttft"));
    if (const json* t = Checker::find(*v, "tpot")) serving.slo_tpot_ns = duration_ns(check, *t, child(at, "tpot"));
  }
  return serving;
}

WorkloadSpec read_workload(const Checker& check, const json& value, const std::string& pointer,
                           const std::string& source) {
  WorkloadSpec workload;
  if (const json* v = Checker::find(value, "kind")) {
    workload.kind = check.choice(*v, child(pointer, "kind"), workload_kinds().names());
  } else if (const json* batch = Checker::find(value, "batch");
             batch != nullptr && !(batch->is_number_integer() && batch->get<int64_t>() == 1)) {
    workload.kind = "batch";
  }
  check.object(value, pointer, scenario_keys_under("/workload"));
  if (workload.is_serving()) {
    if (Checker::find(value, "batch") != nullptr) {
      check.fail(child(pointer, "batch"),
                 "kind serving forms its own batches; set /workload/scheduler/max_batch");
    }
    workload.serving = read_serving(check, value, pointer, source);
    workload.prompt_tokens = int(longest(workload.serving.prompt));
    workload.new_tokens = int(longest(workload.serving.output));
    return workload;
  }
  for (const char* key : {"arrivals", "scheduler", "disaggregation", "slo"}) {
    if (Checker::find(value, key) != nullptr) {
      check.fail(child(pointer, key), "only kind serving reads this key (kind is " + workload.kind + ")");
    }
  }
  workload.prompt_tokens =
      check.positive_int(check.require(value, pointer, "prompt_tokens", "a positive integer"),
                         child(pointer, "prompt_tokens"));
  workload.new_tokens =
      check.positive_int(check.require(value, pointer, "new_tokens", "a positive integer"),
                         child(pointer, "new_tokens"));
  if (const json* v = Checker::find(value, "batch")) {
    workload.batch = check.positive_int(*v, child(pointer, "batch"));
  }
  if (workload.kind == "single" && workload.batch != 1) {
    check.fail(child(pointer, "batch"), "kind single serves one prompt; use kind batch");
  }
  return workload;
}


// The keys of one device (the default under /devices, or one entry of /devices/ranks),
// over `device` as it is so far.
void read_device(const Checker& check, const json& value, const std::string& pointer,
                 const std::string& source, RankDevice& device) {
  if (const json* v = Checker::find(value, "profile")) {
    const std::string at = child(pointer, "profile");
    device.profile = check.string(*v, at);
    device.file.reset();
    if (std::filesystem::path(device.profile).extension() == ".json") {
      device.file = read_device_profile_file(check, at, beside_scenario(source, device.profile));
    }
  }
  if (const json* v = Checker::find(value, "slowdown")) {
    std::string at = child(pointer, "slowdown");
    device.slowdown = check.number(*v, at);
    if (!(device.slowdown > 0.0)) check.fail_found(at, "a number greater than 0", *v);
  }
  if (const json* v = Checker::find(value, "efficiency")) {
    std::string at = child(pointer, "efficiency");
    device.efficiency = check.number(*v, at);
    if (!(device.efficiency > 0.0 && device.efficiency <= 1.0)) {
      check.fail_found(at, "a number in (0, 1]", *v);
    }
  }
}

// A duration (the mean of an exponential) or a .json file of measured delays, relative to
// the scenario's folder.
LatencySpec read_latency(const Checker& check, const json& value, const std::string& at,
                         const std::string& source) {
  LatencySpec latency;
  if (value.is_string() && std::filesystem::path(value.get<std::string>()).extension() == ".json") {
    latency.samples_ns = read_latency_file(check, at, beside_scenario(source, value.get<std::string>()));
  } else {
    std::string text;
    latency.mean_ns = read_duration(check, value, at, &text, true);
  }
  return latency;
}

DeviceSpec read_devices(const Checker& check, const json& value, const std::string& pointer,
                        const std::string& source) {
  check.object(value, pointer, scenario_keys_under("/devices"));
  DeviceSpec devices;
  read_device(check, value, pointer, source, devices);
  if (const json* v = Checker::find(value, "dtype")) {
    devices.dtype = check.choice(*v, child(pointer, "dtype"), compute_dtypes());
  }
  if (const json* v = Checker::find(value, "wake_latency")) {
    devices.wake_latency = read_latency(check, *v, child(pointer, "wake_latency"), source);
  }
  if (const json* v = Checker::find(value, "handling_latency")) {
    devices.handling_latency = read_latency(check, *v, child(pointer, "handling_latency"), source);
  }
  if (const json* v = Checker::find(value, "host_cores")) {
    devices.host_cores = check.positive_int(*v, child(pointer, "host_cores"));
  }
  if (const json* v = Checker::find(value, "ranks_per_host")) {
    devices.ranks_per_host = check.positive_int(*v, child(pointer, "ranks_per_host"));
    if (devices.host_cores == 0) {
      check.fail(child(pointer, "ranks_per_host"), "says how many ranks share a host's cores, "
                                                   "but /devices/host_cores does not say how many cores");
    }
  }
  if (const json* v = Checker::find(value, "ranks")) {
    const std::string at = child(pointer, "ranks");
    if (!v->is_array() || v->empty()) check.fail_found(at, "a non-empty array, one object per rank", *v);
    for (size_t r = 0; r < v->size(); ++r) {
      const std::string entry = child(at, std::to_string(r));
      check.object((*v)[r], entry, scenario_keys_under("/devices/ranks/<n>"));
      RankDevice device = devices;  // what the rank does not say, it takes from /devices
      read_device(check, (*v)[r], entry, source, device);
      devices.ranks.push_back(std::move(device));
    }
  }
  return devices;
}

void read_compute(const Checker& check, const json& value, const std::string& pointer,
                  Scenario& scenario) {
  check.object(value, pointer, scenario_keys_under("/compute"));
  if (const json* mode = Checker::find(value, "mode")) {
    std::string text =
        check.choice(*mode, child(pointer, "mode"), {"modeled", "measured", "replay"});
    scenario.compute_mode = text == "measured" ? ComputeMode::kMeasured
                            : text == "replay" ? ComputeMode::kReplay
                                               : ComputeMode::kModeled;
  }
  const json* table = Checker::find(value, "table");
  if (scenario.compute_mode == ComputeMode::kReplay) {
    const std::string at = child(pointer, "table");
    if (table == nullptr) check.fail(at, "mode replay needs a table (uniference profile writes one)");
    const std::string file = check.string(*table, at);
    scenario.replay_table = read_replay_table(check, at, beside_scenario(scenario.source, file));
  } else if (table != nullptr) {
    check.fail(child(pointer, "table"), "only mode replay reads a table");
  }
  if (const json* v = Checker::find(value, "shapes_only")) {
    scenario.shapes_only = check.boolean(*v, child(pointer, "shapes_only"));
    // Meta tensors take no time to run: measuring them would charge nothing.
    if (scenario.shapes_only && scenario.compute_mode == ComputeMode::kMeasured) {
      check.fail(child(pointer, "shapes_only"),
                 "shape-only tensors have no run time to measure; use \"mode\": \"modeled\"");
    }
  }
}



// "preset" names a preset; every other key is an operation.
void read_collectives(const Checker& check, const json& value, const std::string& pointer,
                      Scenario& scenario) {
  if (!value.is_object()) check.fail_found(pointer, "an object keyed by operation", value);
  std::vector<CollectiveSpec>& collectives = scenario.collectives;
  for (const auto& item : value.items()) {
    const std::string at = child(pointer, item.key());
    if (item.key() == "preset") {
      scenario.collective_preset = check.string(item.value(), at);
      continue;
    }
    if (item.key() == "timeout") {
      scenario.collective_timeout_ns = duration_ns(check, item.value(), at);
      continue;
    }
    check.object(item.value(), at, scenario_keys_under("/collectives/<op>"));
    CollectiveSpec spec;
    spec.operation = item.key();
    spec.algorithm = check.string(
        check.require(item.value(), at, "algorithm", "an algorithm name"), child(at, "algorithm"));
    if (const json* attributes = Checker::find(item.value(), "attributes")) {
      const std::string attributes_at = child(at, "attributes");
      if (!attributes->is_object()) {
        check.fail_found(attributes_at, "an object of ns-3 Attribute names and values",
                         *attributes);
      }
      for (const auto& attribute : attributes->items()) {
        spec.attributes.emplace_back(
            attribute.key(),
            attribute_text(check, attribute.value(), child(attributes_at, attribute.key())));
      }
    }
    collectives.push_back(std::move(spec));
  }
}

std::vector<FaultSpec> read_faults(const Checker& check, const json& value, const std::string& pointer) {
  if (!value.is_array()) check.fail_found(pointer, "an array of faults", value);
  std::vector<FaultSpec> faults;
  for (size_t i = 0; i < value.size(); ++i) {
    const std::string at = child(pointer, std::to_string(i));
    const json& entry = value[i];
    check.object(entry, at, scenario_keys_under("/faults/<n>"));
    FaultSpec fault;
    fault.kind = check.choice(check.require(entry, at, "kind", "a fault kind"), child(at, "kind"),
                              {"link_down", "switch_down", "loss_burst", "straggler", "rank_crash"});
    std::string text;
    fault.at_ns = read_duration(check, check.require(entry, at, "at", "a duration"), child(at, "at"), &text, true);
    fault.target = check.string(check.require(entry, at, "target", "a cable, node or rank name"), child(at, "target"));
    const bool on_rank = fault.kind == "straggler" || fault.kind == "rank_crash";
    if (on_rank) {
      fault.rank = rank_named(fault.target);
      if (fault.rank < 0) check.fail_found(child(at, "target"), "a rank, \"rank0\", \"rank1\", ...", entry["target"]);
    }
    if (const json* v = Checker::find(entry, "for")) {
      if (fault.kind == "rank_crash") check.fail(child(at, "for"), "a crashed rank stays down; rank_crash takes no \"for\"");
      fault.for_ns = duration_ns(check, *v, child(at, "for"));
    }
    const json* loss = Checker::find(entry, "loss");
    if (fault.kind == "loss_burst") {
      const std::string loss_at = child(at, "loss");
      fault.loss = check.number(check.require(entry, at, "loss", "a probability in (0, 1]"), loss_at);
      if (!(fault.loss > 0 && fault.loss <= 1)) check.fail_found(loss_at, "a probability in (0, 1]", *loss);
    } else if (loss != nullptr) {
      check.fail(child(at, "loss"), "only kind loss_burst reads this key (kind is " + fault.kind + ")");
    }
    const json* factor = Checker::find(entry, "factor");
    if (fault.kind == "straggler") {
      const std::string factor_at = child(at, "factor");
      fault.factor = check.number(check.require(entry, at, "factor", "a number, 1 or more"), factor_at);
      if (!(fault.factor >= 1 && fault.factor <= 1e6)) check.fail_found(factor_at, "a number from 1 to 1000000", *factor);
    } else if (factor != nullptr) {
      check.fail(child(at, "factor"), "only kind straggler reads this key (kind is " + fault.kind + ")");
    }
    faults.push_back(std::move(fault));
  }
  return faults;
}

OutputSpec read_outputs(const Checker& check, const json& value, const std::string& pointer) {
  check.object(value, pointer, scenario_keys_under("/outputs"));
  OutputSpec outputs;
  if (const json* v = Checker::find(value, "trace")) {
    outputs.trace = check.boolean(*v, child(pointer, "trace"));
  }
  if (const json* v = Checker::find(value, "results")) {
    outputs.results = check.boolean(*v, child(pointer, "results"));
  }
  if (const json* v = Checker::find(value, "link_samples")) {
    outputs.link_samples = uint32_t(check.integer(*v, child(pointer, "link_samples"), 0, 10000,
                                                  "an integer from 0 to 10000"));
  }
  if (const json* v = Checker::find(value, "trace_max_events")) {
    outputs.trace_max_events = uint64_t(check.integer(*v, child(pointer, "trace_max_events"), 1,
                                                      int64_t(1) << 40, "a positive integer"));
  }
  if (const json* v = Checker::find(value, "pcap")) {
    outputs.pcap = check.boolean(*v, child(pointer, "pcap"));
  }
  if (const json* v = Checker::find(value, "flow_monitor")) {
    outputs.flow_monitor = check.boolean(*v, child(pointer, "flow_monitor"));
  }
  if (const json* v = Checker::find(value, "report")) {
    outputs.report = check.boolean(*v, child(pointer, "report"));
    if (outputs.report && !outputs.results) {
      check.fail(child(pointer, "report"), "needs results.json (/outputs/results is false)");
    }
  }
  return outputs;
}

}  // namespace

Scenario parse_scenario(const json& document, const std::string& source_name) {
  Checker check(source_name);
  check.object(document, "", scenario_keys_under(""));

  Scenario scenario;
  scenario.source = source_name;
  scenario.name = std::filesystem::path(source_name).stem().string();
  if (scenario.name.empty() || scenario.name == "." || scenario.name == "..") {
    scenario.name = "scenario";
  }

  if (const json* v = Checker::find(document, "$schema")) {
    check.string(*v, "/$schema");  // for editors; its value means nothing to the run
  }
  if (const json* v = Checker::find(document, "name")) {
    scenario.name = check.string(*v, "/name");
    // The name becomes a folder name (out/<name>) and a trace title: keep it one path
    // component, so a scenario can never direct its outputs elsewhere.
    const bool bad_character = std::any_of(scenario.name.begin(), scenario.name.end(), [](char c) {
      return c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x20;
    });
    if (bad_character || scenario.name == "." || scenario.name == "..") {
      check.fail_found("/name",
                       "a name usable as a folder name (no '/', '\\' or control characters; "
                       "not \".\" or \"..\")",
                       *v);
    }
  }
  if (const json* v = Checker::find(document, "description")) {
    if (!v->is_string()) check.fail_found("/description", "a string", *v);
    scenario.description = v->get<std::string>();
  }
  if (const json* v = Checker::find(document, "seed")) {
    scenario.seed = check.unsigned64(*v, "/seed");
  }
  scenario.model = read_model(check, check.require(document, "", "model", "an object"), "/model");
  scenario.parallel =
      read_parallel(check, check.require(document, "", "parallel", "an object"), "/parallel");
  scenario.workload =
      read_workload(check, check.require(document, "", "workload", "an object"), "/workload",
                    source_name);
  if (const json* v = Checker::find(document, "devices")) {
    scenario.devices = read_devices(check, *v, "/devices", source_name);
  }
  if (const json* v = Checker::find(document, "compute")) {
    read_compute(check, *v, "/compute", scenario);
  }
  scenario.network =
      read_network(check, check.require(document, "", "network", "an object"), "/network",
                   source_name);
  if (const json* v = Checker::find(document, "collectives")) {
    read_collectives(check, *v, "/collectives", scenario);
  }
  if (const json* v = Checker::find(document, "faults")) {
    scenario.faults = read_faults(check, *v, "/faults");
  }
  if (const json* v = Checker::find(document, "outputs")) {
    scenario.outputs = read_outputs(check, *v, "/outputs");
  }
  if (const json* v = Checker::find(document, "jobs")) {
    if (Checker::find(document["network"], "placement") != nullptr) {
      check.fail("/network/placement", "a scenario with /jobs places each job by /jobs/<n>/placement");
    }
    scenario.jobs = read_jobs(check, document, *v, source_name, &parse_scenario);
  }
  return scenario;
}

Scenario parse_scenario_text(const std::string& text, const std::string& source_name) {
  return parse_scenario(parse_json_text(text, source_name), source_name);
}

void apply_override(json& document, const std::string& assignment,
                    const std::string& source_name) {
  const size_t equals = assignment.find('=');
  const std::string pointer = assignment.substr(0, equals);
  if (equals == std::string::npos || pointer.empty() || pointer[0] != '/') {
    throw ScenarioError(source_name, "",
                        "--set " + assignment + ": expected /json/pointer=value, for example " +
                            "--set /network/link/rate=10Gbps");
  }
  const std::string text = assignment.substr(equals + 1);
  // A value that reads as JSON (10, true, {"a": 1}) is taken as such; anything else is a
  // string, so rates and names need no quotes on the command line.
  json value = json::parse(text, nullptr, false);
  if (value.is_discarded()) value = text;
  try {
    document[json::json_pointer(pointer)] = std::move(value);
  } catch (const json::exception& e) {
    throw ScenarioError(source_name, pointer, std::string("--set: cannot set this key: ") + e.what());
  }
}

Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) {
    throw ScenarioError(path, "", "cannot read scenario: is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw ScenarioError(path, "", std::string("cannot read scenario: ") + std::strerror(errno));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ScenarioError(path, "", "cannot read scenario: read error");
  json document = parse_json_text(text.str(), path);
  for (const std::string& assignment : overrides) apply_override(document, assignment, path);
  return parse_scenario(document, path);
}

}  // namespace uniference
