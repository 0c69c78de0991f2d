// The flow level's speed (/network/transport/level "flow", ns3::FlowNetwork): how much faster
// than the packet level it simulates the same collective, how far their simulated times
// differ, and how large a run it takes on one core. Every case runs in a child process of its
// own (fork), so its peak resident memory (wait4's maxrss) is its own and peaks do not add up.
//
// Part a, both levels: a ring all-reduce of --ab-bytes (default 256 MiB = 268,435,456 B of
// float32, meta tensors) on --ab-ranks (128) ranks of an RDMA fat-tree (k=8, 100 Gbit/s,
// 1 us cables, ECMP), as benchmarks/collective-scale's figure. Prints each level's wall time
// and simulated time, their difference, and the wall ratio packet / flow (goal: >= 100x).
//
// Part b, flow level only, shape-only compute: for each of --ranks (default 256; the issue's
// figures: 1024,4096)
//   - moe:  one decode step after a one-token prefill of deepseek-v3 (its first --layers=4
//           layers: 3 dense, 1 MoE), strategy ep with ep 256 x dp ranks/256 (--dispatch=bsp,
//           --tokens=8 per rank), on a cm384-like two-tier superpod (servers of 8, 8
//           second-tier switches, 392 GB/s per NPU) with ECMP instead of the preset's
//           adaptive routing, which the flow level refuses;
//   - ring: a ring all-reduce of --bytes (256 MiB) on an RDMA fat-tree (the smallest even k
//           that holds the ranks: k=16 for 1024, k=26 for 4096), meta tensors;
//   - tree: the same with the tree algorithm.
// Prints wall time, peak memory, simulated time, and ns-3 events (Simulator::GetEventCount,
// plus the InfiniBand fabric's own event queue, which the flow level leaves idle) per wall
// second. Goal for 4,096-rank MoE dispatch: under 60 s and 4 GB. --resolution sets the MoE
// case's ns3::FlowNetwork::Resolution (default: exact).
//
//   flow-scale                                  part a, then part b at 256 ranks (about 40 s)
//   flow-scale --part=a                         part a only (about 20 s)
//   flow-scale --part=b --ranks=1024 --cases=ring,tree    about 25 s
//   flow-scale --part=b --ranks=4096 --cases=tree         about 10 s
//   flow-scale --part=b --ranks=1024 --cases=moe          about 2 min, 2.2 GB
//   flow-scale --part=b --ranks=1024,4096       the issue's scale figures; as measured on 2 cores
//                                               (docs/moe.md#the-flow-level) the 4,096-rank MoE
//                                               and ring cases run for tens of minutes
//   flow-scale --part=a --ab-ranks=32           a quicker look at both levels
#include "apps/run_scenario.h"
#include "apps/scenario.h"
#include "apps/simulation_progress.h"
#include "bridge/sim_cluster.h"

#include <ns3/command-line.h>
#include <ns3/ib-event-queue.h>
#include <ns3/simulator.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace uniference;

// What a child process hands back through its pipe.
struct Figures {
  double wall_s = 0;        // the run, its network's set-up included
  double setup_s = 0;       // of which building the network (and at the flow level, its paths' fabric)
  double simulated_s = 0;   // when the last rank finished
  double events = 0;        // ns-3's, plus the IB fabric queue's
  double ib_events = 0;     // the IB fabric queue's alone
  double dispatch_us = 0;   // moe: the decode step's last MoE dispatch
  double combine_us = 0;    // moe: its combine
  double reallocations = 0; // the flow level's rate recomputations
  int ok = 0;
  char error[512] = {};
};

struct Measured {
  Figures figures;
  double peak_gb = 0;  // the child's peak resident memory
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// ns-3's event count is gone once Simulator::Destroy has run (run_scenario's cluster destroys
// the simulator before it returns), so it is read by an event that Destroy itself runs.
double g_ns3_events = 0;
void read_event_count() { g_ns3_events = double(ns3::Simulator::GetEventCount()); }

// Runs `run` in a child process and waits for it.
Measured in_child(const std::function<Figures()>& run) {
  std::fflush(stdout);
  std::fflush(stderr);
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw std::runtime_error("pipe failed");
  const pid_t child = fork();
  if (child == 0) {
    close(pipe_fds[0]);
    Figures f;
    try {
      f = run();
      f.ok = 1;
    } catch (const std::exception& e) {
      std::snprintf(f.error, sizeof f.error, "%s", e.what());
    }
    const ssize_t written = write(pipe_fds[1], &f, sizeof f);
    _exit(written == ssize_t(sizeof f) ? 0 : 1);
  }
  close(pipe_fds[1]);
  Measured m;
  size_t got = 0;
  auto* bytes = reinterpret_cast<char*>(&m.figures);
  while (got < sizeof m.figures) {
    const ssize_t n = read(pipe_fds[0], bytes + got, sizeof m.figures - got);
    if (n <= 0) break;
    got += size_t(n);
  }
  close(pipe_fds[0]);
  int status = 0;
  struct rusage usage {};
  wait4(child, &status, 0, &usage);
  m.peak_gb = double(usage.ru_maxrss) * 1024 / 1e9;
  if (got != sizeof m.figures) {
    m.figures = Figures{};
    std::snprintf(m.figures.error, sizeof m.figures.error, "child died (%s %d)",
                  WIFSIGNALED(status) ? "signal" : "exit status",
                  WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
  }
  return m;
}

// A data-free all-reduce of `bytes` on `ranks` ranks of an RDMA fat-tree, at `level`.
Figures all_reduce(const std::string& level, const std::string& algorithm, uint32_t ranks,
                   uint64_t bytes) {
  NetworkConfig net;
  net.topology = "fat-tree";
  net.transport = "rdma";
  net.level = level;
  net.link_rate = ns3::DataRate("100Gbps");
  net.link_delay = ns3::MicroSeconds(1);
  net.collectives[OpType::kAllReduce] = CollectiveChoice{algorithm, {}};
  const int64_t elements = int64_t(bytes / 4);
  const auto start = std::chrono::steady_clock::now();
  SimCluster cluster(net);
  for (uint32_t r = 0; r < ranks; ++r) {
    cluster.add_rank(make_modeled_meter(device_profile("a100")), [elements](Comm& comm) {
      at::Tensor t = at::empty({elements}, at::TensorOptions().device(at::kMeta));
      comm.all_reduce(t);
    });
  }
  cluster.build_network();
  const SimulationProgress progress(cluster.kernel(), 0, level + " level, " + std::to_string(ranks) + " ranks");
  Figures f;
  f.setup_s = seconds_since(start);
  const RunOutcome outcome = cluster.run();
  f.wall_s = seconds_since(start);
  if (outcome.status != RunOutcome::Status::kCompleted) throw std::runtime_error(outcome.report);
  f.simulated_s = double(cluster.record().total_ns) * 1e-9;
  f.ib_events = double(ns3::IbEventQueue::Get().GetEventCount());
  f.events = double(ns3::Simulator::GetEventCount()) + f.ib_events;
  if (cluster.flow_network()) f.reallocations = double(cluster.flow_network()->GetReallocations());
  return f;
}

struct MoeOptions {
  std::string model = "deepseek-v3";
  int layers = 4;
  int ep = 256;
  int tokens = 8;
  std::string dispatch = "bsp";
  std::string resolution;  // ns3::FlowNetwork::Resolution; empty: exact
};

// One decode step of the MoE model on `ranks` ranks (ep x dp) of a cm384-like superpod, at
// the flow level, shapes only.
Figures moe(const MoeOptions& o, int ranks) {
  const int ep = std::min(o.ep, ranks);
  if (ranks % ep != 0) throw std::runtime_error("ranks must be a multiple of --ep");
  const int dp = ranks / ep;
  const std::string text = R"({
    "name": "flow-scale-moe",
    "model": { "preset": ")" + o.model + R"(", "layers": )" + std::to_string(o.layers) + R"( },
    "parallel": { "strategy": "ep", "ep": )" + std::to_string(ep) + R"(, "dp": )" + std::to_string(dp) +
                           R"(, "dispatch": ")" + o.dispatch + R"(" },
    "workload": { "batch": )" + std::to_string(ranks * o.tokens) + R"(, "prompt_tokens": 1, "new_tokens": 2 },
    "devices": { "profile": "h100", "dtype": "bf16" },
    "compute": { "mode": "modeled", "shapes_only": true },
    "network": { "preset": "cm384", "switch": { "routing": "ecmp" },
                 "transport": { "level": "flow" }, "ns3_defaults": {)" +
                           (o.resolution.empty() ? std::string()
                                                 : R"("ns3::FlowNetwork::Resolution": ")" + o.resolution + "\"") +
                           R"(} },
    "outputs": { "trace": false, "results": false }
  })";
  const auto start = std::chrono::steady_clock::now();
  ns3::Simulator::ScheduleDestroy(&read_event_count);
  Figures f;
  double steps_dispatch = 0, steps_combine = 0;
  {
    const ScenarioRun run = run_scenario(parse_scenario_text(text, "flow-scale-moe.json"), true);
    if (run.outcome.status != RunOutcome::Status::kCompleted) throw std::runtime_error(run.outcome.report);
    f.simulated_s = double(run.record.total_ns) * 1e-9;
    const auto steps = run.record.phase_steps();
    steps_dispatch = double(steps.at("moe.dispatch").back().latency_ns()) / 1e3;
    steps_combine = double(steps.at("moe.combine").back().latency_ns()) / 1e3;
  }
  f.wall_s = seconds_since(start);
  f.dispatch_us = steps_dispatch;
  f.combine_us = steps_combine;
  f.ib_events = double(ns3::IbEventQueue::Get().GetEventCount());
  f.events = g_ns3_events + f.ib_events;
  return f;
}

std::vector<int> list_of(const std::string& text) {
  std::vector<int> values;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) values.push_back(std::stoi(item));
  return values;
}

bool failed(const char* what, const Measured& m) {
  if (m.figures.ok) return false;
  std::printf("%s: FAILED after %.1f GB peak: %s\n", what, m.peak_gb, m.figures.error);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string part = "ab";
  uint32_t ab_ranks = 128;
  uint64_t ab_bytes = 256ull << 20;
  std::string ab_levels = "packet,flow";
  std::string ranks_list = "256";
  std::string cases = "moe,ring,tree";
  uint64_t bytes = 256ull << 20;
  MoeOptions moe_options;
  ns3::CommandLine cmd(__FILE__);
  cmd.AddValue("part", "a (both levels), b (flow level at scale) or ab", part);
  cmd.AddValue("ab-ranks", "part a: ranks", ab_ranks);
  cmd.AddValue("ab-bytes", "part a: all-reduce bytes", ab_bytes);
  cmd.AddValue("ab-levels", "part a: levels to run (packet,flow; one alone for profiling)", ab_levels);
  cmd.AddValue("ranks", "part b: rank counts, comma-separated", ranks_list);
  cmd.AddValue("cases", "part b: moe, ring, tree, comma-separated", cases);
  cmd.AddValue("bytes", "part b: all-reduce bytes", bytes);
  cmd.AddValue("model", "part b moe: model preset", moe_options.model);
  cmd.AddValue("layers", "part b moe: layers of the preset", moe_options.layers);
  cmd.AddValue("ep", "part b moe: expert-parallel size (dp = ranks / ep)", moe_options.ep);
  cmd.AddValue("tokens", "part b moe: decode tokens per rank", moe_options.tokens);
  cmd.AddValue("dispatch", "part b moe: bsp, decomposed or hierarchical", moe_options.dispatch);
  cmd.AddValue("resolution", "part b moe: ns3::FlowNetwork::Resolution (e.g. 100ns); empty: exact",
               moe_options.resolution);
  cmd.Parse(argc, argv);

  int failures = 0;
  if (part.find('a') != std::string::npos) {
    std::printf("part a: ring all-reduce of %llu B (%.0f MiB) on %u ranks, RDMA fat-tree, "
                "100 Gbit/s, ECMP\n",
                static_cast<unsigned long long>(ab_bytes), double(ab_bytes) / (1 << 20), ab_ranks);
    Measured level[2];
    const char* names[2] = {"packet", "flow"};
    for (int i = 0; i < 2; ++i) {
      if (ab_levels.find(names[i]) == std::string::npos) continue;
      level[i] = in_child([&] { return all_reduce(names[i], "ring", ab_ranks, ab_bytes); });
      if (failed(names[i], level[i])) {
        ++failures;
        continue;
      }
      const Figures& f = level[i].figures;
      std::printf("  %-6s  wall %8.3f s (set-up %.3f s)  simulated %.6f s  peak %.3f GB  %.3g events "
                  "(%.3g/s)",
                  names[i], f.wall_s, f.setup_s, f.simulated_s, level[i].peak_gb, f.events,
                  f.events / f.wall_s);
      if (f.reallocations > 0) std::printf("  %.3g reallocations", f.reallocations);
      std::printf("\n");
    }
    if (level[0].figures.ok && level[1].figures.ok) {
      const Figures& p = level[0].figures;
      const Figures& fl = level[1].figures;
      std::printf("  simulated flow - packet: %+.3f us (%+.3f%%); wall packet / flow: %.1fx "
                  "(goal >= 100x); without set-up: %.1fx\n",
                  (fl.simulated_s - p.simulated_s) * 1e6, 100 * (fl.simulated_s / p.simulated_s - 1),
                  p.wall_s / fl.wall_s, (p.wall_s - p.setup_s) / (fl.wall_s - fl.setup_s));
    }
  }
  if (part.find('b') != std::string::npos) {
    std::printf("part b: flow level, shapes only; moe: %s (%d layers), ep %d x dp ranks/%d, %d "
                "tokens/rank, %s, cm384 two-tier with ECMP; ring/tree: all-reduce of %.0f MiB on "
                "an RDMA fat-tree\n",
                moe_options.model.c_str(), moe_options.layers, moe_options.ep, moe_options.ep,
                moe_options.tokens, moe_options.dispatch.c_str(), double(bytes) / (1 << 20));
    std::printf("| ranks | case | wall s | peak GB | simulated ms | events | events/s | notes |\n"
                "| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
    std::vector<std::string> wanted;
    {
      std::stringstream in(cases);
      for (std::string item; std::getline(in, item, ',');) wanted.push_back(item);
    }
    for (int ranks : list_of(ranks_list)) {
      for (const std::string& c : wanted) {
        Measured m;
        if (c == "moe") {
          m = in_child([&] { return moe(moe_options, ranks); });
        } else if (c == "ring" || c == "tree") {
          m = in_child([&] { return all_reduce("flow", c, uint32_t(ranks), bytes); });
        } else {
          std::printf("unknown case '%s' (moe, ring, tree)\n", c.c_str());
          return 2;
        }
        const Figures& f = m.figures;
        if (!f.ok) {
          ++failures;
          std::printf("| %d | %s | FAILED | %.3f | | | | %s |\n", ranks, c.c_str(), m.peak_gb, f.error);
          continue;
        }
        char notes[128] = "";
        if (c == "moe") {
          std::snprintf(notes, sizeof notes, "dispatch %.1f us, combine %.1f us", f.dispatch_us,
                        f.combine_us);
        }
        std::printf("| %d | %s | %.2f | %.3f | %.4f | %.3g | %.3g | %s%s |\n", ranks, c.c_str(), f.wall_s,
                    m.peak_gb, f.simulated_s * 1e3, f.events, f.events / f.wall_s, notes,
                    f.setup_s > 0 ? (" set-up " + std::to_string(f.setup_s).substr(0, 5) + " s").c_str() : "");
      }
    }
  }
  return failures == 0 ? 0 : 1;
}
