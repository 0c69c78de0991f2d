// Times one communication operation through the Comm API on a simulated star network,
// repetition by repetition: a first tool to hold simulated collectives against
// measured ones (nccl-tests reports the same algbw and busbw).
//
//   comm-collective --op=all_reduce --ranks=4 --bytes=8388608 --rate=10Gbps --delay=5us
//
// No scenario file: the shard code below is what a user would write.
#include "bridge/sim_cluster.h"
#include "bridge/this_lp.h"

#include <ns3/command-line.h>
#include <ns3/scheduled-collective.h>
#include <ns3/tcp-cubic.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <stdexcept>

using namespace uniference;

namespace {

void run_op(Comm& comm, const std::string& op, at::Tensor& buffer, const at::Tensor& piece) {
  if (op == "all_reduce") {
    comm.all_reduce(buffer);
  } else if (op == "all_gather") {
    comm.all_gather(buffer, piece);
  } else if (op == "broadcast") {
    comm.broadcast(buffer, 0);
  } else if (comm.rank() == 0) {  // send_recv: rank 0 to rank 1
    comm.send(buffer, 1);
  } else if (comm.rank() == 1) {
    comm.recv(buffer, 0);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string op = "all_reduce";
  uint32_t ranks = 4;
  uint64_t bytes = 1 << 20;
  uint32_t reps = 3;
  NetworkConfig network;
  network.topology = "star-routed";  // point-to-point links, as the usage line says
  network.tcp_variant = ns3::TcpCubic::GetTypeId();
  ns3::CommandLine cmd(__FILE__);
  cmd.Usage("Times a Comm operation over a simulated star of point-to-point links.");
  cmd.AddValue("op", "send_recv, broadcast, all_reduce or all_gather", op);
  cmd.AddValue("ranks", "number of ranks (send_recv uses ranks 0 and 1)", ranks);
  cmd.AddValue("bytes", "message size S in bytes (all_gather: the whole output)", bytes);
  cmd.AddValue("reps", "repetitions", reps);
  cmd.AddValue("rate", "link data rate (ns-3 DataRate, e.g. 10Gbps)", network.link_rate);
  cmd.AddValue("delay", "link propagation delay (ns-3 Time, e.g. 5us)", network.link_delay);
  cmd.AddValue("mtu", "link MTU in bytes", network.mtu);
  cmd.AddValue("tcp", "TCP congestion control TypeId, e.g. ns3::TcpNewReno", network.tcp_variant);
  cmd.AddValue("segment", "TCP segment size in bytes", network.segment_size);
  cmd.Parse(argc, argv);

  if (op != "send_recv" && op != "broadcast" && op != "all_reduce" && op != "all_gather") {
    std::cerr << "comm-collective: unknown --op=" << op << "\n";
    return 2;
  }
  if (ranks < 2 || bytes < 4 || reps < 1) {
    std::cerr << "comm-collective: need --ranks >= 2, --bytes >= 4, --reps >= 1\n";
    return 2;
  }
  const int64_t elements = int64_t(bytes / 4);
  const int64_t per_rank = op == "all_gather" ? elements / ranks : elements;

  // starts[rep][rank], ends[rep][rank]: a repetition lasts from the first rank's start to
  // the last rank's end.
  std::vector<std::vector<int64_t>> starts(reps, std::vector<int64_t>(ranks));
  std::vector<std::vector<int64_t>> ends = starts;
  SimCluster cluster(network);
  for (uint32_t r = 0; r < ranks; ++r) {
    cluster.add_rank(make_modeled_meter(device_profile("a100")), [&](Comm& comm) {
      at::Tensor piece = at::ones({per_rank});
      at::Tensor buffer = at::ones({op == "all_gather" ? per_rank * comm.size() : elements});
      for (uint32_t i = 0; i < reps; ++i) {
        comm.barrier();  // every repetition starts together, as in nccl-tests
        starts[i][size_t(comm.rank())] = this_lp::clock_ns();
        run_op(comm, op, buffer, piece);
        ends[i][size_t(comm.rank())] = this_lp::clock_ns();
      }
    });
  }
  RunOutcome outcome = cluster.run();
  if (outcome.status != RunOutcome::Status::kCompleted) {
    std::cerr << "comm-collective: " << outcome.report << "\n";
    return outcome.exit_code();
  }
  const double s_bytes = double(elements) * 4;
  std::ostringstream links;
  links << double(network.link_rate.GetBitRate()) / 1e9 << " Gbit/s, "
        << double(network.link_delay.GetNanoSeconds()) / 1e3 << " us, "
        << network.tcp_variant.GetName();
  std::printf("# %s, %u ranks, S = %.0f bytes, links %s\n", op.c_str(), ranks, s_bytes,
              links.str().c_str());
  std::printf("%4s %14s %12s %12s\n", "rep", "time (us)", "algbw GB/s", "busbw GB/s");
  for (size_t i = 0; i < reps; ++i) {
    int64_t rep_ns = *std::max_element(ends[i].begin(), ends[i].end()) -
                     *std::min_element(starts[i].begin(), starts[i].end());
    double seconds = double(rep_ns) * 1e-9;
    double algbw = s_bytes / seconds / 1e9;
    std::printf("%4zu %14.3f %12.4f %12.4f\n", i, double(rep_ns) / 1e3, algbw,
                algbw * ns3::ScheduledCollective::GetBusBandwidthFactor(op, ranks));
  }
  return 0;
}
