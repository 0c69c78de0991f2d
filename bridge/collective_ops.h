// The simulated backend's one description of each collective operation: its size in the
// sense of nccl-tests and the algorithm that runs unless the scenario names another. The
// result is whatever the algorithm's schedule computes (ns3::ScheduledCollective over
// TensorCollectiveData). A new operation is an entry here (plus its Comm method and an ns-3
// algorithm registered under the same name).
#pragma once

#include "compute/comm.h"

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
  // all_to_all_v: elements sent to / received from each member; empty for equal blocks.
  std::vector<uint64_t> send_counts;
  std::vector<uint64_t> recv_counts;
};

struct CollectiveOp {
  OpType op;
  // The algorithm that runs unless the scenario's /collectives names another.
  const char* default_algorithm;
  // Whether the call names a root (the algorithm's Root Attribute).
  bool rooted;
  // nccl-tests' S: the per-rank buffer of an all-reduce, broadcast or reduce; the whole
  // output of an all-gather or gather; the whole input of a reduce-scatter, all-to-all or
  // scatter; 0 for a barrier.
  uint64_t (*bytes)(const CollectiveArgs& args, int group_size);
};

// Every collective operation of Comm, in OpType order.
const std::vector<CollectiveOp>& collective_ops();
// The entry of `op`; throws std::invalid_argument for send/recv.
const CollectiveOp& collective_op(OpType op);
// The entry named as torch.distributed names it ("all_reduce"); nullptr if none.
const CollectiveOp* find_collective_op(const std::string& name);

uint64_t tensor_bytes(const at::Tensor& t);

}  // namespace uniference
