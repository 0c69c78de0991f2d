#include "compute/test/gloo_world.h"

#include "compute/backends/gloo_comm.h"

#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <future>
#include <memory>
#include <vector>

namespace uniference::test {

void run_world(int n, const std::function<void(Comm&)>& fn, std::chrono::milliseconds timeout,
               GlooExchanges exchanges) {
  using namespace std::chrono_literals;
  c10d::TCPStoreOptions server;
  server.port = 0;  // any free port
  server.isServer = true;
  server.waitWorkers = false;
  server.timeout = 20000ms;
  auto host = c10::make_intrusive<c10d::TCPStore>("127.0.0.1", server);
  std::vector<std::future<void>> ranks;
  for (int r = 0; r < n; ++r) {
    ranks.push_back(std::async(std::launch::async, [&, r] {
      c10d::TCPStoreOptions client = server;
      client.port = host->getPort();
      client.isServer = false;
      auto store = c10::make_intrusive<c10d::TCPStore>("127.0.0.1", client);
      std::unique_ptr<Comm> comm =
          make_gloo_comm(store, RankPlacement{r, n, 0, "127.0.0.1"}, timeout, exchanges);
      fn(*comm);
    }));
  }
  for (auto& rank : ranks) rank.get();
}

}  // namespace uniference::test
