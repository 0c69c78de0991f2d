#include "apps/html_report.h"

#include "apps/report.h"
#include "apps/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <vector>

namespace uniference {

namespace {

using json = nlohmann::json;

// The palette of the plots: one colour per run or series, distinguishable in print.
const char* const kColours[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1"};
const char* const kCompute = "#4e79a7";
const char* const kComm = "#f28e2b";
const char* const kOther = "#bab0ac";

constexpr size_t kMostBars = 24;     // rows of a bar chart: the largest, the rest summed
constexpr size_t kMostLinks = 32;    // rows of the link heat map: the busiest directions
constexpr size_t kHeatColumns = 120;

json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw ReportInputError(path.string() + ": cannot be read");
  try {
    return json::parse(in);
  } catch (const json::parse_error& e) {
    throw ReportInputError(path.string() + ": not JSON (" + e.what() + ")");
  }
}

// Reads a number where the format promises one, or says which key of which file broke it.
double number_at(const json& object, const char* key, const std::string& where) {
  const auto found = object.find(key);
  if (found == object.end() || !found->is_number()) {
    throw ReportInputError(where + ": '" + key + "' is missing or not a number");
  }
  return found->get<double>();
}

// The member `key` of `object`, or null when it has none: a reference into the document, so
// that loops over it (and over its items()) never outlive a temporary.
const json& member(const json& object, const char* key) {
  static const json kNone;
  if (!object.is_object()) return kNone;
  const auto found = object.find(key);
  return found == object.end() ? kNone : *found;
}

// A number or a string where one may stand, and 0 or "" where the key is missing or holds
// something else: the plots show what a folder has, results.json of older versions included.
double number_or_zero(const json& object, const char* key) {
  const json& value = member(object, key);
  return value.is_number() ? value.get<double>() : 0;
}

std::string text_or_empty(const json& object, const char* key) {
  const json& value = member(object, key);
  return value.is_string() ? value.get<std::string>() : "";
}

std::string value_text(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return "";
  return value.dump();
}

// The unit a plot's times are shown in: the one in which its largest reads below 10,000.
struct TimeUnit {
  const char* name;
  double ns;
};

TimeUnit unit_for(double largest_ns) {
  if (largest_ns >= 1e10) return {"s", 1e9};
  if (largest_ns >= 1e6) return {"ms", 1e6};
  if (largest_ns >= 1e3) return {"µs", 1e3};
  return {"ns", 1};
}

std::string ns_text(double ns) { return format_duration(int64_t(std::llround(ns))); }

std::string cell(const std::string& text) { return "<td>" + escape_markup(text) + "</td>"; }

std::string scenario_name(const RunFolder& run) {
  const std::string name = text_or_empty(run.results, "scenario");
  return name.empty() ? "run" : name;
}

// A run's name for headings: the scenario, and the folder when two runs share one.
std::string run_name(const RunFolder& run) {
  return scenario_name(run) + " (" + run.path + ")";
}

// ---- what the plots show, read from results.json and trace.json ----------------------------

struct RankTimes {
  std::string name;
  double compute_ns = 0, comm_ns = 0, other_ns = 0;
};

std::vector<RankTimes> rank_times(const RunFolder& run) {
  std::vector<RankTimes> out;
  const json& ranks = member(run.results, "ranks");
  for (size_t i = 0; i < ranks.size(); ++i) {
    const std::string where = run.path + "/results.json: /ranks/" + std::to_string(i);
    RankTimes t;
    t.name = "rank " + (member(ranks[i], "rank").is_number() ? value_text(member(ranks[i], "rank")) : std::to_string(i));
    t.compute_ns = number_at(ranks[i], "compute_ns", where);
    t.comm_ns = number_at(ranks[i], "comm_wait_ns", where);
    t.other_ns = std::max(0.0, number_at(ranks[i], "finish_ns", where) - t.compute_ns - t.comm_ns);
    out.push_back(t);
  }
  return out;
}

// "layer3.q_proj" -> ("layer3", "q_proj"); a label outside the layers is its own group.
std::pair<std::string, std::string> split_label(const std::string& label) {
  const size_t dot = label.find('.');
  if (label.rfind("layer", 0) == 0 && dot != std::string::npos) {
    return {label.substr(0, dot), label.substr(dot + 1)};
  }
  return {label, label};
}

// Charged compute summed over ranks, by the label's operation ("q_proj", every layer's) and by
// its layer ("layer3"), in ns.
void compute_by_label(const RunFolder& run, std::map<std::string, double>& by_operation,
                      std::map<std::string, double>& by_layer) {
  for (const json& rank : member(run.results, "ranks")) {
    for (const auto& [label, ns] : member(rank, "compute_ns_by_label").items()) {
      if (!ns.is_number()) continue;
      const auto [layer, operation] = split_label(label);
      by_operation[operation] += ns.get<double>();
      by_layer[layer] += ns.get<double>();
    }
  }
}

// Time the ranks waited in communication calls, summed over ranks, by operation: the trace's
// communication slices on the ranks' own tracks (an asynchronous call's flight, on a track of
// its own, overlaps compute and is not waiting).
std::map<std::string, double> comm_wait_by_operation(const json& trace) {
  std::map<std::string, double> out;
  if (!trace.is_object()) return out;
  std::map<std::pair<double, double>, std::vector<std::pair<std::string, double>>> open;
  for (const json& event : member(trace, "traceEvents")) {
    if (text_or_empty(event, "cat") != "comm") continue;
    const std::string phase = text_or_empty(event, "ph");
    const auto track = std::make_pair(number_or_zero(event, "pid"), number_or_zero(event, "tid"));
    const double ts_ns = number_or_zero(event, "ts") * 1000;
    if (phase == "B") {
      const bool flight = !member(member(event, "args"), "flight").is_null();
      open[track].emplace_back(flight ? "" : text_or_empty(event, "name"), ts_ns);
    } else if (phase == "E" && !open[track].empty()) {
      const auto [name, start_ns] = open[track].back();
      open[track].pop_back();
      if (!name.empty()) out[name] += ts_ns - start_ns;
    }
  }
  return out;
}

// One direction of a cable, its counter samples (time in ns, utilisation) in order.
struct LinkLoad {
  std::string name;
  double bytes = 0;  // of the samples, for ranking only: equal consecutive intervals are merged
  std::vector<std::pair<double, double>> samples;
};

std::vector<LinkLoad> link_loads(const json& trace) {
  std::map<std::string, LinkLoad> by_name;
  if (!trace.is_object()) return {};
  for (const json& event : member(trace, "traceEvents")) {
    if (text_or_empty(event, "cat") != "link" || text_or_empty(event, "ph") != "C") continue;
    LinkLoad& load = by_name[text_or_empty(event, "name")];
    load.name = text_or_empty(event, "name");
    const json& args = member(event, "args");
    load.bytes += number_or_zero(args, "bytes");
    load.samples.emplace_back(number_or_zero(event, "ts") * 1000, number_or_zero(args, "utilisation"));
  }
  std::vector<LinkLoad> out;
  for (auto& [name, load] : by_name) out.push_back(std::move(load));
  std::stable_sort(out.begin(), out.end(),
                   [](const LinkLoad& a, const LinkLoad& b) { return a.bytes > b.bytes; });
  return out;
}

// The time-weighted mean utilisation of a piecewise-constant counter over [from, to).
double mean_over(const std::vector<std::pair<double, double>>& samples, double from, double to) {
  double weighted = 0;
  for (size_t i = 0; i < samples.size(); ++i) {
    const double start = std::max(samples[i].first, from);
    const double end = std::min(i + 1 < samples.size() ? samples[i + 1].first : to, to);
    if (end > start) weighted += samples[i].second * (end - start);
  }
  return to > from ? weighted / (to - from) : 0;
}

// ---- plots -----------------------------------------------------------------------------------

// One bar per key (the kMostBars - 1 largest over all runs, then one for the rest), and with
// several runs one row per run under each key (A, B) in the run's colour; in ms.
std::string bars_by_key(const std::string& title, const std::vector<std::string>& run_names,
                        const std::vector<std::map<std::string, double>>& runs) {
  std::map<std::string, double> total;
  for (const auto& run : runs) {
    for (const auto& [key, ns] : run) total[key] += ns;
  }
  std::vector<std::pair<std::string, double>> keys(total.begin(), total.end());
  std::stable_sort(keys.begin(), keys.end(), [](const auto& x, const auto& y) { return x.second > y.second; });
  const size_t shown = keys.size() > kMostBars ? kMostBars - 1 : keys.size();
  const size_t others = keys.size() - shown;
  double largest = 0;
  for (const auto& run : runs) {
    for (const auto& [key, ns] : run) largest = std::max(largest, ns);
  }
  const TimeUnit unit = unit_for(largest);

  std::vector<BarSeries> series;
  for (size_t i = 0; i < run_names.size(); ++i) series.push_back({run_names[i], kColours[i % 6]});
  std::vector<std::string> rows;
  std::vector<std::vector<double>> values;
  const auto add_row = [&](const std::string& key, size_t run, double ns) {
    rows.push_back(runs.size() > 1 ? key + " [" + char('A' + run) + "]" : key);
    std::vector<double> row(runs.size(), 0);
    row[run] = ns / unit.ns;
    values.push_back(std::move(row));
  };
  for (size_t k = 0; k < shown; ++k) {
    for (size_t i = 0; i < runs.size(); ++i) {
      const auto found = runs[i].find(keys[k].first);
      add_row(keys[k].first, i, found == runs[i].end() ? 0 : found->second);
    }
  }
  if (others > 0) {
    for (size_t i = 0; i < runs.size(); ++i) {
      double rest = 0;
      for (size_t k = shown; k < keys.size(); ++k) {
        const auto found = runs[i].find(keys[k].first);
        if (found != runs[i].end()) rest += found->second;
      }
      add_row("(" + std::to_string(others) + " others)", i, rest);
    }
  }
  return stacked_bars(title, rows, series, values, std::string(unit.name) + " (all ranks)");
}

std::string rank_bars(const std::vector<std::pair<std::string, std::vector<RankTimes>>>& runs) {
  double largest = 0;
  for (const auto& [prefix, ranks] : runs) {
    for (const RankTimes& t : ranks) largest = std::max(largest, t.compute_ns + t.comm_ns + t.other_ns);
  }
  const TimeUnit unit = unit_for(largest);
  std::vector<std::string> rows;
  std::vector<std::vector<double>> values;
  for (const auto& [prefix, ranks] : runs) {
    for (const RankTimes& t : ranks) {
      rows.push_back(prefix + t.name);
      values.push_back({t.compute_ns / unit.ns, t.comm_ns / unit.ns, t.other_ns / unit.ns});
    }
  }
  return stacked_bars("Per rank: compute, communication wait, the rest until it finished", rows,
                      {{"compute", kCompute}, {"communication wait", kComm}, {"other", kOther}},
                      values, unit.name);
}

struct Latencies {
  std::vector<double> ttft, tpot, e2e, queueing;  // ns
};

Latencies serving_latencies(const RunFolder& run) {
  Latencies out;
  const json& requests = member(member(run.results, "serving"), "per_request");
  for (size_t i = 0; i < requests.size(); ++i) {
    const json& r = requests[i];
    const std::string where = run.path + "/results.json: /serving/per_request/" + std::to_string(i);
    const double arrival = number_at(r, "arrival_ns", where);
    const double first = number_at(r, "first_token_ns", where);
    const double finish = number_at(r, "finish_ns", where);
    const double tokens = number_at(r, "new_tokens", where);
    out.ttft.push_back(first - arrival);
    if (tokens > 1) out.tpot.push_back((finish - first) / (tokens - 1));
    out.e2e.push_back(finish - arrival);
    out.queueing.push_back(number_at(r, "scheduled_ns", where) - arrival);
  }
  return out;
}

// TTFT, TPOT, end-to-end and queueing CDFs, one line per run, with the first run's SLOs and
// its M/D/1 mean wait marked.
std::vector<std::string> serving_plots(const std::vector<const RunFolder*>& runs,
                                       const std::vector<std::string>& names) {
  std::vector<Latencies> latencies;
  for (const RunFolder* run : runs) latencies.push_back(serving_latencies(*run));
  const json& serving = member(runs.front()->results, "serving");
  const json slo = member(serving, "slo");
  const auto slo_marker = [&](const char* key) {
    std::vector<Marker> markers;
    const double ns = number_or_zero(slo, key);
    if (ns > 0) markers.push_back({"SLO", "#e15759", ns});
    return markers;
  };
  std::vector<Marker> queueing_markers;
  const double md1 = number_or_zero(member(serving, "queueing_model"), "md1_wait_ns");
  if (md1 > 0) queueing_markers.push_back({"M/D/1 mean wait", "#59a14f", md1});
  // One CDF, its lines and markers in ns, drawn in the unit its largest value calls for.
  const auto plot = [&](const char* title, std::vector<double> Latencies::*field, std::vector<Marker> markers) {
    double largest = 0;
    for (const Latencies& l : latencies) {
      for (const double ns : l.*field) largest = std::max(largest, ns);
    }
    for (const Marker& m : markers) largest = std::max(largest, m.x);
    const TimeUnit unit = unit_for(largest);
    std::vector<CdfLine> lines;
    for (size_t i = 0; i < runs.size(); ++i) {
      lines.push_back({names[i], kColours[i % 6], latencies[i].*field});
      for (double& v : lines.back().values) v /= unit.ns;
    }
    for (Marker& m : markers) m.x /= unit.ns;
    return cdf_plot(title, lines, markers, unit.name);
  };
  return {plot("Time to first token (CDF over requests)", &Latencies::ttft, slo_marker("ttft_ns")),
          plot("Time per output token (CDF over requests)", &Latencies::tpot, slo_marker("tpot_ns")),
          plot("End-to-end latency (CDF over requests)", &Latencies::e2e, {}),
          plot("Queueing before the first schedule (CDF over requests)", &Latencies::queueing,
               queueing_markers)};
}

// Outage windows (ns) per link with outages (a satellite's handovers, a blocked beam): the
// trace's "outage" slices on the tracks named "outages: LINK".
std::map<std::string, std::vector<std::pair<double, double>>> link_outages(const json& trace) {
  std::map<std::string, std::vector<std::pair<double, double>>> out;
  std::map<double, std::string> link_of_track;
  std::map<double, double> open;
  for (const json& event : member(trace, "traceEvents")) {
    const double track = number_or_zero(event, "tid");
    if (text_or_empty(event, "ph") == "M" && text_or_empty(event, "name") == "thread_name") {
      const std::string name = text_or_empty(member(event, "args"), "name");
      if (name.rfind("outages: ", 0) == 0) link_of_track[track] = name.substr(9);
      continue;
    }
    if (text_or_empty(event, "name") != "outage" || !link_of_track.count(track)) continue;
    const double ts_ns = number_or_zero(event, "ts") * 1000;
    if (text_or_empty(event, "ph") == "B") open[track] = ts_ns;
    if (text_or_empty(event, "ph") == "E" && open.count(track)) {
      out[link_of_track[track]].emplace_back(open[track], ts_ns);
      open.erase(track);
    }
  }
  return out;
}

// The trace's time-varying link counters (category "link-condition": "delay: LINK",
// "rate: DIRECTION"), each as (time ns, value) in time order.
std::map<std::string, std::vector<std::pair<double, double>>> link_condition_counters(const json& trace) {
  std::map<std::string, std::vector<std::pair<double, double>>> out;
  for (const json& event : member(trace, "traceEvents")) {
    if (text_or_empty(event, "cat") != "link-condition" || text_or_empty(event, "ph") != "C") continue;
    const json& args = member(event, "args");
    if (!args.is_object() || args.empty() || !args.begin()->is_number()) continue;
    out[text_or_empty(event, "name")].emplace_back(number_or_zero(event, "ts") * 1000,
                                                   args.begin()->get<double>());
  }
  return out;
}

struct RateUnit {
  const char* name;
  double bps;
};

RateUnit rate_unit_for(double largest_bps) {
  if (largest_bps >= 1e9) return {"Gbit/s", 1e9};
  if (largest_bps >= 1e6) return {"Mbit/s", 1e6};
  if (largest_bps >= 1e3) return {"kbit/s", 1e3};
  return {"bit/s", 1};
}

// (time, value) points in the plot's units.
std::vector<std::pair<double, double>> scaled(const std::vector<std::pair<double, double>>& points,
                                              double time_unit, double value_unit) {
  std::vector<std::pair<double, double>> out;
  for (const auto& [t, v] : points) out.emplace_back(t / time_unit, v / value_unit);
  return out;
}

double largest_value(const std::vector<std::pair<double, double>>& points) {
  double largest = 0;
  for (const auto& point : points) largest = std::max(largest, point.second);
  return largest;
}

// Per time-varying link, its one-way delay and its two directions' rates over the run, with
// its outages shaded.
std::string varying_links_section(const RunFolder& run) {
  const auto counters = link_condition_counters(run.trace);
  const auto outages = link_outages(run.trace);
  const double total = number_or_zero(run.results, "total_ns");
  if (counters.empty() || !(total > 0)) return "";
  const TimeUnit time = unit_for(total);
  std::string out;
  for (const auto& [name, delays] : counters) {
    if (name.rfind("delay: ", 0) != 0) continue;
    const std::string link = name.substr(7);
    std::vector<std::pair<double, double>> windows;
    if (const auto found = outages.find(link); found != outages.end()) {
      for (const auto& [from, to] : found->second) windows.emplace_back(from / time.ns, to / time.ns);
    }
    const TimeUnit delay = unit_for(largest_value(delays));
    out += time_plot("One-way delay of " + link, {{"delay", kColours[0], scaled(delays, time.ns, delay.ns)}},
                     total / time.ns, time.name, delay.name, windows, "out");
    // "a <-> b" has the directions "a -> b" and "b -> a".
    const size_t arrow = link.find(" <-> ");
    if (arrow == std::string::npos) continue;
    const std::string a = link.substr(0, arrow), b = link.substr(arrow + 5);
    std::vector<std::pair<std::string, std::vector<std::pair<double, double>>>> rates;
    double fastest = 0;
    for (const std::string& direction : {a + " -> " + b, b + " -> " + a}) {
      if (const auto found = counters.find("rate: " + direction); found != counters.end()) {
        rates.emplace_back(direction, found->second);
        fastest = std::max(fastest, largest_value(found->second));
      }
    }
    if (rates.empty()) continue;
    const RateUnit rate = rate_unit_for(fastest);
    std::vector<TimeLine> lines;
    for (size_t i = 0; i < rates.size(); ++i) {
      lines.push_back({rates[i].first, kColours[i % 6], scaled(rates[i].second, time.ns, rate.bps), true});
    }
    out += time_plot("Rate of " + link, lines, total / time.ns, time.name, rate.name, windows, "out");
  }
  return out.empty() ? "" : "<h2>Time-varying links</h2>" + out;
}

// Each link's share of every column of the run it was out, as a heat map, and a table of the
// outages' count and total.
std::string outages_section(const RunFolder& run) {
  const auto outages = link_outages(run.trace);
  const double total = number_or_zero(run.results, "total_ns");
  if (outages.empty() || !(total > 0)) return "";
  const double step = total / double(kHeatColumns);
  std::vector<std::string> rows;
  std::vector<std::vector<double>> cells;
  std::string table = "<table><tr><th>link</th><th>outages</th><th>out in all</th></tr>";
  for (const auto& [link, windows] : outages) {
    rows.push_back(link);
    std::vector<double> row(kHeatColumns, 0);
    double out_ns = 0;
    for (const auto& [start, end] : windows) {
      out_ns += end - start;
      for (size_t c = 0; c < kHeatColumns; ++c) {
        const double from = step * double(c), to = from + step;
        row[c] += std::max(0.0, std::min(end, to) - std::max(start, from)) / step;
      }
    }
    cells.push_back(std::move(row));
    table += "<tr>" + cell(link) + cell(std::to_string(windows.size())) + cell(ns_text(out_ns)) + "</tr>";
  }
  return "<h2>Link outages</h2>" +
         heat_map("Link outages over time (the share of each column a link was out)", rows, cells,
                  step / unit_for(total).ns, unit_for(total).name) +
         table + "</table>";
}

// results.json's link directions, most first by `key`, at most ten.
std::vector<const json*> top_directions(const json& results, const char* key) {
  std::vector<const json*> sorted;
  for (const json& link : member(member(results, "links"), "directions")) {
    if (number_or_zero(link, key) > 0) sorted.push_back(&link);
  }
  std::stable_sort(sorted.begin(), sorted.end(), [key](const json* a, const json* b) {
    return number_or_zero(*a, key) > number_or_zero(*b, key);
  });
  if (sorted.size() > 10) sorted.resize(10);
  return sorted;
}

std::string percent_text(double fraction) {
  char text[48];
  std::snprintf(text, sizeof text, "%.1f%%", 100 * fraction);
  return text;
}

// The busiest directions by bytes, from results.json's link table (format 5 and later).
std::string top_links_table(const json& results) {
  const std::vector<const json*> top = top_directions(results, "bytes");
  if (top.empty()) return "";
  std::string out = "<h3>Most bytes</h3><table><tr><th>direction</th><th>bytes</th><th>busy</th>"
                    "<th>utilisation</th><th>busiest interval</th><th>drops</th></tr>";
  for (const json* link : top) {
    out += "<tr>" + cell(text_or_empty(*link, "name")) +
           cell(format_bytes(uint64_t(number_or_zero(*link, "bytes")))) +
           cell(ns_text(number_or_zero(*link, "busy_ns"))) +
           cell(percent_text(number_or_zero(*link, "utilisation"))) +
           cell(percent_text(number_or_zero(*link, "peak_utilisation"))) +
           cell(value_text(member(*link, "drops"))) + "</tr>";
  }
  return out + "</table>";
}

// The directions whose packets waited most, by mean backlog (format 6 and later): where a
// run's network time goes to queueing rather than to the line.
std::string top_queues_table(const json& results) {
  const std::vector<const json*> top = top_directions(results, "queue_mean_bytes");
  if (top.empty()) return "";
  std::string out = "<h3>Most queueing</h3><table><tr><th>direction</th><th>mean queue</th>"
                    "<th>peak queue</th><th>marks</th><th>credit stalls</th><th>drops</th></tr>";
  for (const json* link : top) {
    out += "<tr>" + cell(text_or_empty(*link, "name")) +
           cell(format_bytes(uint64_t(std::llround(number_or_zero(*link, "queue_mean_bytes"))))) +
           cell(format_bytes(uint64_t(number_or_zero(*link, "queue_peak_bytes")))) +
           cell(value_text(member(*link, "marks"))) +
           cell(ns_text(number_or_zero(*link, "credit_stall_ns"))) +
           cell(value_text(member(*link, "drops"))) + "</tr>";
  }
  return out + "</table>";
}

std::string link_heat_map(const RunFolder& run) {
  const std::vector<LinkLoad> loads = link_loads(run.trace);
  if (loads.empty()) return "";
  const double total = number_or_zero(run.results, "total_ns");
  if (!(total > 0)) return "";
  const double step = total / double(kHeatColumns);
  std::vector<std::string> rows;
  std::vector<std::vector<double>> cells;
  for (size_t i = 0; i < loads.size() && i < kMostLinks; ++i) {
    rows.push_back(loads[i].name);
    std::vector<double> row;
    for (size_t c = 0; c < kHeatColumns; ++c) {
      row.push_back(mean_over(loads[i].samples, step * double(c), step * double(c + 1)));
    }
    cells.push_back(std::move(row));
  }
  std::string title = "Link utilisation over time";
  if (loads.size() > kMostLinks) {
    title += " (the " + std::to_string(kMostLinks) + " busiest of " + std::to_string(loads.size()) + " directions)";
  }
  return heat_map(title, rows, cells, step / unit_for(total).ns, unit_for(total).name);
}

// ---- tables ----------------------------------------------------------------------------------


// Key and value pairs flowing in columns: a scenario's setup has thirty of them.
std::string setup_table(const json& results, const std::string& ns3_build = "") {
  std::string out = "<dl class=\"kv\">";
  const auto item = [&](const std::string& key, const json& value) {
    out += "<div><dt>" + escape_markup(key) + "</dt><dd>" + escape_markup(value_text(value)) + "</dd></div>";
  };
  for (const char* key : {"scenario", "backend", "compute_mode", "seed"}) {
    if (results.contains(key)) item(key, results[key]);
  }
  for (const auto& [key, value] : member(results, "setup").items()) item(key, value);
  if (!ns3_build.empty()) item("ns-3 build", ns3_build);
  return out + "</dl>";
}

// The headline figures of each run, and with two the change from the first to the second.
std::string headline_table(const std::vector<const RunFolder*>& runs, const std::vector<std::string>& names) {
  struct Row {
    std::string label;
    std::function<std::string(const json&)> text;
    std::function<double(const json&)> value;  // for the change; nullptr: none
  };
  const auto time_of = [](const char* key) {
    return [key](const json& r) { return number_or_zero(r, key); };
  };
  const auto serving_count = [](const char* key) {
    return [key](const json& r) { return number_or_zero(member(r, "serving"), key); };
  };
  const auto serving = [](const char* key, const char* stat) {
    return [key, stat](const json& r) {
      return number_or_zero(member(member(r, "serving"), key), stat);
    };
  };
  const bool serving_run = runs.front()->results.contains("serving");
  std::vector<Row> rows = {
      {"total", [&](const json& r) { return ns_text(time_of("total_ns")(r)); }, time_of("total_ns")},
      {"messages", [](const json& r) { return value_text(member(r, "messages")); }, time_of("messages")},
      {"bytes sent", [](const json& r) { return format_bytes(uint64_t(number_or_zero(r, "bytes_sent"))); },
       time_of("bytes_sent")},
  };
  // A serving run's figures are per request (below); its batch-run keys stay 0.
  if (!serving_run) {
    rows.insert(rows.begin() + 1,
                {{"TTFT (mean)", [&](const json& r) { return ns_text(time_of("ttft_ns")(r)); }, time_of("ttft_ns")},
                 {"TPOT (mean)", [&](const json& r) { return ns_text(time_of("tpot_ns")(r)); }, time_of("tpot_ns")},
                 {"tokens", [](const json& r) { return std::to_string(member(r, "tokens").size()); }, nullptr}});
  }
  if (serving_run) {
    rows.push_back({"requests", [](const json& r) { return value_text(member(member(r, "serving"), "requests")); },
                    serving_count("requests")});
    for (const auto& [key, name] : {std::pair<const char*, const char*>{"ttft_ns", "TTFT"},
                                    {"tpot_ns", "TPOT"}, {"e2e_ns", "end-to-end"}}) {
      for (const char* stat : {"p50", "p99"}) {
        const auto value = serving(key, stat);
        rows.push_back({std::string(name) + " " + stat, [value](const json& r) { return ns_text(value(r)); }, value});
      }
    }
    const auto goodput = serving_count("goodput_per_s");
    rows.push_back({"goodput", [goodput](const json& r) {
                      char text[32];
                      std::snprintf(text, sizeof text, "%.3f req/s", goodput(r));
                      return std::string(text);
                    },
                    goodput});
  }
  std::string out = "<table><tr><th></th>";
  for (const std::string& name : names) out += "<th>" + escape_markup(name) + "</th>";
  if (runs.size() == 2) out += "<th>change</th>";
  out += "</tr>";
  for (const Row& row : rows) {
    out += "<tr><th>" + escape_markup(row.label) + "</th>";
    for (const RunFolder* run : runs) out += cell(row.text(run->results));
    if (runs.size() == 2) {
      std::string change;
      if (row.value) {
        const double a = row.value(runs[0]->results), b = row.value(runs[1]->results);
        char text[32];
        if (a != 0) std::snprintf(text, sizeof text, "%+.1f%%", 100 * (b - a) / a);
        change = a != 0 ? text : "";
      }
      out += cell(change);
    }
    out += "</tr>";
  }
  return out + "</table>";
}

std::string faults_table(const json& results) {
  if (!results.contains("faults")) return "";
  std::string out = "<h2>Faults</h2><table><tr><th>where</th><th>kind</th><th>target</th><th>from</th>"
                    "<th>until</th><th>packets lost</th><th>compute added</th></tr>";
  for (const json& f : member(results, "faults")) {
    out += "<tr>" + cell(text_or_empty(f, "pointer")) + cell(text_or_empty(f, "kind")) +
           cell(text_or_empty(f, "target")) + cell(ns_text(number_or_zero(f, "start_ns"))) +
           cell(member(f, "end_ns").is_number() ? ns_text(number_or_zero(f, "end_ns")) : "the end") +
           cell(value_text(member(f, "packets_lost"))) + cell(ns_text(number_or_zero(f, "compute_added_ns"))) +
           "</tr>";
  }
  return out + "</table>";
}

std::string phases_table(const json& results) {
  const json phases = member(results, "phases");
  if (phases.empty()) return "";
  std::string out = "<h2>Phases</h2><table><tr><th>phase</th><th>steps</th><th>mean</th><th>p50</th>"
                    "<th>p99</th><th>max</th><th>rank mean</th></tr>";
  for (const auto& [name, phase] : phases.items()) {
    const json latency = member(phase, "latency_ns");
    out += "<tr>" + cell(name) + cell(value_text(member(phase, "steps")));
    for (const char* stat : {"mean", "p50", "p99", "max"}) out += cell(ns_text(number_or_zero(latency, stat)));
    out += cell(ns_text(number_or_zero(phase, "rank_mean_ns"))) + "</tr>";
  }
  return out + "</table>";
}

const char* kStyle = R"(<style>
body{font-family:sans-serif;margin:2em auto;max-width:800px;color:#222}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;font-size:0.9em;margin:0.5em 0}
th,td{border:1px solid #ddd;padding:3px 8px;text-align:right}th{background:#f4f4f4}
td{font-variant-numeric:tabular-nums}
dl.kv{columns:3;font-size:0.85em;margin:0.5em 0}dl.kv div{break-inside:avoid;display:flex;gap:0.5em}
dl.kv dt{font-weight:bold;min-width:9em}dl.kv dd{margin:0}
.partial{background:#fff3cd;border:1px solid #e0c060;padding:0.5em}
svg.plot{display:block;margin:1em 0}
</style>)";

// Counts the plots the browser laid out (a box of non-zero size) into data-plots-rendered,
// so a headless browser's DOM says whether they all drew.
const char* kCountScript = R"(<script>
(function(){var n=0;document.querySelectorAll('svg.plot').forEach(function(s){
var b=s.getBBox();if(b.width>0&&b.height>0)n++;});
document.body.setAttribute('data-plots-rendered',String(n));})();
</script>)";

std::string page(const std::string& title, const std::vector<std::string>& parts) {
  size_t plots = 0;
  std::string body;
  for (const std::string& part : parts) {
    for (size_t at = part.find("<svg class=\"plot\""); at != std::string::npos;
         at = part.find("<svg class=\"plot\"", at + 1)) {
      ++plots;
    }
    body += part;
  }
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + escape_markup(title) +
         "</title>" + kStyle + "</head>\n<body data-plots=\"" + std::to_string(plots) + "\">\n<h1>" +
         escape_markup(title) + "</h1>\n" + body + kCountScript + "\n</body></html>\n";
}

std::string partial_note(const RunFolder& run) {
  if (!run.results.contains("partial")) return "";
  return "<p class=\"partial\">" + escape_markup(run.path) + " is a partial run: " +
         escape_markup(value_text(member(run.results, "partial"))) + "</p>";
}

}  // namespace

RunFolder read_run_folder(const std::string& dir) {
  const std::filesystem::path folder(dir);
  if (!std::filesystem::is_directory(folder)) throw ReportInputError(dir + ": not a folder");
  RunFolder run;
  run.path = dir;
  run.results = read_json(folder / "results.json");
  if (text_or_empty(run.results, "format") != kResultsFormat) {
    throw ReportInputError((folder / "results.json").string() + ": not a results.json of uniference (its format is not \"" +
                           kResultsFormat + "\")");
  }
  if (std::filesystem::exists(folder / "trace.json")) run.trace = read_json(folder / "trace.json");
  return run;
}

std::string html_report(const RunFolder& run) {
  std::vector<std::string> parts;
  parts.push_back(partial_note(run));
  parts.push_back("<h2>Setup</h2>" + setup_table(run.results, run.ns3_build));
  parts.push_back("<h2>Headline</h2>" + headline_table({&run}, {scenario_name(run)}));
  parts.push_back(faults_table(run.results));
  parts.push_back("<h2>Where the time went</h2>" + rank_bars({{"", rank_times(run)}}));
  std::map<std::string, double> by_operation, by_layer;
  compute_by_label(run, by_operation, by_layer);
  if (!by_operation.empty()) {
    parts.push_back(bars_by_key("Compute by operation", {"compute"}, {by_operation}));
    parts.push_back(bars_by_key("Compute by layer", {"compute"}, {by_layer}));
  }
  const std::map<std::string, double> comm = comm_wait_by_operation(run.trace);
  if (!comm.empty()) parts.push_back(bars_by_key("Communication wait by operation", {"wait"}, {comm}));
  parts.push_back(phases_table(run.results));
  if (run.results.contains("serving")) {
    parts.push_back("<h2>Serving</h2>");
    for (std::string& plot : serving_plots({&run}, {"requests"})) parts.push_back(std::move(plot));
  }
  const std::string links = link_heat_map(run) + top_links_table(run.results) + top_queues_table(run.results);
  if (!links.empty()) parts.push_back("<h2>Links</h2>" + links);
  parts.push_back(varying_links_section(run));
  parts.push_back(outages_section(run));
  return page(scenario_name(run) + ": report", parts);
}

std::string html_comparison(const RunFolder& a, const RunFolder& b) {
  const std::vector<const RunFolder*> runs = {&a, &b};
  const std::vector<std::string> names = {"A: " + run_name(a), "B: " + run_name(b)};
  std::vector<std::string> parts;
  parts.push_back(partial_note(a) + partial_note(b));
  parts.push_back("<h2>Headline</h2>" + headline_table(runs, names));
  parts.push_back("<h2>Where the time went</h2>" + rank_bars({{"A ", rank_times(a)}, {"B ", rank_times(b)}}));
  std::map<std::string, double> op_a, layer_a, op_b, layer_b;
  compute_by_label(a, op_a, layer_a);
  compute_by_label(b, op_b, layer_b);
  if (!op_a.empty() || !op_b.empty()) parts.push_back(bars_by_key("Compute by operation", names, {op_a, op_b}));
  const auto comm_a = comm_wait_by_operation(a.trace), comm_b = comm_wait_by_operation(b.trace);
  if (!comm_a.empty() || !comm_b.empty()) {
    parts.push_back(bars_by_key("Communication wait by operation", names, {comm_a, comm_b}));
  }
  if (a.results.contains("serving") && b.results.contains("serving")) {
    parts.push_back("<h2>Serving</h2>");
    for (std::string& plot : serving_plots(runs, names)) parts.push_back(std::move(plot));
  }
  for (const RunFolder* run : runs) {
    const std::string links = link_heat_map(*run);
    if (!links.empty()) parts.push_back("<h2>Links of " + escape_markup(run_name(*run)) + "</h2>" + links);
  }
  parts.push_back("<h2>Setup of A</h2>" + setup_table(a.results) + "<h2>Setup of B</h2>" + setup_table(b.results));
  return page(scenario_name(a) + " against " + scenario_name(b), parts);
}

}  // namespace uniference
