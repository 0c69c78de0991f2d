// How the model is split over ranks, as a scenario's /parallel gives it: the strategy, its
// degrees and its dispatch scheme. Free of libtorch, so that reading a scenario (apps/, which
// links neither libtorch nor ns-3) fills in the same struct the strategies take.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace uniference {

// Names are kept as written and looked up in the registries when the scenario is checked.
// The world is the product of the degrees.
struct ParallelDegrees {
  std::string strategy;          // a strategy name (compute/strategy.h's registry)
  int tp = 1;                    // tensor-parallel degree
  int pp = 1;                    // pipeline stages
  int dp = 1;                    // data-parallel replicas
  int sp = 1;                    // sequence (position) partitions: Voltage, Kilovolts
  int ep = 1;                    // expert-parallel ranks (strategy ep)
  std::string dispatch = "bsp";  // a dispatch scheme name (compute/moe/), for ep
  // Whether the scenario wrote /parallel/dispatch: a strategy without experts refuses one.
  bool dispatch_written = false;
  std::vector<int64_t> stages;  // layers per pipeline stage; empty: as even as possible
  int micro_batches = 1;        // pipeline micro-batches

  int world() const { return tp * pp * dp * sp * ep; }
};

}  // namespace uniference
