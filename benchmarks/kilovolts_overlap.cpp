// Voltage against Kilovolts: the simulated prefill (time to first token) of the same model,
// prompt and network, with each layer's all-gather waited for at once (Voltage) or overlapped
// with the next layer's norm and query projection (Kilovolts), per link latency. Prints the
// ratio Kilovolts / Voltage (below 1: Kilovolts is faster), once with ring all-gathers and
// once with direct ones (every rank sends its slice to every other at once, as Uniference's
// implementation of the overlapped form does).
//
//   kilovolts-overlap [--model=1b] [--sp=4] [--prompt=256] [--rate=1Gbps] [--profile=cpu]
//
// Compute is modeled on shapes only, so any model size runs on a laptop.
#include "apps/run_scenario.h"
#include "apps/scenario.h"

#include <ns3/command-line.h>

#include <cstdio>
#include <string>

namespace {

using namespace uniference;

struct Options {
  std::string model = "1b";
  int sp = 4;
  int prompt = 256;
  std::string rate = "1Gbps";
  std::string profile = "cpu";
};

int64_t prefill_ns(const Options& o, const std::string& strategy, const std::string& delay,
                   const std::string& all_gather) {
  const std::string text = R"({
    "name": "kilovolts-overlap",
    "model": { "preset": ")" + o.model + R"(" },
    "parallel": { "strategy": ")" + strategy + R"(", "sp": )" + std::to_string(o.sp) + R"( },
    "workload": { "prompt_tokens": )" + std::to_string(o.prompt) + R"(, "new_tokens": 1 },
    "devices": { "profile": ")" + o.profile + R"(" },
    "compute": { "mode": "modeled", "shapes_only": true },
    "network": { "topology": "star", "link": { "rate": ")" + o.rate + R"(", "delay": ")" + delay + R"(" } },
    "collectives": { "all_gather": { "algorithm": ")" + all_gather + R"(" } },
    "outputs": { "trace": false, "results": false }
  })";
  const ScenarioRun run = run_scenario(parse_scenario_text(text, "kilovolts-overlap.json"), true);
  if (run.outcome.status != RunOutcome::Status::kCompleted) {
    throw std::runtime_error(run.outcome.report);
  }
  return run.record.ttft_ns();
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  ns3::CommandLine cmd(__FILE__);
  cmd.AddValue("model", "model preset", o.model);
  cmd.AddValue("sp", "ranks the positions are split over", o.sp);
  cmd.AddValue("prompt", "prompt tokens", o.prompt);
  cmd.AddValue("rate", "link rate", o.rate);
  cmd.AddValue("profile", "device profile of the modeled compute", o.profile);
  cmd.Parse(argc, argv);
  std::printf("Voltage vs Kilovolts prefill: %s, sp %d, %d prompt tokens, %s links, %s compute\n",
              o.model.c_str(), o.sp, o.prompt, o.rate.c_str(), o.profile.c_str());
  std::printf("  %-10s %-7s %14s %14s %8s\n", "latency", "gather", "voltage", "kilovolts",
              "ratio");
  try {
    for (const char* delay : {"50us", "1ms", "10ms"}) {
      for (const char* gather : {"ring", "direct"}) {
        const int64_t voltage = prefill_ns(o, "voltage", delay, gather);
        const int64_t kilovolts = prefill_ns(o, "kilovolts", delay, gather);
        std::printf("  %-10s %-7s %11.3f ms %11.3f ms %8.4f\n", delay, gather, double(voltage) / 1e6,
                    double(kilovolts) / 1e6, double(kilovolts) / double(voltage));
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kilovolts-overlap: %s\n", e.what());
    return 1;
  }
  return 0;
}
