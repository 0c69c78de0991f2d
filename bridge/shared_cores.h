// Ranks that compute on one host's CPU cores rather than on devices of their own: the
// emulated testbed runs four rank processes on a two-core machine. While n of its ranks
// compute and n exceeds its cores, each computes at cores/n of its own speed (egalitarian
// processor sharing, what Linux's fair scheduler gives runnable threads of equal weight).
//
// A model of time only, apart from ns-3 and the fibers: the kernel tells it when a rank
// starts a burst of compute (its solo time, known in full when the burst starts, since an
// LP runs its shard code at one simulated instant) and asks when the next burst ends. A
// burst that starts later slows those already running, which then end later than first
// projected; nothing is ever moved into the past.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace uniference {

class SharedCores {
 public:
  explicit SharedCores(int cores);

  // A burst that has ended, or been cut short, with how its work went: the points
  // (simulated ns, solo ns of work done by then) at which its share changed, first its
  // start, last its end. Work done grows linearly between two points.
  struct Burst {
    int rank = 0;
    double work_ns = 0;  // solo time it needs
    double done_ns = 0;  // solo time it has had
    std::vector<std::pair<int64_t, double>> progress;
    // When the burst had done `work` ns of its solo time (work within [0, done_ns]).
    int64_t time_at(double work) const;
  };

  int cores() const { return cores_; }
  // `rank` starts a burst of `work_ns` of solo compute at `now_ns` (no earlier than any
  // time this model has seen). A rank has at most one burst at a time.
  void start(int rank, int64_t work_ns, int64_t now_ns);
  // The bursts that have ended by `now_ns`, in rank order, removed from the host.
  std::vector<Burst> finish_due(int64_t now_ns);
  // Cuts `rank`'s burst short at `now_ns` (a crash) and returns it, done_ns the solo time it
  // had. Returns a burst with no progress if the rank has none.
  Burst stop(int rank, int64_t now_ns);
  // When the next running burst ends at the present share, or -1 with none running.
  int64_t next_finish_ns() const;
  bool running(int rank) const;

 private:
  // Brings every running burst's work to `now_ns` at the share it had since the last update.
  void advance(int64_t now_ns);
  double share() const;

  int cores_;
  int64_t updated_ns_ = 0;
  std::vector<Burst> running_;
};

}  // namespace uniference
