// The simulated backend's one description of each collective operation: its size in the
// sense of nccl-tests, the algorithm that runs unless the scenario names another, and how
// its result follows from the members' contributions. A new operation is an entry here
// (plus its Comm method and an ns-3 algorithm registered under the same name).
#pragma once

#include "compute/comm.h"

#include <ATen/ATen.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ns3 {
class CollectiveHelper;
}

namespace uniference {

// What one member brings to a collective call.
struct CollectiveArgs {
  OpType op = OpType::kBarrier;
  ReduceOp reduce = ReduceOp::kSum;
  int root = 0;       // group index; broadcast only
  at::Tensor input;   // this member's contribution (broadcast: the root's tensor)
  at::Tensor output;  // filled in place when this member's part completes
};

struct CollectiveOp {
  OpType op;
  // The algorithm that runs unless the scenario's /collectives names another.
  const char* default_algorithm;
  // Which contributions the result needs before any member can be given it.
  enum class Needs { kNothing, kRoot, kEveryone } needs;
  // nccl-tests' S: the per-rank buffer of an all-reduce, the whole output of an
  // all-gather, the buffer of a broadcast; 0 for a barrier.
  uint64_t (*bytes)(const CollectiveArgs& args, int group_size);
  // The result from the members' contributions in group order (undefined for a barrier).
  // Reductions run in group order, the same order for every member.
  at::Tensor (*result)(const std::vector<at::Tensor>& inputs, const CollectiveArgs& args);
  // Sets the Attributes the call itself decides (a broadcast's Root); may be null.
  void (*configure)(ns3::CollectiveHelper& helper, const CollectiveArgs& args);
};

// Every collective operation of Comm, in OpType order.
const std::vector<CollectiveOp>& collective_ops();
// The entry of `op`; throws std::invalid_argument for send/recv.
const CollectiveOp& collective_op(OpType op);
// The entry named as torch.distributed names it ("all_reduce"); nullptr if none.
const CollectiveOp* find_collective_op(const std::string& name);

uint64_t tensor_bytes(const at::Tensor& t);

}  // namespace uniference
