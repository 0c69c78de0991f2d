// How fast serving simulates: requests (and generated tokens) simulated per wall second on
// scenarios/serving.json (TP-4 over TCP, continuous batching); on the same scenario with its
// links made the InfiniBand-like fabric's (RDMA transport, same rate and delay), whose
// packets are the module's own; and on the same stream served by one rank, which has no
// network to simulate. The ratios show what ns-3's TCP/IP and the packets cost.
//
//   serving-rate [--requests=60] [--scenario=scenarios/serving.json]
//
// Prints one line per configuration: requests, simulated time, wall time, requests per wall
// second, tokens per wall second, and the messages ns-3 carried.
#include "apps/run_scenario.h"
#include "apps/scenario.h"
#include "compute/compute_meter.h"

#include <ns3/command-line.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace uniference;

struct Figures {
  double wall_s = 0;
  double simulated_s = 0;
  size_t requests = 0;
  uint64_t tokens = 0;
  size_t messages = 0;
};

Figures serve(const std::string& path, const std::vector<std::string>& overrides) {
  const Scenario scenario = load_scenario(path, overrides);
  const int64_t start = steady_clock_ns();
  const ScenarioRun run = run_scenario(scenario, true);
  Figures f;
  f.wall_s = double(steady_clock_ns() - start) * 1e-9;
  if (run.outcome.status != RunOutcome::Status::kCompleted) {
    std::fprintf(stderr, "serving-rate: %s\n", run.outcome.report.c_str());
    std::exit(1);
  }
  f.simulated_s = double(run.record.total_ns) * 1e-9;
  f.requests = run.record.requests.size();
  for (const RequestRecord& r : run.record.requests) f.tokens += uint64_t(r.new_tokens);
  f.messages = run.record.messages.size();
  return f;
}

void print(const char* name, const Figures& f) {
  std::printf("%-22s %6zu requests  %8.3f s simulated  %7.2f s wall  %7.1f requests/s  "
              "%8.1f tokens/s  %8zu messages\n",
              name, f.requests, f.simulated_s, f.wall_s, double(f.requests) / f.wall_s,
              double(f.tokens) / f.wall_s, f.messages);
}

}  // namespace

int main(int argc, char** argv) {
  int requests = 60;
  std::string path = "scenarios/serving.json";
  ns3::CommandLine cmd(__FILE__);
  cmd.AddValue("requests", "requests in the stream", requests);
  cmd.AddValue("scenario", "the serving scenario", path);
  cmd.Parse(argc, argv);

  const std::vector<std::string> common = {"/outputs/trace=false",
                                           "/workload/arrivals/requests=" + std::to_string(requests)};
  std::vector<std::string> rdma = common;
  rdma.push_back("/network/link/model=ib");
  rdma.push_back("/network/transport={\"kind\": \"rdma\"}");
  std::vector<std::string> one_rank = common;
  one_rank.push_back("/parallel/tp=1");
  const Figures tp4 = serve(path, common);
  const Figures tp4_rdma = serve(path, rdma);
  const Figures single = serve(path, one_rank);
  print("serving.json (tp 4)", tp4);
  print("same, ib links + rdma", tp4_rdma);
  print("same stream, 1 rank", single);
  std::printf("tp 4 takes %.1fx the wall time of the same on ib + rdma, %.1fx that of 1 rank\n",
              tp4.wall_s / tp4_rdma.wall_s, tp4.wall_s / single.wall_s);
  return 0;
}
