// What the bridge costs, in wall time:
//   1. one fiber switch under the kernel's deterministic scheduler (Baton handoff);
//   2. per communication call, with 1,000 LPs doing small sends around a ring over
//      real ns-3 TCP: the same traffic is also driven from plain ns-3 callbacks (no
//      fibers, no bridge) in the same process, and the difference per call is the
//      bridge's cost. Each figure is the median of several repetitions.
//
//   bridge-overhead [--lps=1000] [--rounds=10] [--reps=3]
#include "bridge/fiber_scheduler.h"
#include "bridge/sim_cluster.h"

#include <ns3/command-line.h>
#include <ns3/core-module.h>
#include <ns3/star-network-helper.h>

#include <boost/fiber/fiber.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>

using namespace uniference;
using Clock = std::chrono::steady_clock;

namespace {

constexpr uint64_t kBenchChannel = 77;
constexpr int64_t kMessageFloats = 16;  // 64 bytes

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// One-way fiber switch: two fibers hand a baton back and forth.
double fiber_switch_ns(int handoffs) {
  DeterministicScheduler::install_on_this_thread();
  Baton ping, pong;
  boost::fibers::fiber other([&] {
    for (int i = 0; i < handoffs; ++i) {
      ping.wait();
      pong.post();
    }
  });
  auto start = Clock::now();
  for (int i = 0; i < handoffs; ++i) {
    ping.post();
    pong.wait();
  }
  double elapsed = seconds_since(start);
  other.join();
  return elapsed * 1e9 / (2.0 * handoffs);
}

NetworkConfig bench_network() {
  NetworkConfig net;
  net.link_rate = ns3::DataRate("10Gbps");
  net.link_delay = ns3::MicroSeconds(1);
  return net;
}

// The ring of small sends through SimComm: wall seconds of the run.
double through_bridge(int lps, int rounds) {
  SimCluster cluster(bench_network());
  for (int r = 0; r < lps; ++r) {
    cluster.add_rank(make_modeled_meter(device_profile("a100")), [rounds](Comm& comm) {
      int next = (comm.rank() + 1) % comm.size();
      int prev = (comm.rank() + comm.size() - 1) % comm.size();
      at::Tensor out = at::zeros({kMessageFloats});
      at::Tensor in = at::empty({kMessageFloats});
      for (int i = 0; i < rounds; ++i) {
        WorkPtr s = comm.isend(out, next);
        comm.recv(in, prev);
        s->wait();
      }
    });
  }
  cluster.build_network();  // timed in neither variant
  auto start = Clock::now();
  RunOutcome outcome = cluster.run();
  double elapsed = seconds_since(start);
  if (outcome.status != RunOutcome::Status::kCompleted) {
    std::fprintf(stderr, "bridge run failed: %s\n", outcome.report.c_str());
    std::exit(1);
  }
  return elapsed;
}

// The same traffic from plain ns-3 callbacks: a rank starts round i+1 once its round-i
// send was accepted and its round-i message from the previous rank has arrived.
struct PlainRing {
  std::vector<ns3::Ptr<ns3::MessageTransport>> transports;
  std::vector<int> sent, received, started;
  int rounds = 0;

  void maybe_start(int r) {
    size_t i = size_t(r);
    if (started[i] >= rounds || sent[i] < started[i] || received[i] < started[i]) return;
    ++started[i];
    int n = int(transports.size());
    transports[i]->Send(uint32_t((r + 1) % n), kBenchChannel, 0, kMessageFloats * 4,
                        ns3::MakeCallback(&PlainRing::on_sent, this).Bind(r));
  }
  void on_sent(int r) {
    ++sent[size_t(r)];
    maybe_start(r);
  }
  void on_received(int r, uint32_t, uint64_t, uint64_t) {
    ++received[size_t(r)];
    maybe_start(r);
  }
};

double without_bridge(int lps, int rounds) {
  ns3::StarNetworkHelper star;
  NetworkConfig net = bench_network();
  star.SetLinkAttribute("DataRate", ns3::DataRateValue(net.link_rate));
  star.SetLinkAttribute("Delay", ns3::TimeValue(net.link_delay));
  star.Install(uint32_t(lps));
  PlainRing ring;
  ring.transports = star.GetTransports();
  ring.rounds = rounds;
  ring.sent.assign(size_t(lps), 0);
  ring.received.assign(size_t(lps), 0);
  ring.started.assign(size_t(lps), 0);
  for (int r = 0; r < lps; ++r) {
    ring.transports[size_t(r)]->Listen(kBenchChannel,
                                       ns3::MakeCallback(&PlainRing::on_received, &ring).Bind(r));
    ns3::Simulator::Schedule(ns3::Seconds(0), &PlainRing::maybe_start, &ring, r);
  }
  auto start = Clock::now();
  // TCP timers outlive the traffic; the ring is done well before a simulated second.
  ns3::Simulator::Stop(ns3::Seconds(1));
  ns3::Simulator::Run();
  double elapsed = seconds_since(start);
  for (int r = 0; r < lps; ++r) {
    if (ring.received[size_t(r)] != rounds) {
      std::fprintf(stderr, "plain ring incomplete at rank %d\n", r);
      std::exit(1);
    }
  }
  ns3::Simulator::Destroy();
  return elapsed;
}

}  // namespace

int main(int argc, char** argv) {
  uint32_t lps = 1000, rounds = 10, reps = 3;
  ns3::CommandLine cmd(__FILE__);
  cmd.AddValue("lps", "number of logical processes", lps);
  cmd.AddValue("rounds", "ring rounds per LP (each: isend, recv, wait)", rounds);
  cmd.AddValue("reps", "repetitions; medians are printed", reps);
  cmd.Parse(argc, argv);

  std::vector<double> switches;
  for (uint32_t i = 0; i < reps; ++i) switches.push_back(fiber_switch_ns(200000));
  std::printf("fiber switch (Baton handoff, one way):   %8.1f ns  (median of %u)\n",
              median(switches), reps);

  // Calls per LP and round: isend, recv, wait on the send.
  const double calls = double(lps) * rounds * 3;
  std::vector<double> with, without, per_call;
  for (uint32_t i = 0; i < reps; ++i) {
    with.push_back(through_bridge(int(lps), int(rounds)));
    without.push_back(without_bridge(int(lps), int(rounds)));
    per_call.push_back((with.back() - without.back()) / calls * 1e9);
  }
  std::printf("ring of %u LPs x %u rounds of 64-byte sends over ns-3 TCP:\n", lps, rounds);
  std::printf("  through the bridge:                    %8.3f s\n", median(with));
  std::printf("  same traffic from plain ns-3 callbacks: %8.3f s\n", median(without));
  std::printf("  bridge cost per communication call:    %8.2f us  (median of %u)\n",
              median(per_call) / 1e3, reps);
  return 0;
}
