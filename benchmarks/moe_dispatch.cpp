// The expert-parallel study (UBEP's question): the latency of an MoE layer's dispatch and
// combine and the time per output token, per dispatch scheme (bsp, decomposed,
// hierarchical), across tokens per rank and expert-parallel sizes, on a network preset.
// Each case decodes one step after a one-token prefill of ep x tokens sequences, shapes only,
// and reads the decode step's phases. Prints a markdown table row by row (so a long sweep
// shows its progress) and writes the whole report to --out.
//
//   moe-dispatch [--preset=cm384] [--model=deepseek-v3] [--layers=4] [--ep=16,32,64,128]
//                [--tokens=8,16,32,64,128] [--out=moe-dispatch.md]
//
// Bandwidth is reported as DeepEP reports it: tokens x top-k x bytes per copy / dispatch
// time, with float32 copies of hidden features (the simulator's messages carry float32).
#include "apps/run_scenario.h"
#include "apps/scenario.h"
#include "compute/model_config.h"

#include <ns3/command-line.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
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

Result simulate(const Options& o, int ep, int tokens, const std::string& scheme) {
  const std::string text = R"({
    "name": "moe-dispatch",
    "model": { "preset": ")" + o.model + R"(", "layers": )" + std::to_string(o.layers) + R"( },
    "parallel": { "strategy": "ep", "ep": )" + std::to_string(ep) + R"(, "dispatch": ")" + scheme + R"(" },
    "workload": { "batch": )" + std::to_string(ep * tokens) + R"(, "prompt_tokens": 1, "new_tokens": 2 },
    "devices": { "profile": "h100", "dtype": "bf16" },
    "compute": { "mode": "modeled", "shapes_only": true },
    "network": { "preset": ")" + o.preset + R"(" },
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

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::string change(double value, double base) { return fixed(100 * (value / base - 1), 1) + "%"; }

}  // namespace

int main(int argc, char** argv) {
  Options o;
  ns3::CommandLine cmd(__FILE__);
  cmd.AddValue("preset", "network preset (cm384, h800-400g)", o.preset);
  cmd.AddValue("model", "model preset (a mixture of experts)", o.model);
  cmd.AddValue("layers", "layers of the preset to run (its dense ones first)", o.layers);
  cmd.AddValue("ep", "expert-parallel sizes, comma-separated", o.ep);
  cmd.AddValue("tokens", "tokens per rank, comma-separated", o.tokens);
  cmd.AddValue("out", "the markdown report", o.out);
  cmd.Parse(argc, argv);

  const ModelConfig model = model_preset(o.model);
  const double copy_bytes = double(model.dim) * 4;
  std::ostringstream report;
  report << "# Expert-parallel dispatch: " << o.model << " (" << o.layers << " layers) on " << o.preset
         << "\n\nOne decode step after a one-token prefill, shapes only. Latencies of the last MoE "
            "layer's exchanges, from the first rank's begin to the last rank's end; TPOT of the "
         << o.layers << "-layer model. Bandwidth: tokens x top-" << model.moe.top_k << " x "
         << fixed(copy_bytes, 0) << " B / dispatch time.\n\n"
         << "| EP | tokens/rank | bsp dispatch µs | decomposed | hierarchical | bsp combine µs | "
            "decomposed | hierarchical | bsp TPOT µs | decomposed | hierarchical | bsp GB/s |\n"
         << "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  std::cout << report.str() << std::flush;
  for (int ep : list_of(o.ep)) {
    for (int tokens : list_of(o.tokens)) {
      const Result bsp = simulate(o, ep, tokens, "bsp");
      const Result dec = simulate(o, ep, tokens, "decomposed");
      const Result hier = simulate(o, ep, tokens, "hierarchical");
      const double gbps = double(tokens) * double(model.moe.top_k) * copy_bytes / (bsp.dispatch_us * 1e3);
      std::ostringstream row;
      row << "| " << ep << " | " << tokens << " | " << fixed(bsp.dispatch_us, 1) << " | "
          << fixed(dec.dispatch_us, 1) << " (" << change(dec.dispatch_us, bsp.dispatch_us) << ") | "
          << fixed(hier.dispatch_us, 1) << " (" << change(hier.dispatch_us, bsp.dispatch_us) << ") | "
          << fixed(bsp.combine_us, 1) << " | " << fixed(dec.combine_us, 1) << " ("
          << change(dec.combine_us, bsp.combine_us) << ") | " << fixed(hier.combine_us, 1) << " ("
          << change(hier.combine_us, bsp.combine_us) << ") | " << fixed(bsp.tpot_us, 1) << " | "
          << fixed(dec.tpot_us, 1) << " (" << change(dec.tpot_us, bsp.tpot_us) << ") | "
          << fixed(hier.tpot_us, 1) << " (" << change(hier.tpot_us, bsp.tpot_us) << ") | "
          << fixed(gbps, 1) << " |\n";
      report << row.str();
      std::cout << row.str() << std::flush;
      std::cerr << "  ep " << ep << ", " << tokens << " tokens: "
                << fixed(bsp.wall_s + dec.wall_s + hier.wall_s, 1) << " s of wall time\n";
    }
  }
  std::ofstream(o.out) << report.str();
  std::cerr << "moe-dispatch: wrote " << o.out << "\n";
  return 0;
}
