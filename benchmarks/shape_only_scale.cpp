// A model too large to hold, simulated from its shapes: the 70B preset on 64 logical
// processes (TP-8 x PP-8) with "shapes_only", its weights never allocated. Prints the peak
// resident memory of this process (goal: under 2 GB, against ~4.4 GB of weights per rank
// that the run reports it would hold), the wall time, and the simulated decode step: its
// compute on the slowest rank (the run with two new tokens minus the run with one) and its
// time per output token. tests/shape_only_test.cpp checks the compute against the roofline.
//
//   shape-only-scale [--model=70b] [--tp=8] [--pp=8] [--prompt=8] [--transport=rdma]
#include "apps/run_scenario.h"
#include "apps/scenario.h"

#include <ns3/command-line.h>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

namespace {

using namespace uniference;

struct Options {
  std::string model = "70b";
  int tp = 8;
  int pp = 8;
  int prompt = 8;
  std::string transport = "rdma";
};

Scenario scenario(const Options& o, int new_tokens) {
  const std::string link = o.transport == "rdma" ? R"({ "preset": "ndr" })"
                                                 : R"({ "rate": "400Gbps", "delay": "1us" })";
  const std::string text = R"({
    "name": "shape-only-scale",
    "model": { "preset": ")" + o.model + R"(" },
    "parallel": { "strategy": "tp-pp", "tp": )" + std::to_string(o.tp) +
                           R"(, "pp": )" + std::to_string(o.pp) + R"( },
    "workload": { "prompt_tokens": )" + std::to_string(o.prompt) +
                           R"(, "new_tokens": )" + std::to_string(new_tokens) + R"( },
    "devices": { "profile": "h100" },
    "compute": { "mode": "modeled", "shapes_only": true },
    "network": { "topology": "star", "link": )" + link + R"(,
                 "transport": { "kind": ")" + o.transport + R"(" } },
    "outputs": { "trace": false, "results": false }
  })";
  return parse_scenario_text(text, "shape-only-scale.json");
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  ns3::CommandLine cmd(__FILE__);
  cmd.AddValue("model", "model preset", o.model);
  cmd.AddValue("tp", "tensor-parallel degree", o.tp);
  cmd.AddValue("pp", "pipeline stages", o.pp);
  cmd.AddValue("prompt", "prompt tokens", o.prompt);
  cmd.AddValue("transport", "rdma (an NDR InfiniBand-like star) or tcp (400 Gbit/s)", o.transport);
  cmd.Parse(argc, argv);

  try {
    const auto start = std::chrono::steady_clock::now();
    const ScenarioRun one = run_scenario(scenario(o, 1), true);
    const ScenarioRun two = run_scenario(scenario(o, 2), true);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (one.outcome.status != RunOutcome::Status::kCompleted ||
        two.outcome.status != RunOutcome::Status::kCompleted) {
      std::fprintf(stderr, "shape-only-scale: %s%s\n", one.outcome.report.c_str(),
                   two.outcome.report.c_str());
      return 1;
    }
    int64_t decode_max = 0;
    uint64_t memory_max = 0;
    for (size_t r = 0; r < two.record.ranks.size(); ++r) {
      const RankStats& s = two.record.ranks[r];
      decode_max = std::max(decode_max, s.compute_ns - one.record.ranks[r].compute_ns);
      memory_max = std::max(memory_max, s.weight_bytes + s.kv_cache_bytes + s.activation_bytes);
    }
    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("shape-only %s, tp %d x pp %d = %d ranks, %d prompt tokens, %s\n", o.model.c_str(),
                o.tp, o.pp, o.tp * o.pp, o.prompt, o.transport.c_str());
    std::printf("  wall time, both runs        %8.2f s\n", wall);
    std::printf("  peak RSS of this process    %8.3f GB (goal: under 2 GB)\n",
                double(usage.ru_maxrss) * 1024 / 1e9);
    std::printf("  memory one rank would hold  %8.3f GB (weights, KV cache, activations)\n",
                double(memory_max) / 1e9);
    std::printf("  decode step compute, slowest rank  %8.3f ms\n", double(decode_max) / 1e6);
    std::printf("  TTFT %.3f ms, TPOT %.3f ms (simulated)\n", double(two.record.ttft_ns()) / 1e6,
                two.record.tpot_ns() / 1e6);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shape-only-scale: %s\n", e.what());
    return 2;
  }
  return 0;
}
