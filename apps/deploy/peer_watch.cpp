#include "apps/deploy/peer_watch.h"

#include <cstdio>

namespace uniference {

namespace {

std::string beat_key(int rank) { return "watch/beat/" + std::to_string(rank); }
std::string left_key(int rank) { return "watch/left/" + std::to_string(rank); }

}  // namespace

PeerWatch::PeerWatch(const RendezvousOptions& options, int rank, int world,
                     std::chrono::milliseconds interval)
    : rank_(rank), world_(world), interval_(interval), store_(connect_store(options)) {
  beater_ = std::thread([this] {
    while (!stopping_) {
      try {
        std::lock_guard<std::mutex> lock(store_mutex_);
        store_->add(beat_key(rank_), 1);
      } catch (const std::exception&) {
        return;  // the store is gone; census() says so
      }
      std::this_thread::sleep_for(interval_);
    }
  });
}

PeerWatch::~PeerWatch() {
  stopping_ = true;
  if (beater_.joinable()) beater_.join();
}

std::vector<int64_t> PeerWatch::beats() {
  std::vector<int64_t> counts;
  std::lock_guard<std::mutex> lock(store_mutex_);
  for (int r = 0; r < world_; ++r) counts.push_back(store_->add(beat_key(r), 0));
  return counts;
}

int64_t PeerWatch::left(int rank) {
  std::lock_guard<std::mutex> lock(store_mutex_);
  return store_->add(left_key(rank), 0);
}

std::string PeerWatch::census() {
  const auto silence = interval_ * 5;
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f", double(silence.count()) / 1000.0);
  try {
    const std::vector<int64_t> before = beats();
    std::this_thread::sleep_for(silence);
    const std::vector<int64_t> after = beats();
    std::string lost, failed;
    for (int r = 0; r < world_; ++r) {
      if (r == rank_) continue;
      const int64_t state = left(r);
      if (state == 2) failed += std::string(failed.empty() ? "" : ", ") + "rank " + std::to_string(r);
      if (state != 0 || after[size_t(r)] != before[size_t(r)]) continue;
      lost += std::string(lost.empty() ? "" : ", ") + "rank " + std::to_string(r) +
              " (no heartbeat for " + seconds + " s)";
    }
    if (!lost.empty()) return "lost peer: " + lost;
    if (!failed.empty()) return failed + " failed and left";
    return "every peer is still alive";
  } catch (const std::exception&) {
    if (rank_ == 0) return "the rendezvous store failed";
    return "lost peer: rank 0 (it served the rendezvous store, now unreachable)";
  }
}

void PeerWatch::leave(bool failed, std::chrono::milliseconds linger) {
  try {
    {
      std::lock_guard<std::mutex> lock(store_mutex_);
      store_->add(left_key(rank_), failed ? 2 : 1);
    }
    if (rank_ != 0) return;
    const auto deadline = std::chrono::steady_clock::now() + linger;
    std::vector<int64_t> last = beats();
    auto last_change = std::chrono::steady_clock::now();
    for (int r = 1; r < world_ && std::chrono::steady_clock::now() < deadline;) {
      if (left(r) != 0) {
        ++r;
        last_change = std::chrono::steady_clock::now();
        continue;
      }
      std::this_thread::sleep_for(interval_);
      const std::vector<int64_t> now = beats();
      if (now[size_t(r)] != last[size_t(r)]) last_change = std::chrono::steady_clock::now();
      last = now;
      if (std::chrono::steady_clock::now() - last_change > interval_ * 5) {  // lost
        ++r;
        last_change = std::chrono::steady_clock::now();
      }
    }
  } catch (const std::exception&) {
    // The store is gone: nobody is left to wait for.
  }
}

}  // namespace uniference
