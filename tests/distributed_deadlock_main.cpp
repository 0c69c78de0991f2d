// Four ranks on a k=4 RDMA fat-tree, one per pod, under mpirun: ranks 0 and 2 each receive
// from the other first (a deadlock between pods, so between processes when cut in two),
// ranks 1 and 3 exchange and finish. Every process's part is gathered as `uniference run`
// gathers it; process 0 prints the joined outcome and every process exits with its code. The
// test runs it under a timeout: it must report, not hang.
#include "apps/distributed_run.h"
#include "bridge/distributed.h"
#include "bridge/sim_cluster.h"

#include <iostream>

int main(int argc, char** argv) {
  using namespace uniference;
  distributed::enable(&argc, &argv);
  NetworkConfig network;
  network.topology = "fat-tree";
  network.transport = "rdma";
  network.link_rate = ns3::DataRate("200Gbps");
  network.link_delay = ns3::NanoSeconds(100);
  network.topology_options["k"] = 4;
  network.placement = {0, 4, 8, 12};
  network.processes = distributed::processes();
  RunOutcome outcome;
  ProcessPart part;
  {
    SimCluster cluster(network);
    for (int r = 0; r < 4; ++r) {
      cluster.add_rank(make_modeled_meter(device_profile("a100")), [](Comm& comm) {
        const int peer = comm.rank() ^ 2;  // 0 <-> 2, 1 <-> 3
        at::Tensor t = at::zeros({16}, at::TensorOptions().device(at::kMeta));
        if (comm.rank() % 2 == 0) {
          comm.recv(t, peer, /*tag=*/5);
          comm.send(t, peer, 5);
        } else if (comm.rank() < peer) {
          comm.send(t, peer, 5);
          comm.recv(t, peer, 5);
        } else {
          comm.recv(t, peer, 5);
          comm.send(t, peer, 5);
        }
      });
    }
    part.outcome = cluster.run();
    part.record = cluster.record();
    for (int r = 0; r < 4; ++r) part.ranks_here.push_back(cluster.kernel().runs_here(r));
  }
  const std::vector<std::string> parts = distributed::gather(part_to_text(part));
  if (distributed::process() == 0) {
    std::vector<ProcessPart> all;
    for (const std::string& text : parts) all.push_back(part_from_text(text));
    outcome = join_parts(all, {}).outcome;
    std::cerr << outcome.report << "\n";
  } else {
    outcome = part.outcome;
  }
  distributed::finish();
  return outcome.exit_code();
}
