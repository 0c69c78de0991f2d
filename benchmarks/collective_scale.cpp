// A large all-reduce, data-free and with data, in wall time and peak memory: the figures
// the collectives issue asks for (a 256 MB all-reduce on 128 ranks, no more than 2 GB).
// Each configuration runs in a child process so that its peak resident memory is its own.
//
//   collective-scale [--ranks=32] [--bytes=67108864] [--algorithm=ring] [--rate=100Gbps]
//                    [--data=false] [--topology=star] [--transport=tcp]
//
// The figure: --ranks=128 --bytes=268435456 --topology=fat-tree --transport=rdma
// (a k=8 fat-tree of 128 endpoints, the smallest that holds 128 ranks).
#include "apps/simulation_progress.h"
#include "bridge/sim_cluster.h"

#include <ns3/command-line.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

using namespace uniference;

int main(int argc, char** argv) {
  uint32_t ranks = 32;
  uint64_t bytes = 64ull << 20;
  std::string algorithm = "ring";
  std::string rate = "100Gbps";
  bool data = false;
  std::string topology = "star";
  std::string transport = "tcp";
  ns3::CommandLine cmd(__FILE__);
  cmd.AddValue("ranks", "ranks", ranks);
  cmd.AddValue("bytes", "all-reduce size S in bytes (float32)", bytes);
  cmd.AddValue("algorithm", "all_reduce algorithm", algorithm);
  cmd.AddValue("rate", "link data rate", rate);
  cmd.AddValue("data", "carry real tensors instead of meta ones", data);
  cmd.AddValue("topology", "a topology name (star, fat-tree, ...)", topology);
  cmd.AddValue("transport", "tcp or rdma", transport);
  cmd.Parse(argc, argv);

  const pid_t child = fork();
  if (child == 0) {
    NetworkConfig net;
    net.topology = topology;
    net.transport = transport;
    net.link_rate = ns3::DataRate(rate);
    net.link_delay = ns3::MicroSeconds(1);
    net.snd_buf = net.rcv_buf = 4 << 20;
    net.collectives[OpType::kAllReduce] = CollectiveChoice{algorithm, {}};
    const int64_t elements = int64_t(bytes / 4);
    SimCluster cluster(net);
    for (uint32_t r = 0; r < ranks; ++r) {
      cluster.add_rank(make_modeled_meter(device_profile("a100")), [&](Comm& comm) {
        at::Tensor t = data ? at::ones({elements})
                            : at::empty({elements}, at::TensorOptions().device(at::kMeta));
        comm.all_reduce(t);
      });
    }
    const auto start = std::chrono::steady_clock::now();
    const SimulationProgress progress(cluster.kernel(), 0, "all_reduce on " + std::to_string(ranks) + " ranks");
    RunOutcome outcome = cluster.run();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (outcome.status != RunOutcome::Status::kCompleted) {
      std::fprintf(stderr, "%s\n", outcome.report.c_str());
      _exit(1);
    }
    int64_t end = 0;
    for (const Span& s : cluster.record().spans) end = std::max(end, s.end_ns);
    std::printf("simulated %.6f s in %.2f s of wall time (%s over %s)\n", double(end) * 1e-9,
                wall, transport.c_str(), topology.c_str());
    std::fflush(stdout);
    _exit(0);
  }
  int status = 0;
  struct rusage usage {};
  wait4(child, &status, 0, &usage);
  std::printf("all_reduce %s of %llu bytes on %u ranks, %s, %s: peak memory %.2f GB\n",
              algorithm.c_str(), static_cast<unsigned long long>(bytes), ranks, rate.c_str(),
              data ? "with data" : "data-free", double(usage.ru_maxrss) / (1 << 20));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
