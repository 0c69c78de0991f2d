// Wall time per small TCP message on a large star, routed against switched: the figure the
// Ethernet issue asks for (switched at most a tenth of routed at 1,000 ranks).
//
//   star-scale [--ranks=1000] [--laps=1] [--bytes=64] [--only=routed|switched]
//
// A token goes round a ring of all ranks: rank r sends one message to rank r + 1 once it has
// received from rank r - 1, so exactly one message is in flight and the wall time between two
// deliveries is the cost of one message (its data segment, its ACK and the events they make).
// The first lap opens the connections (TCP handshakes) and is not timed; the next laps are.
// Both stars are built and run in this one process, one after the other, with the same links.
#include "apps/progress_line.h"

#include <ns3/command-line.h>
#include <ns3/data-rate.h>
#include <ns3/message-transport.h>
#include <ns3/nstime.h>
#include <ns3/simulator.h>
#include <ns3/star-network-helper.h>
#include <ns3/switched-star-helper.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Figures {
  double setup_s = 0;        // wall time to build the network and its transports
  double per_message_s = 0;  // wall time per message over the timed laps
  double simulated_s = 0;    // simulated time per message over the timed laps
};

template <typename Helper>
Figures run_ring(uint32_t ranks, uint32_t laps, uint64_t bytes) {
  Figures figures;
  const Clock::time_point setup = Clock::now();
  Helper star;
  star.SetLinkAttribute("DataRate", ns3::DataRateValue(ns3::DataRate("10Gbps")));
  star.SetLinkAttribute("Delay", ns3::TimeValue(ns3::MicroSeconds(1)));
  star.Install(ranks);
  const std::vector<ns3::Ptr<ns3::MessageTransport>> transports = star.GetTransports();
  figures.setup_s = seconds_since(setup);

  const uint64_t untimed = ranks;  // the first lap
  const uint64_t total = uint64_t(ranks) * (1 + laps);
  uint64_t received = 0;
  Clock::time_point timed_from;
  ns3::Time simulated_from;
  for (uint32_t r = 0; r < ranks; ++r) {
    transports[r]->Listen(
        1, ns3::MessageTransport::ReceiveCallback([&, r](uint32_t, uint64_t, uint64_t) {
          ++received;
          if (received == untimed) {
            timed_from = Clock::now();
            simulated_from = ns3::Simulator::Now();
          }
          if (received == total) {
            figures.per_message_s = seconds_since(timed_from) / double(total - untimed);
            figures.simulated_s =
                (ns3::Simulator::Now() - simulated_from).GetSeconds() / double(total - untimed);
            return;
          }
          transports[r]->Send((r + 1) % ranks, 1, 0, bytes);
        }));
  }
  transports[0]->Send(1 % ranks, 1, 0, bytes);
  ns3::Simulator::Run();
  ns3::Simulator::Destroy();
  if (received != total) {
    std::fprintf(stderr, "star-scale: %llu of %llu messages delivered\n",
                 static_cast<unsigned long long>(received), static_cast<unsigned long long>(total));
    std::exit(1);
  }
  return figures;
}

void print(const char* name, const Figures& f) {
  std::printf("%-10s setup %8.2f s   %9.1f us wall per message   %7.2f us simulated\n", name,
              f.setup_s, f.per_message_s * 1e6, f.simulated_s * 1e6);
}

}  // namespace

int main(int argc, char** argv) {
  uint32_t ranks = 1000;
  uint32_t laps = 1;
  uint64_t bytes = 64;
  std::string only;
  ns3::CommandLine cmd(__FILE__);
  cmd.AddValue("ranks", "ranks on the star (at least 2)", ranks);
  cmd.AddValue("laps", "timed laps of the ring, after one untimed lap", laps);
  cmd.AddValue("bytes", "payload bytes of every message", bytes);
  cmd.AddValue("only", "run one star only, routed or switched (for a profiler)", only);
  cmd.Parse(argc, argv);
  if (ranks < 2 || laps < 1) {
    std::fprintf(stderr, "star-scale: needs --ranks of at least 2 and --laps of at least 1\n");
    return 2;
  }

  std::printf("%u ranks, a ring of %llu-byte TCP messages, 10 Gbit/s links, 1 us delay\n", ranks,
              static_cast<unsigned long long>(bytes));
  Figures routed;
  Figures switched;
  uniference::ProgressLine progress(false);
  const size_t stars = only.empty() ? 2 : 1;
  if (only != "switched") {
    progress.step(0, stars, "routed star");
    routed = run_ring<ns3::StarNetworkHelper>(ranks, laps, bytes);
    progress.clear();
    print("routed", routed);
  }
  if (only != "routed") {
    progress.step(stars - 1, stars, "switched star");
    switched = run_ring<ns3::SwitchedStarHelper>(ranks, laps, bytes);
    progress.clear();
    print("switched", switched);
  }
  if (only.empty()) {
    std::printf("switched / routed wall per message: %.3f\n",
                switched.per_message_s / routed.per_message_s);
  }
  return 0;
}
