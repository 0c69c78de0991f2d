#include "bridge/fiber_scheduler.h"

#include <boost/fiber/operations.hpp>

#include <tuple>

namespace uniference {

void DeterministicScheduler::awakened(boost::fibers::context* ctx, LpProperties& props) noexcept {
  int kind = 0;
  if (ctx->is_context(boost::fibers::type::main_context)) {
    kind = 1;
  } else if (ctx->is_context(boost::fibers::type::dispatcher_context)) {
    kind = 2;
  }
  ready_.push_back(Ready{props.rank, props.time_ns, next_seq_++, kind, ctx});
}

boost::fibers::context* DeterministicScheduler::pick_next() noexcept {
  if (ready_.empty()) return nullptr;
  auto key = [](const Ready& r) { return std::make_tuple(r.kind, r.time_ns, r.rank, r.seq); };
  size_t best = 0;
  for (size_t i = 1; i < ready_.size(); ++i) {
    if (key(ready_[i]) < key(ready_[best])) best = i;
  }
  boost::fibers::context* ctx = ready_[best].ctx;
  ready_.erase(ready_.begin() + static_cast<std::ptrdiff_t>(best));
  return ctx;
}

bool DeterministicScheduler::has_ready_fibers() const noexcept { return !ready_.empty(); }

void DeterministicScheduler::suspend_until(
    const std::chrono::steady_clock::time_point& deadline) noexcept {
  std::unique_lock<std::mutex> lock(idle_mutex_);
  if (deadline == std::chrono::steady_clock::time_point::max()) {
    idle_cv_.wait(lock, [this] { return notified_; });
  } else {
    idle_cv_.wait_until(lock, deadline, [this] { return notified_; });
  }
  notified_ = false;
}

void DeterministicScheduler::notify() noexcept {
  {
    std::lock_guard<std::mutex> lock(idle_mutex_);
    notified_ = true;
  }
  idle_cv_.notify_all();
}

void DeterministicScheduler::install_on_this_thread() {
  thread_local bool installed = false;
  if (installed) return;
  boost::fibers::use_scheduling_algorithm<DeterministicScheduler>();
  installed = true;
}

}  // namespace uniference
