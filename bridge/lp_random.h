// Each LP owns its random stream: shard code that draws from libtorch's default CPU
// generator (at::randn without a generator) gets the same numbers whatever the other LPs
// draw and however they interleave. The kernel swaps the generator's state at switches.
#pragma once

#include <ATen/core/MT19937RNGEngine.h>
#include <c10/util/Optional.h>

#include <cstdint>

namespace uniference {

struct GeneratorState {
  at::mt19937 engine;
  c10::optional<float> next_float_normal;
  c10::optional<double> next_double_normal;
};

// A fresh stream for `rank` of a run seeded with `seed`.
GeneratorState lp_generator_state(uint64_t seed, int rank);

// Installs `next` in libtorch's default CPU generator and returns what it held.
GeneratorState swap_default_generator(const GeneratorState& next);

}  // namespace uniference
