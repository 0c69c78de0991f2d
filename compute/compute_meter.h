// Charging the compute of a shard as simulated time (docs/design.md section 4).
//
// A meter brackets one compute segment of one simulated device: begin() when the device
// starts computing, end() when it reaches its next communication call; end() returns the
// nanoseconds to charge. Only one segment may be open at a time on a thread, whichever
// meter it belongs to (the bridge runs all devices on one thread, one at a time).
#pragma once

#include <cstdint>
#include "compute/device_profile.h"
#include "compute/replay_table.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace uniference {

class ComputeMeter {
 public:
  virtual ~ComputeMeter();
  // Opens a segment. Throws std::logic_error if a segment is already open on this thread.
  virtual void begin() = 0;
  // Closes the segment and returns the nanoseconds charged for it. Throws std::logic_error
  // unless this meter's segment is the one open on this thread.
  virtual int64_t end() = 0;
};

// A monotonic clock in nanoseconds.
using MonotonicClock = std::function<int64_t()>;

// std::chrono::steady_clock, in nanoseconds.
int64_t steady_clock_ns();

// Time between two communication calls shorter than this is bookkeeping, not compute: the
// measured meter charges it 0, and a deployment counts a call waited on within it as waited
// on at once (apps/deploy/timed_comm.cpp).
constexpr int64_t kBookkeepingNs = 1000;

// Wall time of the segment (read from `clock`) x slowdown. Segments shorter than
// threshold_ns are charged 0: they are bookkeeping between two communication calls, not
// compute, and timer noise would otherwise add up over thousands of them. Tests inject a
// clock of their own so the charging arithmetic is checked without timing anything.
std::unique_ptr<ComputeMeter> make_measured_meter(double slowdown, int64_t threshold_ns = kBookkeepingNs,
                                                  MonotonicClock clock = steady_clock_ns);

// Deterministic: the sum, over the ATen operators the segment executes on this thread, of
// launch_ns plus a roofline time max(flops / (peak_flops * efficiency * the op class's
// efficiency), bytes / memory_bandwidth), times slowdown, rounded to integer ns once per
// segment. Floating-point tensors' bytes are counted at the profile's bytes_per_element. Operators are observed through
// RecordFunction and each is counted once, at its outermost call (linear -> matmul -> mm
// is one linear). FLOPs: 2*M*N*K for the matmul family (linear, matmul, mm, addmm, bmm,
// baddbmm, mv, addmv, dot), one per element of the largest tensor for everything else.
// Bytes: inputs plus outputs; gathers (embedding, index_select, gather) read only the rows
// they select. Views, allocations and metadata cost nothing. Only sizes are used, so
// tensors on the meta device are charged like real ones.
std::unique_ptr<ComputeMeter> make_modeled_meter(const DeviceProfile& profile);

// Replay (compute/replay_table.h): each operator, observed and counted as the modeled meter
// counts them, is charged the time the table gives for its name and size, times slowdown.
std::unique_ptr<ComputeMeter> make_replay_meter(std::shared_ptr<const ReplayTable> table,
                                                double slowdown = 1.0);

// Measures: each operator's wall time, appended to `timings` with its name, FLOPs and bytes;
// charges the wall time. What `uniference profile` builds a replay table from.
std::unique_ptr<ComputeMeter> make_recording_meter(std::vector<OperatorTiming>* timings);

}  // namespace uniference
