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
//
// All-to-all, and all-gather on a group of two, run `exchanges`: stock, Gloo's own schedules
// as torch.distributed calls them, which post a pair's send before its receive and so may run
// the pair's two directions one after the other; or receive-first (the default), every
// receive posted first, then every send, over ProcessGroupGloo's point-to-point calls on tags
// from 2^30 (send and recv take user tags below 2^30).
std::unique_ptr<Comm> make_gloo_comm(const c10::intrusive_ptr<c10d::Store>& store,
                                     const RankPlacement& placement,
                                     std::chrono::milliseconds timeout,
                                     GlooExchanges exchanges = GlooExchanges::kReceiveFirst);

}  // namespace uniference
