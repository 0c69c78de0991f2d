// Comm over real TCP between processes: c10d's ProcessGroupGloo, as PyTorch runs it.
#pragma once

#include "compute/backends/backend.h"

namespace uniference {

// The world communicator of this rank. Blocks until every rank of the world has connected
// (each pair over its own TCP connection, addresses exchanged through `store`); throws
// std::runtime_error naming what failed. Tensors must be on the CPU.
//
// Gloo has no reduce-scatter in PyTorch 1.13: GlooComm composes it as an all-reduce of the
// whole input, of which each rank keeps its block.
std::unique_ptr<Comm> make_gloo_comm(const c10::intrusive_ptr<c10d::Store>& store,
                                     const RankPlacement& placement,
                                     std::chrono::milliseconds timeout);

}  // namespace uniference
