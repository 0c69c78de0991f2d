// `uniference profile`: the model's operators timed on this device across the shapes
// serving needs, for a replay table (compute/replay_table.h).
#pragma once

#include "compute/model_config.h"
#include "compute/replay_table.h"

#include <cstdint>

namespace uniference {

struct ProfileShapes {
  int64_t max_prompt = 64;  // prefills of 1, 2, 4, ... up to this many positions
  int64_t max_batch = 8;    // decode steps of 1, 2, 4, ... up to this many sequences
  int repeats = 3;          // each shape this many times; the table keeps the median
};

// Runs the whole model (one device) through every shape with a recording meter.
ReplayTable profile_model(const ModelConfig& model, uint64_t seed, const ProfileShapes& shapes);

}  // namespace uniference
