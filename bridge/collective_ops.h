// The simulated backend's view of each collective operation: its description
// (compute/collective_op.h: name, root, size in the sense of nccl-tests, default algorithm),
// and what one member brings to a call. The result is whatever the algorithm's schedule
// computes (ns3::ScheduledCollective over TensorCollectiveData).
#pragma once

#include "compute/collective_op.h"

#include <ATen/ATen.h>

#include <cstdint>
#include <string>
#include <vector>

namespace uniference {

// What one member brings to a collective call.
struct CollectiveArgs {
  OpType op = OpType::kBarrier;
  ReduceOp reduce = ReduceOp::kSum;
  int root = 0;       // group index; rooted operations only
  at::Tensor input;   // read (undefined for in-place operations)
  at::Tensor output;  // written in place when this member's part completes
  uint64_t bytes = 0;  // nccl-tests' S, from the operation's description
  // all_to_all_v, gather_v: elements sent to / received from each member; empty for equal
  // blocks.
  std::vector<uint64_t> send_counts;
  std::vector<uint64_t> recv_counts;
};

using CollectiveOp = CollectiveDescription;

// Every collective operation of Comm (not send and recv), in OpType order.
const std::vector<CollectiveOp>& collective_ops();
// The entry of `op`; throws std::invalid_argument for send/recv.
const CollectiveOp& collective_op(OpType op);
// The entry named as torch.distributed names it ("all_reduce"); nullptr if none.
const CollectiveOp* find_collective_op(const std::string& name);

}  // namespace uniference
