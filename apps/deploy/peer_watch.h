// Which peer was lost, when a deployed rank's communication fails. A backend's error names
// a socket ("Connection closed by peer [127.0.0.1]:41234"), and when one rank dies its
// neighbours fail first and the failure spreads, so the rank an error names is seldom the
// one that died. Every rank therefore beats a counter in the rendezvous store; after a
// failure, the ranks whose counter stopped without a word of leaving are the lost ones.
#pragma once

#include "apps/deploy/rendezvous.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace uniference {

class PeerWatch {
 public:
  // Starts beating every `interval` on a connection of its own.
  PeerWatch(const RendezvousOptions& options, int rank, int world,
            std::chrono::milliseconds interval = std::chrono::milliseconds(200));
  ~PeerWatch();
  PeerWatch(const PeerWatch&) = delete;
  PeerWatch& operator=(const PeerWatch&) = delete;

  // After a failure, what became of the peers: "lost peer: rank 2 (no heartbeat for 1.0 s)",
  // "lost peer: rank 0 (it served the rendezvous store, now unreachable)", "rank 0 failed
  // and left", or "every peer is still alive". Takes a few intervals.
  std::string census();

  // This rank is done and says so (and whether it failed), so that it is not counted lost.
  // Rank 0, which serves the store, then waits (at most `linger`) until every other rank
  // has left or is lost, so that none is cut off from the store while it still needs it.
  void leave(bool failed, std::chrono::milliseconds linger);

 private:
  std::vector<int64_t> beats();
  // 0: still here; 1: left done; 2: left failed.
  int64_t left(int rank);

  int rank_;
  int world_;
  std::chrono::milliseconds interval_;
  c10::intrusive_ptr<c10d::Store> store_;
  std::mutex store_mutex_;
  std::atomic<bool> stopping_{false};
  std::thread beater_;
};

}  // namespace uniference
