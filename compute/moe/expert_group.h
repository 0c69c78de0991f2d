// Where a mixture of experts' experts live: every one on this device, or spread over an
// expert-parallel group whose ranks exchange tokens by a dispatch scheme.
#pragma once

#include "compute/comm.h"

namespace uniference {

struct DispatchScheme;

struct ExpertGroup {
  // nullptr: a single device holding every expert (no exchange).
  Comm* comm = nullptr;
  // nullptr: the first registered scheme (bsp).
  const DispatchScheme* scheme = nullptr;
  // Ranks r and p share a server when r / ranks_per_server == p / ranks_per_server: what
  // the hierarchical scheme orders its messages by.
  int ranks_per_server = 8;
};

}  // namespace uniference
