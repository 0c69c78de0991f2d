#include "apps/scenario.h"

#include "apps/alpha_beta_fit.h"
#include "apps/json_checker.h"
#include "apps/wake_latency_file.h"
#include "bridge/link_presets.h"
#include "bridge/network_presets.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <cmath>
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

// IPv4 header, TCP header and the timestamp option ns-3 puts on every segment by default
// (10 bytes padded to 12): what a segment needs inside one MTU besides its payload.
constexpr uint32_t kTcpIpOverhead = 20 + 20 + 12;

constexpr uint32_t kEthernetHeader = 14;  // what a tbf on an Ethernet device counts beyond IP
constexpr uint32_t kMinMtu = 576;  // the smallest datagram every IPv4 host must accept
constexpr uint32_t kMaxMtu = 9000;

// The sections of a scenario, in file order.

const std::vector<std::string> kTopKeys = {"$schema",  "name",    "description", "seed",
                                           "model",    "parallel", "workload",   "devices",
                                           "compute",  "network", "collectives", "outputs"};

ModelSpec read_model(const Checker& check, const json& value, const std::string& pointer) {
  check.object(value, pointer, {"preset", "layers"});
  ModelSpec model;
  model.preset = check.string(check.require(value, pointer, "preset", "a model preset name"),
                              child(pointer, "preset"));
  if (const json* v = Checker::find(value, "layers")) {
    model.layers = check.positive_int(*v, child(pointer, "layers"));
  }
  return model;
}

ParallelSpec read_parallel(const Checker& check, const json& value, const std::string& pointer) {
  check.object(value, pointer,
               {"strategy", "tp", "pp", "dp", "sp", "ep", "dispatch", "stages", "micro_batches"});
  ParallelSpec parallel;
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

// A column of positive whole numbers from a CSV file with a header line.
std::vector<int64_t> read_length_column(const Checker& check, const std::string& pointer,
                                        const std::string& path, const std::string& column) {
  std::ifstream in(path);
  if (!in) check.fail(child(pointer, "file"), "cannot read " + path);
  const auto split = [](const std::string& line) {
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream stream(line);
    while (std::getline(stream, cell, ',')) {
      while (!cell.empty() && (cell.back() == '\r' || cell.back() == ' ')) cell.pop_back();
      while (!cell.empty() && cell.front() == ' ') cell.erase(cell.begin());
      cells.push_back(cell);
    }
    return cells;
  };
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = split(line);
  const auto it = std::find(header.begin(), header.end(), column);
  if (it == header.end()) {
    check.fail(child(pointer, "column"), path + " has no column '" + column + "'; its header is: " + line);
  }
  const size_t index = size_t(it - header.begin());
  std::vector<int64_t> values;
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty() || line == "\r") continue;
    const std::vector<std::string> cells = split(line);
    const std::optional<double> value =
        index < cells.size() ? parse_number(cells[index]) : std::optional<double>();
    if (!value || *value < 1 || *value != std::floor(*value) || *value > 1e9) {
      check.fail(child(pointer, "file"), path + ":" + std::to_string(number) + ": column '" +
                                             column + "' needs a positive whole number of tokens");
    }
    values.push_back(int64_t(*value));
  }
  if (values.empty()) check.fail(child(pointer, "file"), path + " has no rows");
  return values;
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
    // Relative to the scenario's folder, as a user reading the scenario would expect.
    const std::filesystem::path path =
        std::filesystem::path(file).is_absolute()
            ? std::filesystem::path(file)
            : std::filesystem::path(source).parent_path() / file;
    spec.trace = read_length_column(check, pointer, path.string(), name);
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
  check.object(arrivals, arrivals_at, {"process", "rate", "requests", "duration"});
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
    check.object(*v, at, {"name", "max_batch", "kv_cache_tokens"});
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
    check.object(*v, at, {"prefill", "decode"});
    serving.disaggregation.prefill =
        check.positive_int(check.require(*v, at, "prefill", "a positive integer"), child(at, "prefill"));
    serving.disaggregation.decode =
        check.positive_int(check.require(*v, at, "decode", "a positive integer"), child(at, "decode"));
  }
  if (const json* v = Checker::find(value, "slo")) {
    const std::string at = child(pointer, "slo");
    check.object(*v, at, {"ttft", "tpot"});
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
  check.object(value, pointer, {"kind", "prompt_tokens", "new_tokens", "batch", "arrivals",
                                "scheduler", "disaggregation", "slo"});
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

const char* const kRateExamples =
    "a data rate such as \"1Gbps\", \"2.5Mb/s\" or \"100000\" (bit/s)";
const char* const kDelayExamples =
    "a duration with a unit such as \"50us\" or \"1.5ms\" (ns, us, ms, s)";

// A duration key: positive, or at least 0 where `zero_ok`.
int64_t read_duration(const Checker& check, const json& value, const std::string& at,
                      std::string* text, bool zero_ok) {
  if (!value.is_string()) check.fail_found(at, kDelayExamples, value);
  *text = value.get<std::string>();
  int64_t ns = 0;
  switch (parse_delay(*text, &ns)) {
    case Parsed::kOk:
      if (ns < 0 || (ns == 0 && !zero_ok)) {
        check.fail_found(at, zero_ok ? "a duration of 0 or more" : "a positive duration", value);
      }
      return ns;
    case Parsed::kMalformed:
      check.fail_found(at, kDelayExamples, value);
    case Parsed::kNotWhole:
      check.fail_found(at, "a whole number of nanoseconds", value);
    case Parsed::kOverflow:
      check.fail_found(at, "a duration below 2^63 ns", value);
  }
  return ns;
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
      // A profile file of the user's, relative to the scenario's folder.
      const std::filesystem::path path =
          std::filesystem::path(device.profile).is_absolute()
              ? std::filesystem::path(device.profile)
              : std::filesystem::path(source).parent_path() / device.profile;
      try {
        device.file = load_device_profile(path.string());
      } catch (const std::invalid_argument& e) {
        check.fail(at, e.what());
      }
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
    const std::filesystem::path file(value.get<std::string>());
    const std::filesystem::path path = file.is_absolute() ? file : std::filesystem::path(source).parent_path() / file;
    try {
      latency.samples_ns = load_wake_latencies(path.string());
    } catch (const std::invalid_argument& e) {
      check.fail(at, e.what());
    }
  } else {
    std::string text;
    latency.mean_ns = read_duration(check, value, at, &text, true);
  }
  return latency;
}

DeviceSpec read_devices(const Checker& check, const json& value, const std::string& pointer,
                        const std::string& source) {
  check.object(value, pointer, {"profile", "slowdown", "efficiency", "dtype", "wake_latency",
                                "handling_latency", "ranks"});
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
  if (const json* v = Checker::find(value, "ranks")) {
    const std::string at = child(pointer, "ranks");
    if (!v->is_array() || v->empty()) check.fail_found(at, "a non-empty array, one object per rank", *v);
    for (size_t r = 0; r < v->size(); ++r) {
      const std::string entry = child(at, std::to_string(r));
      check.object((*v)[r], entry, {"profile", "slowdown", "efficiency"});
      RankDevice device = devices;  // what the rank does not say, it takes from /devices
      read_device(check, (*v)[r], entry, source, device);
      devices.ranks.push_back(std::move(device));
    }
  }
  return devices;
}

void read_compute(const Checker& check, const json& value, const std::string& pointer,
                  Scenario& scenario) {
  check.object(value, pointer, {"mode", "shapes_only", "table"});
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
    const std::filesystem::path path = std::filesystem::path(file).is_absolute()
                                           ? std::filesystem::path(file)
                                           : std::filesystem::path(scenario.source).parent_path() / file;
    try {
      scenario.replay_table = std::make_shared<const ReplayTable>(ReplayTable::load(path.string()));
    } catch (const std::invalid_argument& e) {
      check.fail(at, e.what());
    }
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


// InfiniBand's MTUs: payload bytes per packet.
const std::vector<int64_t> kIbMtus = {256, 512, 1024, 2048, 4096};
// Local routing header 8, base transport header 12, invariant CRC 4, variant CRC 2.
constexpr uint32_t kIbHeaderBytes = 26;

void read_ib_link_keys(const Checker& check, const json& value, const std::string& pointer,
                       LinkSpec& link) {
  if (const json* v = Checker::find(value, "ib_mtu")) {
    const std::string at = child(pointer, "ib_mtu");
    const int64_t mtu = check.integer(*v, at, 0, 4096, "one of 256, 512, 1024, 2048 or 4096");
    if (std::find(kIbMtus.begin(), kIbMtus.end(), mtu) == kIbMtus.end()) {
      check.fail_found(at, "one of 256, 512, 1024, 2048 or 4096 (payload bytes per packet)", *v);
    }
    link.ib_mtu = uint32_t(mtu);
  }
  if (const json* v = Checker::find(value, "vl_buffer")) {
    const std::string at = child(pointer, "vl_buffer");
    const uint32_t mtu = link.ib_mtu.value_or(4096);
    const uint32_t packet = mtu + kIbHeaderBytes;
    link.vl_buffer = check.positive_u32(*v, at);
    // A lane whose buffer cannot hold one packet never gets the credits to send it.
    if (*link.vl_buffer < packet) {
      check.fail(at, "expected at least " + std::to_string(packet) + " to hold one packet of " +
                         child(pointer, "ib_mtu") + " " + std::to_string(mtu) + " + " +
                         std::to_string(kIbHeaderBytes) + " header bytes, found " + describe(*v));
    }
  }
}

// A data rate key: positive, whole bit/s.
uint64_t read_rate(const Checker& check, const json& value, const std::string& at, std::string* text) {
  if (!value.is_string()) check.fail_found(at, kRateExamples, value);
  *text = value.get<std::string>();
  uint64_t bps = 0;
  switch (parse_rate(*text, &bps)) {
    case Parsed::kOk:
      if (bps == 0) check.fail_found(at, "a positive data rate", value);
      return bps;
    case Parsed::kMalformed:
      check.fail_found(at, kRateExamples, value);
    case Parsed::kNotWhole:
      check.fail_found(at, "a whole number of bits per second", value);
    case Parsed::kOverflow:
      check.fail_found(at, "a data rate below 2^64 bit/s", value);
  }
  check.fail_found(at, kRateExamples, value);
}

// /network/link/shaper: a token bucket, as `tc qdisc add ... tbf rate R burst B limit L`.
ShaperSpec read_shaper(const Checker& check, const json& value, const std::string& pointer,
                       const std::string& mtu_pointer, uint32_t mtu) {
  check.object(value, pointer, {"rate", "burst", "limit"});
  ShaperSpec shaper;
  shaper.rate_bps = read_rate(check, check.require(value, pointer, "rate", kRateExamples),
                              child(pointer, "rate"), &shaper.rate_text);
  // A frame larger than the bucket never gets the tokens to leave; Linux drops it, and a
  // simulated link would stall.
  const uint32_t frame = mtu + kEthernetHeader;
  for (const char* key : {"burst", "limit"}) {
    const std::string at = child(pointer, key);
    const uint32_t bytes = check.positive_u32(
        check.require(value, pointer, key, "a positive integer (bytes)"), at);
    if (bytes < frame) {
      check.fail(at, "expected at least " + std::to_string(frame) + " to hold one frame of " +
                         mtu_pointer + " " + std::to_string(mtu) + " + " +
                         std::to_string(kEthernetHeader) + " Ethernet header bytes, found " +
                         std::to_string(bytes));
    }
    (std::string(key) == "burst" ? shaper.burst : shaper.limit) = bytes;
  }
  return shaper;
}

LinkSpec read_link(const Checker& check, const json& value, const std::string& pointer,
                   const std::string& source) {
  check.object(value, pointer, {"model", "preset", "profile", "rate", "delay", "mtu", "shaper",
                                 "ib_mtu", "vl_buffer"});
  LinkSpec link;
  if (const json* v = Checker::find(value, "model")) link.model = check.string(*v, child(pointer, "model"));
  // A preset gives the rate and delay the link does not write itself, read as if written.
  const LinkPreset* preset = nullptr;
  json preset_rate, preset_delay;
  if (const json* v = Checker::find(value, "preset")) {
    const std::string at = child(pointer, "preset");
    link.preset = check.string(*v, at);
    preset = link_presets().find(link.preset);
    if (preset == nullptr) check.choice(*v, at, link_presets().names());
    preset_rate = preset->rate;
    preset_delay = preset->delay;
  }

  if (const json* v = Checker::find(value, "profile")) {
    const std::string at = child(pointer, "profile");
    if (preset != nullptr) check.fail(at, "give a preset or a profile, not both");
    link.profile = check.string(*v, at);
    // A file of the user's, relative to the scenario's folder, as /devices/profile.
    const std::filesystem::path path = std::filesystem::path(link.profile).is_absolute()
                                           ? std::filesystem::path(link.profile)
                                           : std::filesystem::path(source).parent_path() / link.profile;
    try {
      const MeasuredStarLink measured = load_network_profile(path.string());
      preset_rate = std::to_string(measured.rate_bps);
      preset_delay = std::to_string(measured.delay_ns) + "ns";
    } catch (const std::invalid_argument& e) {
      check.fail(at, e.what());
    }
  }
  const bool filled = preset != nullptr || !link.profile.empty();

  const json* rate = Checker::find(value, "rate");
  if (rate == nullptr && !filled) check.require(value, pointer, "rate", kRateExamples);
  link.rate_bps = read_rate(check, rate ? *rate : preset_rate, child(pointer, "rate"), &link.rate_text);

  const json* delay = Checker::find(value, "delay");
  if (delay == nullptr && !filled) check.require(value, pointer, "delay", kDelayExamples);
  if (delay == nullptr) delay = &preset_delay;
  link.delay_ns = read_duration(check, *delay, child(pointer, "delay"), &link.delay_text, false);

  if (const json* v = Checker::find(value, "mtu")) {
    link.mtu = uint32_t(check.integer(*v, child(pointer, "mtu"), kMinMtu, kMaxMtu,
                                      "an integer from 576 to 9000 (bytes)"));
  }
  if (const json* v = Checker::find(value, "shaper")) {
    link.shaper = read_shaper(check, *v, child(pointer, "shaper"), child(pointer, "mtu"), link.mtu);
  }
  read_ib_link_keys(check, value, pointer, link);
  return link;
}

TransportSpec read_transport(const Checker& check, const json& value, const std::string& pointer,
                             const std::string& mtu_pointer, uint32_t mtu) {
  check.object(value, pointer, {"kind", "tcp_variant", "segment_size", "snd_buf", "rcv_buf",
                                 "congestion_control"});
  TransportSpec transport;
  if (const json* v = Checker::find(value, "kind")) {
    transport.kind = check.string(*v, child(pointer, "kind"));
    transport.kind_given = true;
  }
  for (const char* key : {"tcp_variant", "segment_size", "snd_buf", "rcv_buf"}) {
    if (Checker::find(value, key)) transport.tcp_keys.push_back(child(pointer, key));
  }
  if (const json* v = Checker::find(value, "congestion_control")) {
    transport.congestion_control = check.string(*v, child(pointer, "congestion_control"));
  }
  if (const json* v = Checker::find(value, "tcp_variant")) {
    transport.tcp_variant = check.string(*v, child(pointer, "tcp_variant"));
  }
  // Without an explicit segment size, segments fill the MTU: a user who sets jumbo frames
  // wants jumbo segments, and one who sets a small MTU should not be told off about a
  // segment size they never wrote.
  const uint32_t max_segment = mtu - kTcpIpOverhead;
  transport.segment_size = max_segment;
  if (const json* v = Checker::find(value, "segment_size")) {
    std::string at = child(pointer, "segment_size");
    transport.segment_size = check.positive_u32(*v, at);
    if (transport.segment_size > max_segment) {
      check.fail(at, "expected at most " + std::to_string(max_segment) + " to fit " + mtu_pointer +
                         " " + std::to_string(mtu) +
                         " (mtu - 20 IPv4 - 20 TCP - 12 timestamp option), found " + describe(*v));
    }
  }
  if (const json* v = Checker::find(value, "snd_buf")) {
    transport.snd_buf = check.positive_u32(*v, child(pointer, "snd_buf"));
  }
  if (const json* v = Checker::find(value, "rcv_buf")) {
    transport.rcv_buf = check.positive_u32(*v, child(pointer, "rcv_buf"));
  }
  return transport;
}

// An ns-3 Attribute value as ns-3 reads it from text: strings as they are, numbers and
// booleans in their JSON spelling.
std::string attribute_text(const Checker& check, const json& value, const std::string& pointer) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number() || value.is_boolean()) return value.dump();
  check.fail_found(pointer, "a string, number or boolean", value);
}

// Sizes by name; which names a topology reads is the bridge's to check.
std::vector<std::pair<std::string, uint32_t>> read_topology_options(const Checker& check,
                                                                    const json& value,
                                                                    const std::string& pointer) {
  if (!value.is_object()) check.fail_found(pointer, "an object of option names and sizes", value);
  std::vector<std::pair<std::string, uint32_t>> options;
  for (const auto& item : value.items()) {
    options.emplace_back(item.key(), check.positive_u32(item.value(), child(pointer, item.key())));
  }
  return options;
}

// "packed", or the endpoint of each rank; whether the endpoints exist is the topology's to say.
PlacementSpec read_placement(const Checker& check, const json& value, const std::string& pointer) {
  const char* const expected = "\"packed\" or an array of endpoint indexes, one per rank";
  PlacementSpec placement;
  if (value.is_string() && value.get<std::string>() == "packed") return placement;
  if (!value.is_array() || value.empty()) check.fail_found(pointer, expected, value);
  placement.packed = false;
  for (size_t r = 0; r < value.size(); ++r) {
    const std::string at = child(pointer, std::to_string(r));
    const auto endpoint = uint32_t(
        check.integer(value[r], at, 0, UINT32_MAX - 1, "an endpoint index (an integer from 0)"));
    auto taken = std::find(placement.endpoint.begin(), placement.endpoint.end(), endpoint);
    if (taken != placement.endpoint.end()) {
      check.fail(at, "endpoint " + std::to_string(endpoint) + " already holds rank " +
                         std::to_string(taken - placement.endpoint.begin()) +
                         "; one rank per endpoint");
    }
    placement.endpoint.push_back(endpoint);
  }
  return placement;
}

SwitchSpec read_switch(const Checker& check, const json& value, const std::string& pointer) {
  check.object(value, pointer, {"routing", "latency"});
  SwitchSpec switches;
  if (const json* v = Checker::find(value, "routing")) {
    switches.adaptive_routing =
        check.choice(*v, child(pointer, "routing"), {"ecmp", "adaptive"}) == "adaptive";
  }
  if (const json* v = Checker::find(value, "latency")) {
    switches.latency_ns =
        read_duration(check, *v, child(pointer, "latency"), &switches.latency_text, true);
  }
  return switches;
}

// /network/wan/fade: {mean_clear, mean_fade, rate_factor, recovery}, or false for none.
FadeSpec read_fade(const Checker& check, const json& value, const std::string& pointer) {
  check.object(value, pointer, {"mean_clear", "mean_fade", "rate_factor", "recovery"});
  FadeSpec fade;
  std::string text;
  fade.mean_clear_ns = read_duration(
      check, check.require(value, pointer, "mean_clear", kDelayExamples), child(pointer, "mean_clear"),
      &text, false);
  fade.mean_fade_ns = read_duration(
      check, check.require(value, pointer, "mean_fade", kDelayExamples), child(pointer, "mean_fade"),
      &text, false);
  if (const json* v = Checker::find(value, "rate_factor")) {
    const std::string at = child(pointer, "rate_factor");
    fade.rate_factor = check.number(*v, at);
    if (fade.rate_factor < 0 || fade.rate_factor >= 1) {
      check.fail_found(at, "a fraction from 0 (the link is out while faded) to below 1", *v);
    }
  }
  if (const json* v = Checker::find(value, "recovery")) {
    fade.recovery_ns = read_duration(check, *v, child(pointer, "recovery"), &text, true);
  }
  return fade;
}

// /network/wan/loss: netem's gemodel, in percent.
LossSpec read_loss(const Checker& check, const json& value, const std::string& pointer) {
  check.object(value, pointer, {"p", "r", "1-h", "1-k"});
  LossSpec loss;
  auto percent = [&](const char* key, double& field) {
    const json* v = Checker::find(value, key);
    if (v == nullptr) return;
    const std::string at = child(pointer, key);
    field = check.number(*v, at);
    if (field < 0 || field > 100) check.fail_found(at, "a percentage from 0 to 100", *v);
  };
  check.require(value, pointer, "p", "the percentage chance of moving to the bad state");
  percent("p", loss.p);
  percent("r", loss.r);
  percent("1-h", loss.one_minus_h);
  percent("1-k", loss.one_minus_k);
  return loss;
}

WanSpec read_wan(const Checker& check, const json& value, const std::string& pointer,
                 const std::string& source) {
  check.object(value, pointer, {"model", "rate", "uplink", "downlink", "budget", "attributes",
                                 "trace", "outage", "fade", "loss"});
  WanSpec wan;
  wan.model = check.string(check.require(value, pointer, "model", "a wide-area link model name"),
                           child(pointer, "model"));
  // One rate for both directions, or each its own; a link budget instead of either.
  const json* rate = Checker::find(value, "rate");
  const json* uplink = Checker::find(value, "uplink");
  const json* downlink = Checker::find(value, "downlink");
  const json* budget = Checker::find(value, "budget");
  if (budget != nullptr) {
    const std::string at = child(pointer, "budget");
    if (rate || uplink || downlink) check.fail(at, "give a budget or rates, not both");
    check.object(*budget, at, {"bandwidth_hz", "snr_db"});
    BudgetSpec spec;
    spec.bandwidth_hz =
        check.number(check.require(*budget, at, "bandwidth_hz", "the channel's bandwidth in Hz"),
                     child(at, "bandwidth_hz"));
    if (spec.bandwidth_hz <= 0) {
      check.fail_found(child(at, "bandwidth_hz"), "a positive bandwidth in Hz", (*budget)["bandwidth_hz"]);
    }
    spec.snr_db = check.number(check.require(*budget, at, "snr_db", "the signal to noise ratio in dB"),
                               child(at, "snr_db"));
    wan.budget = spec;
  } else {
    if (rate == nullptr && (uplink == nullptr || downlink == nullptr)) {
      check.require(value, pointer, "rate",
                    std::string(kRateExamples) + " for both directions (or uplink and downlink)");
    }
    std::string up_text, down_text;
    wan.uplink_bps = read_rate(check, uplink ? *uplink : *rate,
                               child(pointer, uplink ? "uplink" : "rate"), &up_text);
    wan.downlink_bps = read_rate(check, downlink ? *downlink : *rate,
                                 child(pointer, downlink ? "downlink" : "rate"), &down_text);
    wan.rate_text = up_text == down_text ? up_text : up_text + " up / " + down_text + " down";
  }
  if (const json* v = Checker::find(value, "attributes")) {
    const std::string at = child(pointer, "attributes");
    if (!v->is_object()) check.fail_found(at, "an object of ns-3 Attribute names and values", *v);
    for (const auto& item : v->items()) {
      wan.attributes.emplace_back(item.key(), attribute_text(check, item.value(), child(at, item.key())));
    }
  }
  if (const json* v = Checker::find(value, "trace")) {
    const std::string at = child(pointer, "trace");
    wan.trace = check.string(*v, at);
    // A file of the user's, relative to the scenario's folder, as /network/link/profile.
    const std::filesystem::path path(wan.trace);
    wan.trace_path = path.is_absolute() ? path.string()
                                        : (std::filesystem::path(source).parent_path() / path).string();
  }
  if (const json* v = Checker::find(value, "outage")) {
    wan.hold = check.choice(*v, child(pointer, "outage"), {"drop", "hold"}) == "hold";
  }
  if (const json* v = Checker::find(value, "fade")) {
    if (v->is_boolean() && !v->get<bool>()) {
      wan.fade_off = true;
    } else {
      wan.fade = read_fade(check, *v, child(pointer, "fade"));
    }
  }
  if (const json* v = Checker::find(value, "loss")) wan.loss = read_loss(check, *v, child(pointer, "loss"));
  return wan;
}

// /network/intra_server_link: the cables inside a server of rail-optimised and two-tier.
IntraServerLinkSpec read_intra_server_link(const Checker& check, const json& value,
                                           const std::string& pointer) {
  check.object(value, pointer, {"rate", "delay"});
  IntraServerLinkSpec link;
  std::string text;
  if (const json* v = Checker::find(value, "rate")) {
    link.rate_bps = read_rate(check, *v, child(pointer, "rate"), &text);
  }
  if (const json* v = Checker::find(value, "delay")) {
    link.delay_ns = read_duration(check, *v, child(pointer, "delay"), &text, false);
  }
  return link;
}

NetworkSpec read_network(const Checker& check, const json& written, const std::string& pointer,
                         const std::string& source) {
  check.object(written, pointer, {"preset", "topology", "topology_options", "placement", "link",
                                   "switch", "transport", "ns3_defaults", "wan",
                                   "intra_server_link"});
  std::string preset_name;
  json value = written;
  if (const json* v = Checker::find(written, "preset")) {
    const std::string at = child(pointer, "preset");
    preset_name = check.string(*v, at);
    const NetworkPreset* preset = network_presets().find(preset_name);
    if (preset == nullptr) check.choice(*v, at, network_presets().names());
    // The written keys over the preset's, objects merged key by key (RFC 7396).
    value = json::parse(preset->network);
    value.merge_patch(written);
    value.erase("preset");
  }
  NetworkSpec network;
  network.preset = preset_name;
  network.topology = check.string(check.require(value, pointer, "topology", "a topology name"),
                                  child(pointer, "topology"));
  const std::string link_pointer = child(pointer, "link");
  network.link =
      read_link(check, check.require(value, pointer, "link", "an object"), link_pointer, source);
  const json* transport = Checker::find(value, "transport");
  network.transport =
      read_transport(check, transport ? *transport : json::object(), child(pointer, "transport"),
                     child(link_pointer, "mtu"), network.link.mtu);
  if (const json* v = Checker::find(value, "ns3_defaults")) {
    const std::string at = child(pointer, "ns3_defaults");
    if (!v->is_object()) check.fail_found(at, "an object of ns-3 Attribute names and values", *v);
    for (const auto& item : v->items()) {
      network.ns3_defaults.push_back(
          Ns3Default{item.key(), attribute_text(check, item.value(), child(at, item.key()))});
    }
  }
  if (const json* v = Checker::find(value, "topology_options")) {
    network.topology_options = read_topology_options(check, *v, child(pointer, "topology_options"));
  }
  if (const json* v = Checker::find(value, "placement")) {
    network.placement = read_placement(check, *v, child(pointer, "placement"));
  }
  if (const json* v = Checker::find(value, "switch")) {
    network.switches = read_switch(check, *v, child(pointer, "switch"));
  }
  if (const json* v = Checker::find(value, "wan")) {
    network.wan = read_wan(check, *v, child(pointer, "wan"), source);
  }
  if (const json* v = Checker::find(value, "intra_server_link")) {
    network.intra_server_link = read_intra_server_link(check, *v, child(pointer, "intra_server_link"));
  }
  return network;
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
    check.object(item.value(), at, {"algorithm", "attributes"});
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

OutputSpec read_outputs(const Checker& check, const json& value, const std::string& pointer) {
  check.object(value, pointer,
               {"trace", "results", "link_samples", "trace_max_events", "pcap", "flow_monitor"});
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
  return outputs;
}

}  // namespace

Scenario parse_scenario(const json& document, const std::string& source_name) {
  Checker check(source_name);
  check.object(document, "", kTopKeys);

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
  if (const json* v = Checker::find(document, "outputs")) {
    scenario.outputs = read_outputs(check, *v, "/outputs");
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
