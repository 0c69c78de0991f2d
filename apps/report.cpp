#include "apps/report.h"

#include <algorithm>
#include <iostream>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <map>
#include <system_error>
#include <vector>

#include "apps/atomic_file.h"
#include "apps/html_report.h"
#include "bridge/chrome_trace.h"
#include "bridge/job_record.h"
#include "apps/serving_report.h"

namespace uniference {

namespace {

using nlohmann::json;

// Percentiles of a phase's step latencies (first begin to last end).
Percentiles step_latencies(const std::vector<PhaseStep>& steps) {
  std::vector<int64_t> latencies;
  for (const PhaseStep& step : steps) latencies.push_back(step.latency_ns());
  return percentiles(latencies);
}

std::vector<RankStats> ranks_in_order(const RunRecord& record) {
  std::vector<RankStats> ranks = record.ranks;
  std::stable_sort(ranks.begin(), ranks.end(),
                   [](const RankStats& a, const RankStats& b) { return a.rank < b.rank; });
  return ranks;
}

// Display width of UTF-8 text: "µ" is two bytes but one column.
size_t columns(const std::string& text) {
  size_t count = 0;
  for (unsigned char c : text) {
    if ((c & 0xC0) != 0x80) ++count;
  }
  return count;
}

std::string pad_left(const std::string& text, size_t width) {
  size_t used = columns(text);
  return used >= width ? text : std::string(width - used, ' ') + text;
}

std::string pad_right(const std::string& text, size_t width) {
  size_t used = columns(text);
  return used >= width ? text : text + std::string(width - used, ' ');
}

// Share of `part` in `whole` as "61.2%", rounded in integers so the text never depends on
// floating-point printing.
std::string percent(int64_t part, int64_t whole) {
  if (whole <= 0) return "-";
  const unsigned __int128 scaled = (unsigned __int128)(uint64_t(std::max<int64_t>(0, part))) * 1000;
  const uint64_t permille = uint64_t((scaled + uint64_t(whole) / 2) / uint64_t(whole));
  return std::to_string(permille / 10) + "." + std::to_string(permille % 10) + "%";
}

std::string json_text(const json& value, int indent) {
  // Names from shard code are not guaranteed UTF-8; an output must still be written.
  return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

// What the summary says about the transport: only the settings that apply to it.
std::string transport_text(const NetworkSetup& network) {
  if (network.transport != "rdma") {
    std::string text = "mtu " + std::to_string(network.mtu) + ", tcp " + network.tcp_variant;
    if (const auto& shaper = network.shaper) {
      text += ", tbf " + shaper->rate_text + " burst " + std::to_string(shaper->burst) +
              " B limit " + std::to_string(shaper->limit) + " B";
    }
    if (const auto& wan = network.wan) {
      text += ", wan " + wan->model + " " +
              (wan->budget ? "budget " + json(wan->budget->first).dump() + " Hz " +
                                 json(wan->budget->second).dump() + " dB"
                           : wan->rate_text);
      if (wan->fade) text += ", fade";
      if (wan->loss) text += ", gemodel loss";
    }
    return text;
  }
  std::string placement = "packed";
  if (!network.placement.empty()) {
    placement = "endpoints";
    for (uint32_t endpoint : network.placement) placement += " " + std::to_string(endpoint);
  }
  return "ib mtu " + std::to_string(network.ib_mtu) + ", rdma, congestion control " +
         network.congestion_control + ", " + (network.adaptive_routing ? "adaptive" : "ecmp") +
         " routing, placement " + placement;
}

// setup's keys for the network the run used.
void add_network_setup(const NetworkSetup& network, json& setup) {
  setup["network_preset"] = network.preset;
  setup["topology"] = network.topology;
  setup["link_rate_bps"] = network.link_rate_bps;
  setup["link_delay_ns"] = network.link_delay_ns;
  setup["transport"] = network.transport;
  setup["level"] = network.level;
  if (network.transport == "rdma") {
    setup["ib_mtu"] = network.ib_mtu;
    setup["congestion_control"] = network.congestion_control;
    setup["routing"] = network.adaptive_routing ? "adaptive" : "ecmp";
    setup["placement"] = network.placement.empty() ? json("packed") : json(network.placement);
    return;
  }
  setup["mtu"] = network.mtu;
  setup["tcp_variant"] = network.tcp_variant;
  setup["segment_size"] = network.segment_size;
  const auto& shaper = network.shaper;
  setup["shaper"] = shaper ? json{{"rate_bps", shaper->rate_bps}, {"burst", shaper->burst},
                                  {"limit", shaper->limit}}
                           : json(nullptr);
  if (const auto& wan = network.wan) {
    json attributes = json::object();
    for (const auto& [name, value] : wan->attributes) attributes[name] = value;
    setup["wan"] = {{"model", wan->model},
                    {"uplink_bps", wan->uplink_bps},
                    {"downlink_bps", wan->downlink_bps},
                    {"attributes", attributes},
                    {"outage", wan->hold ? "hold" : "drop"}};
    if (wan->budget) {
      setup["wan"]["budget"] = {{"bandwidth_hz", wan->budget->first},
                                {"snr_db", wan->budget->second}};
    }
    if (!wan->trace.empty()) setup["wan"]["trace"] = wan->trace;
  }
}

uint64_t memory_total(const RankStats& stats) {
  return stats.weight_bytes + stats.kv_cache_bytes + stats.activation_bytes;
}

// The ranks whose model needs more than the device has.
std::vector<int> ranks_over_memory(const RunRecord& record) {
  std::vector<int> over;
  const uint64_t capacity = record.device_memory_bytes;
  for (const RankStats& stats : ranks_in_order(record)) {
    if (capacity > 0 && memory_total(stats) > capacity) over.push_back(stats.rank);
  }
  return over;
}

// "tp 4", "tp-pp (tp 2, pp 2, 4 micro-batches)", "voltage (sp 4) x dp 2".
std::string parallel_text(const ParallelDegrees& parallel) {
  std::vector<std::string> parts;
  const auto degree = [&](const char* key, int value) {
    if (value > 1) parts.push_back(std::string(key) + " " + std::to_string(value));
  };
  degree("tp", parallel.tp);
  degree("pp", parallel.pp);
  degree("sp", parallel.sp);
  degree("dp", parallel.dp);
  degree("ep", parallel.ep);
  if (parallel.ep > 1) parts.push_back(parallel.dispatch + " dispatch");
  if (parallel.micro_batches > 1) parts.push_back(std::to_string(parallel.micro_batches) + " micro-batches");
  if (parts.empty()) return parallel.strategy + " (1 rank)";
  if (parallel.strategy == "tp" && parts.size() == 1) return parts.front();
  std::string text = parallel.strategy + " (";
  for (size_t i = 0; i < parts.size(); ++i) text += (i ? ", " : "") + parts[i];
  return text + ")";
}

}  // namespace

std::string format_bytes(uint64_t bytes) {
  static const char* kUnits[] = {"B", "kB", "MB", "GB", "TB"};
  size_t unit = 0;
  uint64_t scale = 1;
  while (unit + 1 < std::size(kUnits) && bytes >= scale * 1000) {
    scale *= 1000;
    ++unit;
  }
  if (unit == 0) return std::to_string(bytes) + " B";
  const uint64_t thousandths = (bytes * 1000 + scale / 2) / scale;  // bytes < 2^54 here
  char text[48];
  std::snprintf(text, sizeof text, "%" PRIu64 ".%03" PRIu64 " %s", thousandths / 1000,
                thousandths % 1000, kUnits[unit]);
  return text;
}

std::string format_duration(int64_t ns) {
  const uint64_t magnitude = ns < 0 ? uint64_t(0) - uint64_t(ns) : uint64_t(ns);
  const char* sign = ns < 0 ? "-" : "";
  char text[48];
  if (magnitude < 1000) {
    std::snprintf(text, sizeof text, "%s%" PRIu64 " ns", sign, magnitude);
    return text;
  }
  struct Unit {
    uint64_t ns;
    const char* name;
  };
  static const Unit kUnits[] = {{1000, "µs"}, {1000000, "ms"}, {1000000000, "s"}};
  size_t unit = magnitude >= 1000000000 ? 2 : magnitude >= 1000000 ? 1 : 0;
  // Thousandths of the unit, rounded half up; move up a unit if rounding reached 1000.
  auto thousandths = [&](size_t u) {
    const uint64_t step = kUnits[u].ns / 1000;
    return magnitude / step + (magnitude % step >= (step + 1) / 2 && step > 1 ? 1 : 0);
  };
  uint64_t value = thousandths(unit);
  if (value >= 1000000 && unit < 2) value = thousandths(++unit);
  std::snprintf(text, sizeof text, "%s%" PRIu64 ".%03" PRIu64 " %s", sign, value / 1000,
                value % 1000, kUnits[unit].name);
  return text;
}

namespace {

// What one direction of a cable did over the whole run, from the link sampler's intervals.
struct LinkTotals {
  const LinkSeries* series;
  uint64_t bytes = 0;
  int64_t busy_ps = 0;
  double peak = 0;  // the busiest interval's utilisation
};

std::vector<LinkTotals> link_totals(const RunRecord& record) {
  std::vector<LinkTotals> out;
  const LinkActivity& activity = record.links;
  if (activity.interval_ns <= 0) return out;
  for (const LinkSeries& series : activity.links) {
    LinkTotals t{&series};
    for (size_t bin = 0; bin < series.bytes.size(); ++bin) t.bytes += series.bytes[bin];
    for (size_t bin = 0; bin < series.busy_ps.size(); ++bin) {
      t.busy_ps += series.busy_ps[bin];
      const int64_t start_ns = int64_t(bin) * activity.interval_ns;
      const int64_t length_ns = std::min(activity.interval_ns, std::max<int64_t>(record.total_ns - start_ns, 1));
      t.peak = std::max(t.peak, std::min(1.0, double(series.busy_ps[bin]) / (double(length_ns) * 1000)));
    }
    out.push_back(t);
  }
  return out;
}

// The run's mean utilisation of a direction: busy line time over the run.
double mean_utilisation(const LinkTotals& link, int64_t total_ns) {
  return total_ns > 0 ? std::min(1.0, double(link.busy_ps) / (double(total_ns) * 1000)) : 0.0;
}

// The summary of a simulated run (network given) or of a deployment (none).
std::string summary(const Scenario& scenario, const NetworkSetup* network, const RunRecord& record) {
  const std::vector<RankStats> ranks = ranks_in_order(record);
  int64_t compute_total = 0;
  int64_t comm_total = 0;
  for (const RankStats& stats : ranks) {
    compute_total += stats.compute_ns;
    comm_total += stats.comm_wait_ns;
  }
  const int64_t tpot = std::llround(record.tpot_ns());
  const bool deployed = !record.deployed_on.empty();

  const WorkloadSpec& workload = scenario.workload;
  std::string served;
  if (workload.is_serving()) {
    const SchedulerConfig& s = workload.serving.scheduler;
    served = "serving Poisson arrivals, " + s.name + " batching (max batch " +
             std::to_string(s.max_batch) + "), prompts up to " +
             std::to_string(workload.prompt_tokens) + " + up to " +
             std::to_string(workload.new_tokens) + " new tokens, ";
  } else {
    served = (workload.batch > 1 ? std::to_string(workload.batch) + " x " : "") +
             std::to_string(workload.prompt_tokens) + " prompt + " +
             std::to_string(workload.new_tokens) + " new tokens, ";
  }
  std::string out;
  out += scenario.name + ": model " + scenario.model.preset + ", " +
         parallel_text(scenario.parallel) + ", " + served +
         (deployed ? std::string("real") : compute_mode_name(scenario.compute_mode)) + " compute" +
         (scenario.shapes_only ? " (shapes only: tokens are meaningless)" : "") + ", seed " +
         std::to_string(scenario.seed) + "\n";
  if (deployed) {
    out += "deployed on " + record.deployed_on + ": real processes and network, real times\n\n";
  } else if (network != nullptr) {
    out += "network: " + network->topology + ", " + network->link_rate_text + " links, " +
           network->link_delay_text + " delay, " + transport_text(*network) + "\n\n";
  } else {
    out += "\n";
  }

  const auto line = [&](const std::string& label, const std::string& value) {
    out += "  " + pad_right(label, 16) + value + "\n";
  };
  line(deployed ? "wall time" : "simulated time", format_duration(record.total_ns));
  if (workload.is_serving()) {
    out += serving_summary(scenario, record);
  } else {
    line("TTFT", record.token_times_ns.empty() ? "-" : format_duration(record.ttft_ns()));
    line("TPOT", record.token_times_ns.size() < 2 ? "-" : format_duration(tpot));
    line("tokens", std::to_string(record.token_times_ns.size()) +
                      (record.prompts() > 1 ? " (" + std::to_string(record.prompts()) + " prompts)"
                                            : ""));
  }
  for (const auto& [name, steps] : record.phase_steps()) {
    const Percentiles p = step_latencies(steps);
    line(name, "p50 " + format_duration(p.p50_ns) + ", max " + format_duration(p.max_ns) +
                   " (" + std::to_string(steps.size()) + " steps, first begin to last end)");
  }
  line("compute / comm", percent(compute_total, compute_total + comm_total) + " / " +
                             percent(comm_total, compute_total + comm_total) +
                             " of busy time, all ranks");
  for (const FaultRecord& fault : record.faults) {
    std::string what = fault.kind + " " + fault.target + " at " + format_duration(fault.start_ns);
    if (fault.end_ns >= 0) what += " for " + format_duration(fault.end_ns - fault.start_ns);
    if (fault.packets_lost > 0) what += ": " + std::to_string(fault.packets_lost) + " packets lost";
    if (fault.compute_added_ns > 0) what += ": " + format_duration(fault.compute_added_ns) + " of compute added";
    line("fault", what);
  }
  // The busiest directions, by line time: where a network-bound run spends it.
  std::vector<LinkTotals> links = link_totals(record);
  std::stable_sort(links.begin(), links.end(),
                   [](const LinkTotals& a, const LinkTotals& b) { return a.busy_ps > b.busy_ps; });
  for (size_t i = 0; i < links.size() && i < 3; ++i) {
    line(i == 0 ? "busiest links" : "", links[i].series->name + ": " + format_bytes(links[i].bytes) + ", " +
                                            percent(links[i].busy_ps, record.total_ns * 1000) + " busy");
  }
  // The deepest queue: where packets waited longest for a line.
  const auto deepest = std::max_element(links.begin(), links.end(), [](const LinkTotals& a, const LinkTotals& b) {
    return a.series->queue_peak_bytes < b.series->queue_peak_bytes;
  });
  if (deepest != links.end() && deepest->series->queue_peak_bytes > 0) {
    const LinkSeries& series = *deepest->series;
    std::string what = series.name + ": peak " + format_bytes(series.queue_peak_bytes) + ", mean " +
                       format_bytes(uint64_t(std::llround(series.queue_mean_bytes)));
    if (series.marks > 0) what += ", " + std::to_string(series.marks) + " marked";
    if (series.credit_stall_ps > 0) what += ", " + format_duration(series.credit_stall_ps / 1000) + " stalled for credits";
    line("deepest queue", what);
  }
  const std::vector<int> over = ranks_over_memory(record);
  if (!over.empty()) {
    const RankStats& first = ranks[size_t(over.front())];
    line("memory", "does not fit: " + std::to_string(over.size()) + " of " +
                       std::to_string(ranks.size()) + " ranks need more than the " +
                       scenario.devices.profile + "'s " + format_bytes(record.device_memory_bytes) +
                       " (rank " + std::to_string(first.rank) + ": " +
                       format_bytes(memory_total(first)) + ")");
  }
  out += "\n";

  const size_t kWidth = 14;
  out += "  " + pad_left("rank", 6) + pad_left("compute", kWidth) + pad_left("comm wait", kWidth) +
         pad_left("bytes sent", kWidth) + pad_left("finish", kWidth) + pad_left("memory", kWidth) +
         "\n";
  for (const RankStats& stats : ranks) {
    out += "  " + pad_left(std::to_string(stats.rank), 6) +
           pad_left(format_duration(stats.compute_ns), kWidth) +
           pad_left(format_duration(stats.comm_wait_ns), kWidth) +
           pad_left(std::to_string(stats.bytes_sent), kWidth) +
           pad_left(format_duration(stats.finish_ns), kWidth) +
           pad_left(memory_total(stats) == 0 ? "-" : format_bytes(memory_total(stats)), kWidth) +
           "\n";
  }
  return out;
}

}  // namespace

namespace {

json results(const Scenario& scenario, const NetworkSetup* network, const RunRecord& record) {
  json setup = {
      {"model", scenario.model.preset},
      {"strategy", scenario.parallel.strategy},
      {"tp", scenario.parallel.tp},
      {"pp", scenario.parallel.pp},
      {"dp", scenario.parallel.dp},
      {"sp", scenario.parallel.sp},
      {"ep", scenario.parallel.ep},
      {"dispatch", scenario.parallel.dispatch},
      {"micro_batches", scenario.parallel.micro_batches},
      {"stages", scenario.parallel.stages},
      {"workload", scenario.workload.kind},
      {"batch", scenario.workload.batch},
      {"shapes_only", scenario.shapes_only},
      {"prompt_tokens", scenario.workload.prompt_tokens},
      {"new_tokens", scenario.workload.new_tokens},
      {"device_profile", scenario.devices.profile},
  };
  if (network != nullptr) add_network_setup(*network, setup);

  // Compute time per rank and label, from the compute spans.
  std::map<int, std::map<std::string, int64_t>> compute_by_label;
  for (const Span& span : record.spans) {
    if (span.kind == Span::Kind::kCompute) compute_by_label[span.rank][span.name] += span.end_ns - span.start_ns;
  }
  json ranks = json::array();
  uint64_t bytes_total = 0;
  std::map<std::string, uint64_t> bytes_by_operation;
  for (const RankStats& stats : ranks_in_order(record)) {
    for (const auto& [label, operations] : stats.bytes_by_label) {
      for (const auto& [operation, bytes] : operations) bytes_by_operation[operation] += bytes;
    }
    ranks.push_back({{"rank", stats.rank},
                     {"compute_ns", stats.compute_ns},
                     {"comm_wait_ns", stats.comm_wait_ns},
                     {"bytes_sent", stats.bytes_sent},
                     {"finish_ns", stats.finish_ns},
                     {"memory",
                      {{"weight_bytes", stats.weight_bytes},
                       {"kv_cache_bytes", stats.kv_cache_bytes},
                       {"activation_bytes", stats.activation_bytes},
                       {"total_bytes", memory_total(stats)}}},
                     {"compute_ns_by_label", compute_by_label[stats.rank]},
                     {"bytes_sent_by_label", stats.bytes_by_label}});
    bytes_total += stats.bytes_sent;
  }
  // The flat lists step by step, each step in prompt order: the order one device decoding the
  // whole batch knows the tokens, whatever the layout (dp's replicas and pp's micro-batches
  // know them in another), so that runs of any layout compare equal. Times stay paired with
  // their tokens.
  std::vector<std::vector<size_t>> of_prompt(static_cast<size_t>(record.prompts()));
  for (size_t i = 0; i < record.tokens.size(); ++i) of_prompt[size_t(record.token_prompts[i])].push_back(i);
  json tokens = json::array(), token_times = json::array();
  for (size_t step = 0, more = 1; more > 0; ++step) {
    more = 0;
    for (const std::vector<size_t>& indexes : of_prompt) {
      if (step >= indexes.size()) continue;
      tokens.push_back(record.tokens[indexes[step]]);
      token_times.push_back(record.token_times_ns[indexes[step]]);
      ++more;
    }
  }
  json prompts = json::array();
  for (size_t p = 0; p < of_prompt.size(); ++p) {
    json ids = json::array(), times = json::array();
    for (size_t i : of_prompt[p]) {
      ids.push_back(record.tokens[i]);
      times.push_back(record.token_times_ns[i]);
    }
    prompts.push_back({{"prompt", p}, {"tokens", std::move(ids)}, {"token_times_ns", std::move(times)}});
  }

  // Each phase's steps: step k joins every rank's k-th phase of that name.
  json phases = json::object();
  for (const auto& [name, steps] : record.phase_steps()) {
    int64_t rank_total = 0, rank_count = 0;
    for (const PhaseStep& step : steps) {
      rank_total += step.rank_total_ns;
      rank_count += step.ranks;
    }
    const Percentiles p = step_latencies(steps);
    phases[name] = {{"steps", steps.size()},
                    {"latency_ns",
                     {{"mean", p.mean_ns}, {"p50", p.p50_ns}, {"p90", p.p90_ns},
                      {"p99", p.p99_ns}, {"max", p.max_ns}}},
                    {"rank_mean_ns", rank_count == 0 ? 0.0 : double(rank_total) / double(rank_count)}};
  }

  json results = {
      {"format", kResultsFormat},
      {"format_version", kResultsFormatVersion},
      {"scenario", scenario.name},
      {"seed", scenario.seed},
      {"compute_mode", compute_mode_name(scenario.compute_mode)},
      {"backend", record.deployed_on.empty() ? std::string("simulated") : record.deployed_on},
      {"setup", std::move(setup)},
      {"total_ns", record.total_ns},
      {"ttft_ns", record.ttft_ns()},
      {"tpot_ns", record.tpot_ns()},
      {"tokens", std::move(tokens)},
      {"token_times_ns", std::move(token_times)},
      {"prompts", std::move(prompts)},
      {"messages", record.messages.size()},
      {"bytes_sent", bytes_total},
      {"bytes_sent_by_operation", bytes_by_operation},
      {"phases", std::move(phases)},
      {"memory",
       {{"device_bytes", record.device_memory_bytes},
        {"fits", ranks_over_memory(record).empty()},
        {"ranks_over", ranks_over_memory(record)}}},
      {"ranks", std::move(ranks)},
  };
  // Only a run stopped early says so: a whole run's results stay as they were, byte for byte.
  if (!record.partial.empty()) results["partial"] = record.partial;
  // A deployment's: the preset that simulates what it ran (`uniference compare` picks it).
  if (!record.deployed_collectives.empty()) results["collectives"] = record.deployed_collectives;
  // Likewise, only a run with faults lists them.
  if (!record.faults.empty()) {
    json faults = json::array();
    for (const FaultRecord& fault : record.faults) {
      json entry = {{"pointer", fault.pointer}, {"kind", fault.kind}, {"target", fault.target},
                    {"start_ns", fault.start_ns}, {"end_ns", fault.end_ns < 0 ? json() : json(fault.end_ns)}};
      if (fault.kind == "loss_burst") entry["loss"] = fault.loss;
      if (fault.kind == "straggler") entry["factor"] = fault.factor;
      entry["packets_lost"] = fault.packets_lost;
      entry["compute_added_ns"] = fault.compute_added_ns;
      faults.push_back(std::move(entry));
    }
    results["faults"] = std::move(faults);
  }
  if (scenario.workload.is_serving()) results["serving"] = serving_json(scenario, record);
  if (record.links.interval_ns > 0) {
    json links = json::array();
    for (const LinkTotals& link : link_totals(record)) {
      links.push_back({{"name", link.series->name},
                       {"rate_bps", link.series->rate_bps},
                       {"bytes", link.bytes},
                       {"busy_ns", link.busy_ps / 1000},
                       {"utilisation", mean_utilisation(link, record.total_ns)},
                       {"peak_utilisation", link.peak},
                       {"drops", link.series->drops},
                       {"marks", link.series->marks},
                       {"queue_peak_bytes", link.series->queue_peak_bytes},
                       {"queue_mean_bytes", link.series->queue_mean_bytes},
                       {"credit_stall_ns", link.series->credit_stall_ps / 1000}});
      // A run of several jobs: whose bytes they were, and how long two or more shared it.
      if (!record.jobs.empty()) {
        json by_job = json::object();
        for (size_t j = 0; j < link.series->job_bytes.size() && j < record.jobs.size(); ++j) {
          if (link.series->job_bytes[j] > 0) by_job[record.jobs[j].name] = link.series->job_bytes[j];
        }
        links.back()["bytes_by_job"] = std::move(by_job);
        links.back()["shared_ns"] = link.series->shared_ps / 1000;
      }
    }
    results["links"] = {{"interval_ns", record.links.interval_ns},
                        {"omitted", record.links.links_omitted},
                        {"directions", std::move(links)}};
  }
  return results;
}

// The payload bytes a record's ranks handed to the network.
uint64_t bytes_sent(const RunRecord& record) {
  uint64_t bytes = 0;
  for (const RankStats& stats : record.ranks) bytes += stats.bytes_sent;
  return bytes;
}

// What a job of several (/jobs) used, for results.json: a traffic job's pattern, or the
// model job's own results, as results() gives them for the job alone.
json job_entry(const JobSpec& spec, const JobRanks& ranks, const RunRecord& record) {
  const RunRecord job = job_record(record, ranks.first_rank, ranks.ranks);
  json entry;
  if (spec.alone) {
    entry = results(*spec.alone, nullptr, job);
  } else {
    entry = {{"traffic",
              {{"pattern", spec.traffic->pattern}, {"bytes", spec.traffic->bytes},
               {"period_ns", spec.traffic->period_ns}}},
             {"total_ns", job.total_ns},
             {"bytes_sent", bytes_sent(job)}};
  }
  entry["name"] = spec.name;
  entry["first_rank"] = ranks.first_rank;
  entry["rank_count"] = ranks.ranks;
  entry["start_ns"] = spec.start_ns;
  return entry;
}

// results.json of a run of several jobs: what they shared (the network, its links, the faults,
// every rank's totals) at the top, each job's own results under "jobs".
json jobs_results(const Scenario& scenario, const NetworkSetup* network, const RunRecord& record) {
  // The shared part is results() of the run without what belongs to one job.
  RunRecord shared = record;
  shared.tokens.clear();
  shared.token_times_ns.clear();
  shared.token_prompts.clear();
  shared.requests.clear();
  shared.phases.clear();
  Scenario run = scenario;
  run.workload.kind = "single";  // the jobs' workloads are theirs
  json out = results(run, network, shared);
  for (const char* key : {"ttft_ns", "tpot_ns", "tokens", "token_times_ns", "prompts", "phases", "memory"}) {
    out.erase(key);
  }
  for (const char* key : {"model", "strategy", "tp", "pp", "dp", "sp", "ep", "dispatch", "micro_batches",
                          "stages", "workload", "batch", "prompt_tokens", "new_tokens", "device_profile"}) {
    out["setup"].erase(key);
  }
  json jobs = json::array();
  for (size_t j = 0; j < record.jobs.size(); ++j) jobs.push_back(job_entry(scenario.jobs.at(j), record.jobs[j], record));
  out["jobs"] = std::move(jobs);
  return out;
}

// The summary of a run of several jobs: the network, then a block per job.
std::string jobs_summary(const Scenario& scenario, const NetworkSetup* network, const RunRecord& record) {
  std::string out = scenario.name + ": " + std::to_string(record.jobs.size()) + " jobs on one network\n";
  if (network != nullptr) {
    out += "network: " + network->topology + ", " + network->link_rate_text + " links, " +
           network->link_delay_text + " delay, " + transport_text(*network) + "\n";
  }
  out += "  " + pad_right("simulated time", 16) + format_duration(record.total_ns) + "\n";
  for (size_t j = 0; j < record.jobs.size(); ++j) {
    const JobSpec& spec = scenario.jobs.at(j);
    const JobRanks& ranks = record.jobs[j];
    const RunRecord job = job_record(record, ranks.first_rank, ranks.ranks);
    out += "\njob " + spec.name + " (ranks " + std::to_string(ranks.first_rank) + " to " +
           std::to_string(ranks.first_rank + ranks.ranks - 1) + "): ";
    if (spec.traffic) {
      out += "background " + spec.traffic->pattern + " of " + format_bytes(spec.traffic->bytes) + " every " +
             format_duration(spec.traffic->period_ns) + ", " + format_bytes(bytes_sent(job)) + " sent\n";
    } else {
      out += summary(*spec.alone, nullptr, job);
    }
  }
  return out;
}

}  // namespace

std::string summary_table(const Scenario& scenario, const NetworkSetup& network, const RunRecord& record) {
  if (!record.jobs.empty()) return jobs_summary(scenario, &network, record);
  return summary(scenario, &network, record);
}

std::string summary_table(const Scenario& scenario, const RunRecord& record) {
  if (!record.jobs.empty()) return jobs_summary(scenario, nullptr, record);
  return summary(scenario, nullptr, record);
}

json results_json(const Scenario& scenario, const NetworkSetup& network, const RunRecord& record) {
  if (!record.jobs.empty()) return jobs_results(scenario, &network, record);
  return results(scenario, &network, record);
}

json results_json(const Scenario& scenario, const RunRecord& record) {
  if (!record.jobs.empty()) return jobs_results(scenario, nullptr, record);
  return results(scenario, nullptr, record);
}

RunRecord trace_window(const RunRecord& record, uint64_t max_events, int64_t* cut_ns) {
  *cut_ns = -1;
  if (record.spans.size() + record.messages.size() <= max_events) return record;
  std::vector<int64_t> starts;
  for (const Span& span : record.spans) starts.push_back(span.start_ns);
  for (const NetMessage& message : record.messages) starts.push_back(message.send_ns);
  std::nth_element(starts.begin(), starts.begin() + long(max_events), starts.end());
  // Everything that starts before the (max_events + 1)-th start: at most max_events events.
  const int64_t cut = starts[max_events];
  RunRecord window = record;
  window.spans.clear();
  window.messages.clear();
  for (const Span& span : record.spans) {
    if (span.start_ns < cut) window.spans.push_back(span);
  }
  for (const NetMessage& message : record.messages) {
    if (message.send_ns < cut) window.messages.push_back(message);
  }
  window.phases.clear();
  for (const PhaseSpan& phase : record.phases) {
    if (phase.start_ns < cut) window.phases.push_back(phase);
  }
  *cut_ns = cut;
  return window;
}

namespace {

void write(const Scenario& scenario, const NetworkSetup* network, const RunRecord& record,
           const std::string& out_dir) {
  // Render first: a failure here must not leave one file of the pair written.
  std::string results_text;
  std::string trace_text;
  std::string requests_text;
  if (scenario.outputs.results) {
    const json out = record.jobs.empty() ? results(scenario, network, record) : jobs_results(scenario, network, record);
    results_text = json_text(out, 2) + "\n";
  }
  if (scenario.outputs.results && scenario.workload.is_serving() && record.jobs.empty()) {
    requests_text = requests_csv(record);
  }
  if (scenario.outputs.trace) {
    int64_t cut_ns = -1;
    const RunRecord window = trace_window(record, scenario.outputs.trace_max_events, &cut_ns);
    std::string title = scenario.name;
    if (cut_ns >= 0) {
      title += " (first " + format_duration(cut_ns) + " of " + format_duration(record.total_ns) + ")";
      std::cerr << "uniference: trace.json holds the first " << format_duration(cut_ns) << " of "
                << format_duration(record.total_ns) << " (/outputs/trace_max_events = "
                << scenario.outputs.trace_max_events << ")\n";
    }
    trace_text = chrome_trace_text(window, title);
  }
  if (!scenario.outputs.results && !scenario.outputs.trace) return;

  std::error_code error;
  std::filesystem::create_directories(out_dir, error);
  if (error) {
    throw OutputError("cannot create output directory " + out_dir + ": " + error.message());
  }
  const std::filesystem::path dir(out_dir);
  if (scenario.outputs.results) {
    write_file_atomically((dir / "results.json").string(), results_text);
  }
  if (!requests_text.empty()) write_file_atomically((dir / "requests.csv").string(), requests_text);
  if (scenario.outputs.trace) {
    write_file_atomically((dir / "trace.json").string(), trace_text);
  }
  // Made from the files just written, so that it is the page `uniference report` makes, with
  // one line more: the ns-3 build, which only the run knows.
  if (scenario.outputs.report) {
    RunFolder folder = read_run_folder(out_dir);
    if (network) folder.ns3_build = network->ns3_build;
    write_file_atomically((dir / "report.html").string(), html_report(folder));
  }
}

}  // namespace

void write_outputs(const Scenario& scenario, const NetworkSetup& network, const RunRecord& record,
                   const std::string& out_dir) {
  write(scenario, &network, record, out_dir);
}

void write_outputs(const Scenario& scenario, const RunRecord& record, const std::string& out_dir) {
  write(scenario, nullptr, record, out_dir);
}

}  // namespace uniference
