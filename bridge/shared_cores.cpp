#include "bridge/shared_cores.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace uniference {

namespace {
// Work is tracked in floating ns; a burst whose remainder is below this is done. A share
// below one makes remainders fractional, and the kernel's clock is whole ns.
constexpr double kDoneEpsilonNs = 0.5;
}  // namespace

SharedCores::SharedCores(int cores) : cores_(cores) {
  if (cores < 1) throw std::invalid_argument("a host needs at least one core, got " + std::to_string(cores));
}

double SharedCores::share() const {
  const size_t n = running_.size();
  return n <= size_t(cores_) ? 1.0 : double(cores_) / double(n);
}

void SharedCores::advance(int64_t now_ns) {
  if (now_ns < updated_ns_) throw std::logic_error("SharedCores: time went backwards");
  const double rate = share();
  const double elapsed = double(now_ns - updated_ns_);
  for (Burst& burst : running_) {
    burst.done_ns = std::min(burst.work_ns, burst.done_ns + elapsed * rate);
    if (burst.progress.back().first != now_ns) burst.progress.emplace_back(now_ns, burst.done_ns);
  }
  updated_ns_ = now_ns;
}

void SharedCores::start(int rank, int64_t work_ns, int64_t now_ns) {
  if (running(rank)) throw std::logic_error("SharedCores: rank " + std::to_string(rank) + " is already computing");
  advance(now_ns);
  Burst burst;
  burst.rank = rank;
  burst.work_ns = double(work_ns);
  burst.progress.emplace_back(now_ns, 0.0);
  const auto at = std::lower_bound(running_.begin(), running_.end(), rank,
                                   [](const Burst& b, int r) { return b.rank < r; });
  running_.insert(at, std::move(burst));
}

std::vector<SharedCores::Burst> SharedCores::finish_due(int64_t now_ns) {
  advance(now_ns);
  std::vector<Burst> done;
  for (auto it = running_.begin(); it != running_.end();) {
    if (it->work_ns - it->done_ns < kDoneEpsilonNs) {
      it->done_ns = it->work_ns;
      it->progress.back() = {now_ns, it->work_ns};
      done.push_back(std::move(*it));
      it = running_.erase(it);
    } else {
      ++it;
    }
  }
  return done;
}

SharedCores::Burst SharedCores::stop(int rank, int64_t now_ns) {
  advance(now_ns);
  for (auto it = running_.begin(); it != running_.end(); ++it) {
    if (it->rank != rank) continue;
    Burst burst = std::move(*it);
    running_.erase(it);
    return burst;
  }
  Burst none;
  none.rank = rank;
  return none;
}

int64_t SharedCores::next_finish_ns() const {
  if (running_.empty()) return -1;
  double least = running_.front().work_ns - running_.front().done_ns;
  for (const Burst& burst : running_) least = std::min(least, burst.work_ns - burst.done_ns);
  return updated_ns_ + int64_t(std::ceil(std::max(0.0, least) / share()));
}

bool SharedCores::running(int rank) const {
  return std::any_of(running_.begin(), running_.end(), [&](const Burst& b) { return b.rank == rank; });
}

int64_t SharedCores::Burst::time_at(double work) const {
  if (progress.empty()) return 0;
  for (size_t i = 1; i < progress.size(); ++i) {
    const auto& [t1, w1] = progress[i];
    if (work > w1) continue;
    const auto& [t0, w0] = progress[i - 1];
    if (w1 <= w0) return t0;
    return t0 + int64_t(std::llround(double(t1 - t0) * (work - w0) / (w1 - w0)));
  }
  return progress.back().first;
}

}  // namespace uniference
