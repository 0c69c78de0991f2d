// SplitMix64's finaliser: a 64-bit hash that spreads every input bit over the whole word, so
// neighbouring counters (indices, layers, similar names) give unrelated values. The
// counter-based generators of weights and of shape-only routing are built on it.
#pragma once

#include <cstdint>

namespace uniference {

inline uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace uniference
