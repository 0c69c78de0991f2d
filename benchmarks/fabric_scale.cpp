// The InfiniBand-like fabric's speed: a random permutation over RDMA on a k-ary fat-tree
// (k=8: 128 endpoints, 80 switches), each endpoint sending one message to another. Prints
// packet-hops per wall second (every packet a port puts on a cable is a hop; credit updates
// are not counted), the set-up time and memory of the fabric, and the peak memory, for ns-3's
// default map scheduler and its heap scheduler, each in its own child process so that its
// memory is its own. The fabric issue's goals: 1e6 hops/s on one core, set-up under 0.5 s,
// under 50 MB.
//
//   fabric-scale [--k=8] [--bytes=2000000] [--rate=100Gbps] [--routing=ECMP]
#include "apps/progress_line.h"

#include <ns3/command-line.h>
#include <ns3/core-module.h>
#include <ns3/ib-event-queue.h>
#include <ns3/ib-fabric-helper.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace ns3;

namespace {

/// \return this process's resident memory, in bytes
double resident_bytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmRSS:") {
      double kb = 0;
      status >> kb;
      return kb * 1024;
    }
    status.ignore(1 << 12, '\n');
  }
  return 0;
}

/// \return CPU time this process has used: on a shared machine, steadier than wall time
double cpu_seconds() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec * 1e-6 + usage.ru_stime.tv_sec +
         usage.ru_stime.tv_usec * 1e-6;
}

void discard(uint32_t, uint64_t, uint64_t) {}

void run(uint32_t k, uint64_t bytes, const std::string& rate, const std::string& routing,
         const std::string& scheduler) {
  ObjectFactory factory;
  factory.SetTypeId(scheduler);
  Simulator::SetScheduler(factory);

  const double rss_before = resident_bytes();
  const auto setup_start = std::chrono::steady_clock::now();
  IbFabricHelper fabric;
  fabric.SetDeviceAttribute("DataRate", DataRateValue(DataRate(rate)));
  fabric.SetSwitchAttribute("Routing", StringValue(routing));
  fabric.FatTree(k);
  fabric.Install();
  const uint32_t n = fabric.GetNEndpoints();
  std::vector<uint32_t> to(n);
  std::iota(to.begin(), to.end(), 0);
  std::mt19937 random(1);
  std::shuffle(to.begin(), to.end(), random);
  for (uint32_t s = 0; s < n; ++s) {
    fabric.GetTransport(to[s])->Listen(1, MakeCallback(&discard));
    fabric.GetTransport(s)->Send(to[s], 1, 0, bytes);
  }
  const double setup = std::chrono::duration<double>(std::chrono::steady_clock::now() - setup_start).count();
  const double setup_bytes = resident_bytes() - rss_before;

  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds();
  Simulator::Run();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu = cpu_seconds() - cpu_start;
  uint64_t hops = 0;
  for (const auto& port : fabric.GetPorts()) hops += port->GetTxPackets();
  const double simulated = Simulator::Now().GetSeconds();
  const double ns3_events = double(Simulator::GetEventCount());
  const double events = ns3_events + double(IbEventQueue::Get().GetEventCount());
  Simulator::Destroy();
  std::printf("%-22s %u endpoints, %u switches: set-up %.3f s, %.1f MB; %.1f us simulated in "
              "%.2f s wall (%.2f s CPU); %.3g packet-hops, %.3g hops per wall second (%.3g per CPU "
              "second), %.2f events per hop (%.2f of them ns-3's)\n",
              scheduler.c_str(), n, fabric.GetNSwitches(), setup, setup_bytes / 1e6, simulated * 1e6,
              wall, cpu, double(hops), hops / wall, hops / cpu, events / double(hops),
              ns3_events / double(hops));
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  uint32_t k = 8;
  uint64_t bytes = 2000000;
  std::string rate = "100Gbps";
  std::string routing = "ECMP";
  CommandLine cmd(__FILE__);
  cmd.AddValue("k", "fat-tree radix (k^3/4 endpoints)", k);
  cmd.AddValue("bytes", "message size per endpoint", bytes);
  cmd.AddValue("rate", "link rate", rate);
  cmd.AddValue("routing", "ECMP or Adaptive", routing);
  cmd.Parse(argc, argv);

  int failures = 0;
  size_t done = 0;
  uniference::ProgressLine progress(false);
  for (const std::string scheduler : {"ns3::MapScheduler", "ns3::HeapScheduler"}) {
    progress.step(done++, 2, scheduler);
    std::fflush(stdout);  // or the child would print the parent's buffer again
    const pid_t child = fork();
    if (child == 0) {
      run(k, bytes, rate, routing, scheduler);
      _exit(0);
    }
    int status = 0;
    struct rusage usage {};
    wait4(child, &status, 0, &usage);
    progress.clear();
    std::printf("%-22s peak memory %.1f MB\n", scheduler.c_str(), double(usage.ru_maxrss) / 1024);
    failures += WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
  }
  return failures == 0 ? 0 : 1;
}
