// The communicator shard code is written against, once, for every backend.
//
// Modelled on c10d's ProcessGroup: the same operations with the same semantics
// (in-place all_reduce and broadcast, Work handles whose wait() blocks), so a
// PyTorch user reads shard code without a manual. A backend may be simulated
// (SimComm, in bridge/) or real (Gloo, NCCL); shard code cannot tell which.
#pragma once

#include <ATen/ATen.h>

#include <memory>
#include <vector>

namespace uniference {

enum class ReduceOp { kSum, kMax, kMin };

// The operations of Comm, named as c10d's OpType names them. Reports, traces and the
// simulated backend's table of operations (bridge/collective_ops) refer to calls by it.
enum class OpType { kSend, kRecv, kBroadcast, kAllReduce, kAllGather, kBarrier };

// "send", "recv", "broadcast", "all_reduce", "all_gather", "barrier": torch.distributed's
// function names, which scenarios use too.
constexpr const char* op_name(OpType op) {
  switch (op) {
    case OpType::kSend:
      return "send";
    case OpType::kRecv:
      return "recv";
    case OpType::kBroadcast:
      return "broadcast";
    case OpType::kAllReduce:
      return "all_reduce";
    case OpType::kAllGather:
      return "all_gather";
    case OpType::kBarrier:
      return "barrier";
  }
  return "?";
}

// The handle of an asynchronous operation (c10d's Work).
class Work {
 public:
  virtual ~Work() = default;
  // Blocks the caller until the operation has completed; its tensors may be read then.
  virtual void wait() = 0;
  virtual bool is_completed() = 0;
};
using WorkPtr = std::shared_ptr<Work>;

class Comm {
 public:
  virtual ~Comm() = default;

  virtual int rank() const = 0;
  virtual int size() const = 0;

  // Asynchronous operations: each returns at once; wait() on the handle blocks.
  // Tensors passed in must stay alive and unmodified until the handle completes.
  virtual WorkPtr isend(const at::Tensor& tensor, int dst, int tag = 0) = 0;
  virtual WorkPtr irecv(at::Tensor& tensor, int src, int tag = 0) = 0;
  // In place: every rank's tensor ends up holding root's.
  virtual WorkPtr ibroadcast(at::Tensor& tensor, int root) = 0;
  // In place: every rank's tensor ends up holding the reduction over all ranks.
  virtual WorkPtr iall_reduce(at::Tensor& tensor, ReduceOp op = ReduceOp::kSum) = 0;
  // output holds size() copies of input's shape, concatenated along dim 0 in rank
  // order (c10d's all_gather_into_tensor).
  virtual WorkPtr iall_gather(at::Tensor& output, const at::Tensor& input) = 0;
  virtual WorkPtr ibarrier() = 0;

  // Blocking forms: the asynchronous operation, then wait().
  void send(const at::Tensor& tensor, int dst, int tag = 0) { isend(tensor, dst, tag)->wait(); }
  void recv(at::Tensor& tensor, int src, int tag = 0) { irecv(tensor, src, tag)->wait(); }
  void broadcast(at::Tensor& tensor, int root) { ibroadcast(tensor, root)->wait(); }
  void all_reduce(at::Tensor& tensor, ReduceOp op = ReduceOp::kSum) {
    iall_reduce(tensor, op)->wait();
  }
  void all_gather(at::Tensor& output, const at::Tensor& input) {
    iall_gather(output, input)->wait();
  }
  void barrier() { ibarrier()->wait(); }

  // A sub-group of this communicator's ranks (c10d's new_group). Every rank of this
  // communicator calls split with the same list, in the same order of calls; members
  // get a communicator whose ranks are their positions in `ranks`, others get nullptr.
  virtual std::shared_ptr<Comm> split(const std::vector<int>& ranks) = 0;
};

// A size, for allocating the output of iall_gather.
inline at::Tensor empty_gather_output(const at::Tensor& input, int world) {
  auto sizes = input.sizes().vec();
  if (sizes.empty()) sizes.push_back(1);
  sizes[0] *= world;
  return at::empty(sizes, input.options());
}

}  // namespace uniference
