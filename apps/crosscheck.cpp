#include "apps/crosscheck.h"

#include "apps/colltest.h"
#include "apps/report.h"
#include "apps/run_scenario.h"
#include "apps/scenario_check.h"

#include <chrono>
#include <cmath>
#include <iomanip>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace uniference {

namespace {

double wall_now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * 1024;

int size_order(uint64_t bytes) { return bytes < 64 * kKiB ? 0 : bytes < kMiB ? 1 : 2; }

std::string op_class(const std::string& name) {
  return name == "send" || name == "recv" ? "send/recv" : name;
}

// Each call of a run: its operation class, bytes and time from issue to completion. A call
// leaves a wait span, followed at once by its flight span when it was asynchronous and waited
// on after its issue (bridge/sim_work.cpp): then the flight is the call's time.
struct Call {
  std::string op;
  uint64_t bytes;
  int64_t ns;
};

std::vector<Call> calls_of(const RunRecord& record) {
  std::vector<Call> calls;
  const std::vector<Span>& spans = record.spans;
  for (size_t i = 0; i < spans.size(); ++i) {
    const Span& span = spans[i];
    if (span.kind == Span::Kind::kCompute) continue;
    int64_t ns = span.end_ns - span.start_ns;
    if (span.kind == Span::Kind::kComm && i + 1 < spans.size()) {
      const Span& next = spans[i + 1];
      if (next.kind == Span::Kind::kFlight && next.rank == span.rank && next.name == span.name) {
        ns = next.end_ns - next.start_ns;
        ++i;
      }
    }
    calls.push_back(Call{op_class(span.name), span.bytes, ns});
  }
  return calls;
}

// Pads `text` to `width` columns (UTF-8 characters, so that "µs" counts as two).
std::string pad(const std::string& text, size_t width, bool right = true) {
  size_t columns = 0;
  for (unsigned char c : text) columns += (c & 0xC0) != 0x80;
  if (columns >= width) return text;
  const std::string fill(width - columns, ' ');
  return right ? fill + text : text + fill;
}

std::string percent(double packet, double flow) {
  const double error = level_error_percent(packet, flow);
  if (std::isnan(error)) return "-";
  std::ostringstream out;
  out << std::fixed << std::setprecision(2) << std::showpos << error << "%";
  return out.str();
}

std::string seconds(double s) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(s < 10 ? 3 : 1) << s << " s";
  return out.str();
}

std::string ratio(double packet_wall, double flow_wall) {
  if (flow_wall <= 0) return "-";
  std::ostringstream out;
  out << std::fixed << std::setprecision(1) << packet_wall / flow_wall << "x";
  return out.str();
}

std::string duration(double ns) { return format_duration(std::llround(ns)); }

// A line of the end-to-end table: what, packet, flow, error.
std::string figure_line(const std::string& what, double packet_ns, double flow_ns) {
  return pad(what, 24, false) + pad(duration(packet_ns), 14) + pad(duration(flow_ns), 14) +
         pad(percent(packet_ns, flow_ns), 10) + "\n";
}

struct ServingMeans {
  double ttft_ns = 0;
  double latency_ns = 0;
};

ServingMeans serving_means(const RunRecord& record) {
  ServingMeans means;
  if (record.requests.empty()) return means;
  for (const RequestRecord& r : record.requests) {
    means.ttft_ns += double(r.first_token_ns - r.arrival_ns);
    means.latency_ns += double(r.finish_ns - r.arrival_ns);
  }
  means.ttft_ns /= double(record.requests.size());
  means.latency_ns /= double(record.requests.size());
  return means;
}

// Both levels' checked scenarios, the flow level's first: a network it cannot carry is
// refused before anything runs.
std::pair<CheckedScenario, CheckedScenario> checked_levels(const Scenario& packet,
                                                           const Scenario& flow) {
  CheckedScenario checked_flow = check_scenario(flow);
  return {check_scenario(packet), std::move(checked_flow)};
}

}  // namespace

double level_error_percent(double packet, double flow) {
  if (packet == 0) return std::numeric_limits<double>::quiet_NaN();
  return (flow - packet) / packet * 100.0;
}

Scenario at_level(const Scenario& scenario, const std::string& level) {
  Scenario copy = scenario;
  copy.network.transport.level = level;
  copy.outputs.pcap = false;
  copy.outputs.flow_monitor = false;
  copy.outputs.link_samples = 0;
  return copy;
}

std::string size_class(uint64_t bytes) {
  static const char* const kNames[] = {"< 64 KiB", "64 KiB-1 MiB", ">= 1 MiB"};
  return kNames[size_order(bytes)];
}

std::vector<CallClass> call_classes(const RunRecord& packet, const RunRecord& flow) {
  std::map<std::pair<std::string, int>, CallClass> classes;
  const auto add = [&](const RunRecord& record, bool is_packet) {
    for (const Call& call : calls_of(record)) {
      CallClass& c = classes[{call.op, size_order(call.bytes)}];
      c.op = call.op;
      c.size = size_class(call.bytes);
      c.size_order = size_order(call.bytes);
      (is_packet ? c.packet_calls : c.flow_calls) += 1;
      (is_packet ? c.packet_total_ns : c.flow_total_ns) += double(call.ns);
    }
  };
  add(packet, true);
  add(flow, false);
  std::vector<CallClass> rows;
  for (auto& entry : classes) rows.push_back(entry.second);
  return rows;
}

LevelRuns run_both_levels(const Scenario& scenario,
                          const std::function<void(const std::string&)>& progress) {
  const Scenario packet = at_level(scenario, "packet");
  const Scenario flow = at_level(scenario, "flow");
  checked_levels(packet, flow);
  LevelRuns runs;
  runs.scenario = scenario.name;
  for (const Scenario* level : {&packet, &flow}) {
    const std::string& name = level->network.transport.level;
    if (progress) progress(name);
    const double start = wall_now_s();
    ScenarioRun run = run_scenario(*level, false);
    const double wall = wall_now_s() - start;
    if (run.outcome.status != RunOutcome::Status::kCompleted) {
      throw std::runtime_error("the " + name + " level's run failed: " + run.outcome.report);
    }
    (level == &packet ? runs.packet : runs.flow) = std::move(run.record);
    (level == &packet ? runs.packet_wall_s : runs.flow_wall_s) = wall;
  }
  return runs;
}

std::string level_runs_table(const LevelRuns& runs) {
  std::string out = "# " + runs.scenario + ": packet level against flow level\n";
  out += "# communication calls (issue to completion, per rank), mean time per call\n";
  out += pad("# operation", 16, false) + pad("size", 14, false) + pad("calls", 10) +
         pad("packet", 14) + pad("flow", 14) + pad("error", 10) + "\n";
  for (const CallClass& c : call_classes(runs.packet, runs.flow)) {
    const std::string calls = c.packet_calls == c.flow_calls
                                  ? std::to_string(c.packet_calls)
                                  : std::to_string(c.packet_calls) + "/" + std::to_string(c.flow_calls);
    const double packet_mean = c.packet_calls ? c.packet_total_ns / double(c.packet_calls) : 0;
    const double flow_mean = c.flow_calls ? c.flow_total_ns / double(c.flow_calls) : 0;
    out += pad(c.op, 16, false) + pad(c.size, 14, false) + pad(calls, 10) +
           pad(c.packet_calls ? duration(packet_mean) : "-", 14) +
           pad(c.flow_calls ? duration(flow_mean) : "-", 14) +
           pad(c.packet_calls && c.flow_calls ? percent(packet_mean, flow_mean) : "-", 10) + "\n";
  }
  out += "# end to end\n";
  out += pad("#", 24, false) + pad("packet", 14) + pad("flow", 14) + pad("error", 10) + "\n";
  if (!runs.packet.requests.empty() || !runs.flow.requests.empty()) {
    const ServingMeans p = serving_means(runs.packet), f = serving_means(runs.flow);
    out += figure_line("TTFT (mean)", p.ttft_ns, f.ttft_ns);
    out += figure_line("request latency (mean)", p.latency_ns, f.latency_ns);
  } else {
    out += figure_line("TTFT", double(runs.packet.ttft_ns()), double(runs.flow.ttft_ns()));
    out += figure_line("TPOT", runs.packet.tpot_ns(), runs.flow.tpot_ns());
  }
  out += figure_line("simulated time", double(runs.packet.total_ns), double(runs.flow.total_ns));
  out += pad("wall time", 24, false) + pad(seconds(runs.packet_wall_s), 14) +
         pad(seconds(runs.flow_wall_s), 14) + pad(ratio(runs.packet_wall_s, runs.flow_wall_s), 10) +
         " (packet/flow)\n";
  return out;
}

LevelSweeps sweep_both_levels(const Scenario& scenario, const ColltestOptions& options,
                              const std::function<void(const std::string&, uint64_t)>& progress) {
  const Scenario packet = at_level(scenario, "packet");
  const Scenario flow = at_level(scenario, "flow");
  const auto [checked_packet, checked_flow] = checked_levels(packet, flow);
  check_colltest(options, options.ranks > 0 ? options.ranks : checked_packet.ranks);
  LevelSweeps sweeps;
  sweeps.scenario = scenario.name;
  sweeps.op = options.op;
  std::vector<ColltestRow> rows[2];
  std::vector<double> size_walls[2];
  double totals[2] = {0, 0};
  const CheckedScenario* checked[2] = {&checked_packet, &checked_flow};
  for (int l = 0; l < 2; ++l) {
    const std::string level = l == 0 ? "packet" : "flow";
    std::vector<double> starts;  // wall time as each size starts
    const double start = wall_now_s();
    rows[l] = run_colltest(*checked[l], options, [&](uint64_t bytes) {
      starts.push_back(wall_now_s());
      if (progress) progress(level, bytes);
    });
    const double end = wall_now_s();
    totals[l] = end - start;
    for (size_t k = 0; k < starts.size(); ++k) {
      size_walls[l].push_back((k + 1 < starts.size() ? starts[k + 1] : end) - starts[k]);
    }
  }
  if (rows[0].size() != rows[1].size()) {
    throw std::logic_error("crosscheck: the two levels' sweeps ran different sizes");
  }
  sweeps.ranks = rows[0].empty() ? 0 : rows[0][0].ranks;
  sweeps.packet_wall_s = totals[0];
  sweeps.flow_wall_s = totals[1];
  for (size_t k = 0; k < rows[0].size(); ++k) {
    SweepPair pair;
    pair.bytes = rows[0][k].bytes;
    pair.algorithm = rows[0][k].algorithm;
    pair.packet_s = rows[0][k].time_s;
    pair.flow_s = rows[1][k].time_s;
    if (k < size_walls[0].size()) pair.packet_wall_s = size_walls[0][k];
    if (k < size_walls[1].size()) pair.flow_wall_s = size_walls[1][k];
    sweeps.sizes.push_back(pair);
  }
  return sweeps;
}

std::string level_sweeps_table(const LevelSweeps& sweeps) {
  std::ostringstream out;
  out << "# " << sweeps.op << " on " << sweeps.ranks << " ranks, " << sweeps.scenario
      << ": packet level against flow level\n";
  out << "#" << std::setw(13) << "size" << std::setw(18) << "algorithm" << std::setw(14)
      << "packet(us)" << std::setw(14) << "flow(us)" << std::setw(10) << "error" << std::setw(12)
      << "wall(ms)" << std::setw(12) << "wall(ms)" << std::setw(9) << "ratio" << "\n";
  out << "#" << std::setw(13) << "(B)" << std::setw(18) << "" << std::setw(14) << ""
      << std::setw(14) << "" << std::setw(10) << "" << std::setw(12) << "packet" << std::setw(12)
      << "flow" << std::setw(9) << "" << "\n";
  for (const SweepPair& pair : sweeps.sizes) {
    out << std::setw(14) << pair.bytes << std::setw(18) << pair.algorithm << std::fixed
        << std::setprecision(1) << std::setw(14) << pair.packet_s * 1e6 << std::setw(14)
        << pair.flow_s * 1e6 << std::setw(10) << percent(pair.packet_s, pair.flow_s)
        << std::setprecision(2) << std::setw(12) << pair.packet_wall_s * 1e3 << std::setw(12)
        << pair.flow_wall_s * 1e3 << std::setw(9) << ratio(pair.packet_wall_s, pair.flow_wall_s)
        << "\n";
  }
  out << "# wall time of the whole sweep (set-up included): packet " << seconds(sweeps.packet_wall_s)
      << ", flow " << seconds(sweeps.flow_wall_s) << ", packet/flow "
      << ratio(sweeps.packet_wall_s, sweeps.flow_wall_s) << "\n";
  return out.str();
}

}  // namespace uniference
