// The Boost.Fiber scheduling algorithm every LP fiber runs under.
//
// All LP fibers and ns-3 share one OS thread. Boost's own schedulers order ready
// fibers by arrival (round_robin) or steal them at random (work_stealing); this one
// orders them by (simulated time, rank, sequence), so which fiber runs next never
// depends on anything but the simulation. The kernel's own fiber (the thread's main
// context) runs only when no LP is ready.
#pragma once

#include <boost/fiber/algo/algorithm.hpp>
#include <boost/fiber/context.hpp>
#include <boost/fiber/properties.hpp>

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vector>

namespace uniference {

// Per-fiber ordering key. Fibers that are not LPs (main, dispatcher) keep rank -1.
class LpProperties : public boost::fibers::fiber_properties {
 public:
  explicit LpProperties(boost::fibers::context* ctx) : fiber_properties(ctx) {}
  int rank = -1;
  int64_t time_ns = 0;
};

class DeterministicScheduler
    : public boost::fibers::algo::algorithm_with_properties<LpProperties> {
 public:
  void awakened(boost::fibers::context* ctx, LpProperties& props) noexcept override;
  boost::fibers::context* pick_next() noexcept override;
  bool has_ready_fibers() const noexcept override;
  void suspend_until(const std::chrono::steady_clock::time_point& deadline) noexcept override;
  void notify() noexcept override;

  // Installs the algorithm on the calling thread, once.
  static void install_on_this_thread();

 private:
  struct Ready {
    int rank;
    int64_t time_ns;
    uint64_t seq;
    int kind;  // 0 LP, 1 main context, 2 dispatcher: LPs first, the kernel after
    boost::fibers::context* ctx;
  };
  // Rarely holds more than two entries, so a scan beats any ordered container.
  std::vector<Ready> ready_;
  uint64_t next_seq_ = 0;
  // Boost calls suspend_until only when nothing is ready; on our single thread that
  // happens solely while a fiber is being torn down. Waiting here is on a real
  // condition variable, as Boost's round_robin does, never on simulated time.
  std::mutex idle_mutex_;
  std::condition_variable idle_cv_;
  bool notified_ = false;
};

}  // namespace uniference
