// The progress line of one simulation (apps/progress_line.h): the simulated time reached, ns-3's
// events per wall second and, when the tokens to expect are known, those known so far and,
// from their pace, the wall time left. `run` shows it for every workload but serving (which has
// its own); the benchmarks show it for each simulation they time.
#pragma once

#include "apps/progress_line.h"
#include "bridge/kernel.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace uniference {

class SimulationProgress {
 public:
  // Hooks itself to ns-3's event list (bridge/progress_scheduler.h) until destroyed, on a
  // terminal only; `label` leads the line (a benchmark's case), `tokens_expected` is 0 when
  // there is no token count to follow.
  explicit SimulationProgress(Kernel& kernel, size_t tokens_expected = 0, std::string label = "");
  ~SimulationProgress();
  SimulationProgress(const SimulationProgress&) = delete;
  SimulationProgress& operator=(const SimulationProgress&) = delete;

 private:
  void tick();

  Kernel& kernel_;
  size_t tokens_expected_;
  std::string label_;
  ProgressLine line_;
  uint64_t last_events_ = 0;
  double last_wall_s_ = 0;
};

}  // namespace uniference
