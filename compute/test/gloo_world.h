// An n-rank Gloo world inside one test process: a thread per rank, each with its own
// GlooComm, connected through a TCPStore on loopback.
#pragma once

#include "compute/backends/backend.h"
#include "compute/comm.h"

#include <chrono>
#include <functional>

namespace uniference::test {

// Runs fn on every rank and rethrows the first failure. `timeout` bounds every Gloo
// operation, so a test that breaks a collective fails instead of hanging.
void run_world(int n, const std::function<void(Comm&)>& fn,
               std::chrono::milliseconds timeout = std::chrono::milliseconds(20000),
               GlooExchanges exchanges = GlooExchanges::kReceiveFirst);

// Both ways a GlooComm can run its all-to-all and 2-rank all-gather.
inline constexpr GlooExchanges kBothExchanges[] = {GlooExchanges::kReceiveFirst, GlooExchanges::kStock};

}  // namespace uniference::test
