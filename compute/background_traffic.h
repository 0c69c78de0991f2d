// Background traffic: the neighbour every shared cluster has (a data-parallel training job's
// gradient all-reduce every step), as shard code over Comm, so it runs wherever a model job
// runs. Its ranks compute nothing; only its bytes and its timing matter.
#pragma once

#include "compute/comm.h"

#include <cstdint>
#include <functional>
#include <string>

namespace uniference {

struct TrafficRounds {
  std::string pattern;     // "all_reduce", "all_to_all" or "permutation"
  uint64_t bytes = 0;      // each rank's buffer: a multiple of 4 (fp32), and for all_to_all of 4 x size
  int64_t start_ns = 0;    // round k is due at start + k x period
  int64_t period_ns = 0;
  bool shapes_only = false;  // meta tensors: sizes without data
};

struct TrafficClock {
  std::function<void(int64_t)> sleep_until_ns;
  // Whether to stop instead of running the round due at `ns`, asked once that time has come
  // (so that every rank, whenever it asks, answers alike).
  std::function<bool(int64_t)> stop_at;
};

// Runs rounds of `rounds.pattern` on `world` until the clock says stop; returns how many ran.
int64_t run_background_traffic(Comm& world, const TrafficRounds& rounds, const TrafficClock& clock);

}  // namespace uniference
