// The expert-parallel study (UBEP's question): the latency of an MoE layer's dispatch and
// combine and the time per output token, per dispatch scheme (bsp, decomposed,
// hierarchical), across tokens per rank and expert-parallel sizes, on a network preset.
// Each case decodes one step after a one-token prefill of ep x tokens sequences, shapes only,
// and reads the decode step's phases. Prints a markdown table row by row (so a long sweep
// shows its progress) and writes the whole report to --out.
//
//   moe-dispatch [--preset=cm384] [--model=deepseek-v3] [--layers=4] [--ep=16,32,64,128]
//                [--tokens=8,16,32,64,128] [--level=packet|flow|both] [--routing=]
//                [--flow-ep=] [--flow-resolution=] [--jobs=1] [--out=moe-dispatch.md]
//
// --level picks /network/transport/level: the packet level (every packet through the
// fabric), the flow level (every message a max-min fair flow; far faster), or both, which
// writes a table per level and a third with each cell's flow - packet difference, and the
// wall time each level took. The flow level follows one path per queue pair, so it runs
// with ECMP where the preset routes adaptively (both presets do); --routing=ecmp runs the
// packet level with ECMP too, to tell the level's difference from the routing's. --flow-ep
// runs the flow level on fewer EP sizes than --ep. --flow-resolution sets
// ns3::FlowNetwork::Resolution: an all-to-all's EP^2 flows all share one component, and every
// rate change recomputes it, so at EP 64 and 128 batching the changes at 100 ns
// (docs/moe-study/cm384.md) runs 3-4 times faster than exact for about 1-2% of dispatch time.
//
// --jobs runs that many simulations at a time, each in a process of its own (forked; the
// largest first), and reports the elapsed time beside the sum of the simulations' own.
//
// Bandwidth is reported as DeepEP reports it: tokens x top-k x bytes per copy / dispatch
// time, with float32 copies of hidden features (the simulator's messages carry float32).
#include "apps/run_scenario.h"
#include "apps/scenario.h"
#include "compute/model_config.h"

#include <ns3/command-line.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <functional>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace uniference;

struct Options {
  std::string preset = "cm384";
  std::string model = "deepseek-v3";
  int layers = 4;
  std::string ep = "16,32,64,128";
  std::string tokens = "8,16,32,64,128";
  std::string out = "moe-dispatch.md";
  std::string level = "packet";
  std::string routing;  // the packet level's; empty: the preset's
  std::string flow_ep;  // the flow level's expert-parallel sizes; empty: --ep's
  std::string flow_resolution;  // ns3::FlowNetwork::Resolution; empty: its default (exact)
  int jobs = 1;                 // simulations at a time; above 1, each in a forked process
};

struct Result {
  double dispatch_us = 0, combine_us = 0, tpot_us = 0, wall_s = 0;
};

std::vector<int> list_of(const std::string& text) {
  std::vector<int> values;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) values.push_back(std::stoi(item));
  return values;
}

Result simulate(const Options& o, int ep, int tokens, const std::string& scheme,
                const std::string& level) {
  // The flow level refuses adaptive routing (one path per queue pair): it runs with ECMP.
  const std::string routing = level == "flow" ? "ecmp" : o.routing;
  std::string network = R"("preset": ")" + o.preset + R"(", "transport": { "level": ")" + level + R"(" })";
  if (!routing.empty()) network += R"(, "switch": { "routing": ")" + routing + R"(" })";
  if (level == "flow" && !o.flow_resolution.empty()) {
    network += R"(, "ns3_defaults": { "ns3::FlowNetwork::Resolution": ")" + o.flow_resolution + R"(" })";
  }
  const std::string text = R"({
    "name": "moe-dispatch",
    "model": { "preset": ")" + o.model + R"(", "layers": )" + std::to_string(o.layers) + R"( },
    "parallel": { "strategy": "ep", "ep": )" + std::to_string(ep) + R"(, "dispatch": ")" + scheme + R"(" },
    "workload": { "batch": )" + std::to_string(ep * tokens) + R"(, "prompt_tokens": 1, "new_tokens": 2 },
    "devices": { "profile": "h100", "dtype": "bf16" },
    "compute": { "mode": "modeled", "shapes_only": true },
    "network": { )" + network + R"( },
    "outputs": { "trace": false, "results": false }
  })";
  const auto wall = std::chrono::steady_clock::now();
  const ScenarioRun run = run_scenario(parse_scenario_text(text, "moe-dispatch.json"), false);
  if (run.outcome.status != RunOutcome::Status::kCompleted) throw std::runtime_error(run.outcome.report);
  const auto steps = run.record.phase_steps();
  // The last MoE layer's exchanges of the decode step: the last step of each phase.
  Result r;
  r.dispatch_us = double(steps.at("moe.dispatch").back().latency_ns()) / 1e3;
  r.combine_us = double(steps.at("moe.combine").back().latency_ns()) / 1e3;
  r.tpot_us = run.record.tpot_ns() / 1e3;
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
  return r;
}

// One simulation of the sweep.
struct Task {
  int ep = 0, tokens = 0;
  std::string scheme, level;
};

// What a forked simulation hands back through its pipe: the result's four figures, or
// "error" and the message.
std::string encode(const Options& o, const Task& t) {
  try {
    const Result r = simulate(o, t.ep, t.tokens, t.scheme, t.level);
    char line[160];
    std::snprintf(line, sizeof line, "%.17g %.17g %.17g %.17g", r.dispatch_us, r.combine_us, r.tpot_us, r.wall_s);
    return line;
  } catch (const std::exception& e) {
    // Short enough for the pipe's buffer: the child writes it all before the parent reads.
    return "error " + std::string(e.what()).substr(0, 4000);
  }
}

std::string describe(const Task& t) {
  return "ep " + std::to_string(t.ep) + ", " + std::to_string(t.tokens) + " tokens, " + t.scheme + ", " +
         t.level + " level";
}

Result decode(const std::string& text, const Task& t) {
  Result r;
  if (std::sscanf(text.c_str(), "%lf %lf %lf %lf", &r.dispatch_us, &r.combine_us, &r.tpot_us, &r.wall_s) != 4) {
    throw std::runtime_error(describe(t) + ": " +
                             (text.rfind("error ", 0) == 0 ? text.substr(6) : "the simulation's process died"));
  }
  return r;
}

std::string read_all(int fd) {
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return text;
    text.append(buffer, size_t(n));
  }
}

// Runs every task, calling done(i) as task i completes. With one job, here, in order;
// otherwise `jobs` forked processes at a time, the largest cases first so that the last to
// start are short. The caller is single-threaded (fork keeps only the calling thread).
std::vector<Result> run_tasks(const Options& o, const std::vector<Task>& tasks,
                              const std::function<void(size_t, const std::vector<Result>&)>& done) {
  std::vector<Result> results(tasks.size());
  if (o.jobs <= 1) {
    for (size_t i = 0; i < tasks.size(); ++i) {
      try {
        results[i] = simulate(o, tasks[i].ep, tasks[i].tokens, tasks[i].scheme, tasks[i].level);
      } catch (const std::exception& e) {
        throw std::runtime_error(describe(tasks[i]) + ": " + e.what());
      }
      done(i, results);
    }
    return results;
  }
  std::vector<size_t> order(tasks.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return int64_t(tasks[a].ep) * tasks[a].ep * tasks[a].tokens > int64_t(tasks[b].ep) * tasks[b].ep * tasks[b].tokens;
  });
  std::map<pid_t, std::pair<size_t, int>> running;  // child -> (task, read end of its pipe)
  size_t next = 0;
  while (next < order.size() || !running.empty()) {
    while (next < order.size() && int(running.size()) < o.jobs) {
      const size_t i = order[next++];
      int fds[2];
      if (::pipe(fds) != 0) throw std::runtime_error("moe-dispatch: cannot make a pipe");
      std::cout << std::flush;
      std::cerr << std::flush;
      const pid_t child = ::fork();
      if (child < 0) throw std::runtime_error("moe-dispatch: cannot fork a simulation");
      if (child == 0) {
        ::close(fds[0]);
        const std::string text = encode(o, tasks[i]);
        [[maybe_unused]] const ssize_t n = ::write(fds[1], text.data(), text.size());
        ::_exit(0);
      }
      ::close(fds[1]);
      running[child] = {i, fds[0]};
    }
    int status = 0;
    const pid_t child = ::waitpid(-1, &status, 0);
    if (child < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("moe-dispatch: lost track of the simulations' processes");
    }
    const auto it = running.find(child);
    if (it == running.end()) continue;
    const auto [i, fd] = it->second;
    running.erase(it);
    const std::string text = read_all(fd);
    ::close(fd);
    try {
      results[i] = decode(WIFEXITED(status) ? text : std::string(), tasks[i]);
    } catch (const std::exception&) {
      for (const auto& [other, task_and_fd] : running) {  // the sweep is over: stop the rest
        ::kill(other, SIGTERM);
        ::waitpid(other, nullptr, 0);
        ::close(task_and_fd.second);
      }
      throw;
    }
    done(i, results);
  }
  return results;
}

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::string change(double value, double base) { return fixed(100 * (value / base - 1), 1) + "%"; }

struct Cell {
  int ep = 0, tokens = 0;
  Result bsp, dec, hier;
};

const char* kColumns =
    "| EP | tokens/rank | bsp dispatch µs | decomposed | hierarchical | bsp combine µs | "
    "decomposed | hierarchical | bsp TPOT µs | decomposed | hierarchical | bsp GB/s |\n"
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";

std::string row(const Cell& c, double copy_bytes, int top_k) {
  const Result& bsp = c.bsp;
  const Result& dec = c.dec;
  const Result& hier = c.hier;
  const double gbps = double(c.tokens) * double(top_k) * copy_bytes / (bsp.dispatch_us * 1e3);
  std::ostringstream row;
  row << "| " << c.ep << " | " << c.tokens << " | " << fixed(bsp.dispatch_us, 1) << " | "
      << fixed(dec.dispatch_us, 1) << " (" << change(dec.dispatch_us, bsp.dispatch_us) << ") | "
      << fixed(hier.dispatch_us, 1) << " (" << change(hier.dispatch_us, bsp.dispatch_us) << ") | "
      << fixed(bsp.combine_us, 1) << " | " << fixed(dec.combine_us, 1) << " ("
      << change(dec.combine_us, bsp.combine_us) << ") | " << fixed(hier.combine_us, 1) << " ("
      << change(hier.combine_us, bsp.combine_us) << ") | " << fixed(bsp.tpot_us, 1) << " | "
      << fixed(dec.tpot_us, 1) << " (" << change(dec.tpot_us, bsp.tpot_us) << ") | "
      << fixed(hier.tpot_us, 1) << " (" << change(hier.tpot_us, bsp.tpot_us) << ") | "
      << fixed(gbps, 1) << " |\n";
  return row.str();
}

// flow - packet, in µs and as a share of the packet level's figure.
std::string difference(double flow, double packet) {
  const double d = flow - packet;
  return (d >= 0 ? "+" : "") + fixed(d, 1) + " (" + (d >= 0 ? "+" : "") + change(flow, packet) + ")";
}

std::string difference_row(const Cell& f, const Cell& p) {
  std::ostringstream row;
  row << "| " << f.ep << " | " << f.tokens;
  for (auto field : {&Result::dispatch_us, &Result::combine_us, &Result::tpot_us}) {
    row << " | " << difference(f.bsp.*field, p.bsp.*field) << " | " << difference(f.dec.*field, p.dec.*field)
        << " | " << difference(f.hier.*field, p.hier.*field);
  }
  row << " |\n";
  return row.str();
}

std::string minutes(double seconds) {
  return fixed(seconds, 1) + " s (" + fixed(seconds / 60, 1) + " min)";
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  ns3::CommandLine cmd(__FILE__);
  cmd.AddValue("preset", "network preset (cm384, h800-400g)", o.preset);
  cmd.AddValue("model", "model preset (a mixture of experts)", o.model);
  cmd.AddValue("layers", "layers of the preset to run (its dense ones first)", o.layers);
  cmd.AddValue("ep", "expert-parallel sizes, comma-separated", o.ep);
  cmd.AddValue("tokens", "tokens per rank, comma-separated", o.tokens);
  cmd.AddValue("level", "packet, flow or both", o.level);
  cmd.AddValue("routing", "the packet level's switch routing (ecmp, adaptive); empty: the preset's",
               o.routing);
  cmd.AddValue("flow-ep", "the flow level's expert-parallel sizes; empty: --ep's", o.flow_ep);
  cmd.AddValue("flow-resolution", "the flow level's ns3::FlowNetwork::Resolution (e.g. 100ns); "
               "empty: its default", o.flow_resolution);
  cmd.AddValue("jobs", "simulations at a time, each in a process of its own", o.jobs);
  cmd.AddValue("out", "the markdown report", o.out);
  cmd.Parse(argc, argv);
  std::vector<std::string> levels;
  if (o.level == "both") {
    levels = {"flow", "packet"};  // the quick one first; the report puts packet first
  } else if (o.level == "packet" || o.level == "flow") {
    levels = {o.level};
  } else {
    std::cerr << "moe-dispatch: --level is packet, flow or both, not '" << o.level << "'\n";
    return 2;
  }
  if (o.jobs < 1) {
    std::cerr << "moe-dispatch: --jobs is 1 or more, not " << o.jobs << "\n";
    return 2;
  }
  std::string command = "moe-dispatch";
  for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];

  const ModelConfig model = model_preset(o.model);
  const double copy_bytes = double(model.dim) * 4;
  const int top_k = model.moe.top_k;
  const std::vector<std::string> schemes = {"bsp", "decomposed", "hierarchical"};
  std::map<std::string, std::vector<Cell>> cells;
  std::map<std::string, double> wall;     // the simulations' own wall time, summed
  std::map<std::string, double> elapsed;  // the level's, start to end
  for (const std::string& level : levels) {
    const std::string routing = level == "flow" ? "ecmp" : (o.routing.empty() ? "the preset's" : o.routing);
    std::cout << "\n" << level << " level (routing: " << routing << ")\n\n" << kColumns << std::flush;
    std::vector<Task> tasks;
    for (int ep : list_of(level == "flow" && !o.flow_ep.empty() ? o.flow_ep : o.ep)) {
      for (int tokens : list_of(o.tokens)) {
        for (const std::string& scheme : schemes) tasks.push_back({ep, tokens, scheme, level});
      }
    }
    // A row is printed once its three schemes, and every row above it, are done.
    std::vector<bool> finished(tasks.size(), false);
    size_t printed = 0;
    const auto start = std::chrono::steady_clock::now();
    const auto done = [&](size_t i, const std::vector<Result>& results) {
      finished[i] = true;
      for (; printed < tasks.size() && finished[printed] && finished[printed + 1] && finished[printed + 2]; printed += 3) {
        Cell c;
        c.ep = tasks[printed].ep;
        c.tokens = tasks[printed].tokens;
        c.bsp = results[printed];
        c.dec = results[printed + 1];
        c.hier = results[printed + 2];
        const double seconds = c.bsp.wall_s + c.dec.wall_s + c.hier.wall_s;
        wall[level] += seconds;
        cells[level].push_back(c);
        std::cout << row(c, copy_bytes, top_k) << std::flush;
        std::cerr << "  " << level << ", ep " << c.ep << ", " << c.tokens << " tokens: " << fixed(seconds, 1)
                  << " s of wall time\n";
      }
    };
    try {
      run_tasks(o, tasks, done);
    } catch (const std::exception& e) {
      std::cerr << "moe-dispatch: " << e.what() << "\n";
      return 1;
    }
    elapsed[level] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  std::ostringstream report;
  report << "# Expert-parallel dispatch: " << o.model << " (" << o.layers << " layers) on " << o.preset
         << "\n\nOne decode step after a one-token prefill, shapes only. Latencies of the last MoE "
            "layer's exchanges, from the first rank's begin to the last rank's end; TPOT of the "
         << o.layers << "-layer model. Bandwidth: tokens x top-" << top_k << " x "
         << fixed(copy_bytes, 0) << " B / dispatch time.\n\nGenerated by `" << command
         << "` (benchmarks/moe_dispatch.cpp), " << (o.jobs <= 1 ? std::string("one simulation at a time")
                                                      : std::to_string(o.jobs) + " simulations at a time")
         << ", one core each.\n";
  for (const std::string level : {"packet", "flow"}) {
    if (!cells.count(level)) continue;
    const std::string routing =
        level == "flow" ? "ECMP: the flow level follows one path per queue pair"
                        : (o.routing.empty() ? "the preset's" : o.routing);
    report << "\n## " << (level == "packet" ? "Packet" : "Flow") << " level\n\n"
           << "`/network/transport/level` \"" << level << "\", routing: " << routing
           << ". Wall time, all cells: " << minutes(wall[level]) << " of simulation"
           << (o.jobs <= 1 ? std::string() : ", " + minutes(elapsed[level]) + " elapsed") << ".\n\n"
           << kColumns;
    for (const Cell& c : cells[level]) report << row(c, copy_bytes, top_k);
  }
  // A level's wall time over the cells the other level ran too.
  const auto common_wall = [&](const std::string& level) {
    const std::string other = level == "flow" ? "packet" : "flow";
    double seconds = 0;
    for (const Cell& c : cells[level]) {
      for (const Cell& d : cells[other]) {
        if (c.ep == d.ep && c.tokens == d.tokens) seconds += c.bsp.wall_s + c.dec.wall_s + c.hier.wall_s;
      }
    }
    return seconds;
  };
  if (cells.count("packet") && cells.count("flow")) {
    report << "\n## Flow level against packet level\n\nEach cell: flow - packet, µs (and as a share "
              "of the packet level's figure). Wall time of the cells both levels ran: packet "
           << minutes(common_wall("packet")) << ", flow " << minutes(common_wall("flow")) << ".\n\n"
           << "| EP | tokens/rank | bsp dispatch µs | decomposed | hierarchical | bsp combine µs | "
              "decomposed | hierarchical | bsp TPOT µs | decomposed | hierarchical |\n"
           << "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
    for (const Cell& f : cells["flow"]) {
      for (const Cell& p : cells["packet"]) {
        if (p.ep == f.ep && p.tokens == f.tokens) report << difference_row(f, p);
      }
    }
  }
  std::ofstream(o.out) << report.str();
  std::cerr << "moe-dispatch: wrote " << o.out << "\n";
  for (const auto& [level, seconds] : wall) {
    std::cerr << "  " << level << " level: " << minutes(seconds) << " of simulation, " << minutes(elapsed[level])
              << " elapsed\n";
  }
  return 0;
}
