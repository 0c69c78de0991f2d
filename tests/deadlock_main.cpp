// A program whose two ranks both receive first: it must print the deadlock report and
// exit with the deadlock code, not hang (the CLI test runs it under a timeout).
#include "bridge/sim_cluster.h"

#include <iostream>

int main() {
  using namespace uniference;
  SimCluster cluster(NetworkConfig{});
  for (int r = 0; r < 2; ++r) {
    cluster.add_rank(make_modeled_meter(device_profile("a100")), [](Comm& comm) {
      at::Tensor t = at::zeros({16});
      comm.recv(t, 1 - comm.rank(), /*tag=*/9);
      comm.send(t, 1 - comm.rank(), 9);
    });
  }
  RunOutcome outcome = cluster.run();
  std::cerr << outcome.report << "\n";
  return outcome.exit_code();
}
