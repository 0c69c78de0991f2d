// The communicator shard code is written against, once, for every backend.
//
// Modelled on c10d's ProcessGroup: the same operations with the same semantics
// (in-place all_reduce and broadcast, Work handles whose wait() blocks), so a
// PyTorch user reads shard code without a manual. A backend may be simulated
// (SimComm, in bridge/) or real (Gloo, NCCL); shard code cannot tell which.
#pragma once

#include "compute/collective_op.h"

#include <ATen/ATen.h>

#include <memory>
#include <vector>

namespace uniference {

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
  // Tensors passed in must stay alive and unmodified until the handle completes. Each builds
  // one CommCall, which issue() checks and hands to the backend.
  WorkPtr isend(const at::Tensor& tensor, int dst, int tag = 0);
  WorkPtr irecv(at::Tensor& tensor, int src, int tag = 0);
  // In place: every rank's tensor ends up holding root's.
  WorkPtr ibroadcast(at::Tensor& tensor, int root);
  // In place: every rank's tensor ends up holding the reduction over all ranks.
  WorkPtr iall_reduce(at::Tensor& tensor, ReduceOp op = ReduceOp::kSum);
  // output holds size() copies of input's shape, concatenated along dim 0 in rank
  // order (c10d's all_gather_into_tensor).
  WorkPtr iall_gather(at::Tensor& output, const at::Tensor& input);
  WorkPtr ibarrier();
  // input holds size() blocks along dim 0; rank r's output gets the reduction of every
  // rank's block r (c10d's reduce_scatter_tensor).
  WorkPtr ireduce_scatter(at::Tensor& output, const at::Tensor& input,
                          ReduceOp op = ReduceOp::kSum);
  // Block j of input (along dim 0, size() equal blocks) goes to rank j, and output's block j
  // comes from rank j (c10d's all_to_all_single without split sizes).
  WorkPtr iall_to_all(at::Tensor& output, const at::Tensor& input);
  // As iall_to_all, with the rows (dim 0) of each block given: input_splits[j] rows go to
  // rank j, output_splits[j] rows come from it (all_to_all_single with split sizes).
  WorkPtr iall_to_all_v(at::Tensor& output, const at::Tensor& input,
                        const std::vector<int64_t>& output_splits,
                        const std::vector<int64_t>& input_splits);
  // In place at root: its tensor ends up holding the reduction; other ranks' are unchanged.
  WorkPtr ireduce(at::Tensor& tensor, int root, ReduceOp op = ReduceOp::kSum);
  // Root's output (size() copies of input's shape along dim 0, in rank order) gets every
  // rank's input; elsewhere output is ignored and may be undefined.
  WorkPtr igather(at::Tensor& output, const at::Tensor& input, int root);
  // Root's input holds size() blocks along dim 0; rank r's output gets block r. Elsewhere
  // input is ignored and may be undefined.
  WorkPtr iscatter(at::Tensor& output, const at::Tensor& input, int root);
  // A gather of different row counts (MPI's Gatherv): rank j's input holds splits[j] rows,
  // and root's output gets them all, concatenated along dim 0 in rank order. Every rank
  // passes the same splits; elsewhere output is ignored and may be undefined.
  WorkPtr igather_v(at::Tensor& output, const at::Tensor& input,
                    const std::vector<int64_t>& splits, int root);

  // Any call as one record: the operation's shared checks (collective_op.h), the tensors
  // that only the root's call carries dropped elsewhere, then the backend's start().
  WorkPtr issue(CommCall call);

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
  void reduce_scatter(at::Tensor& output, const at::Tensor& input, ReduceOp op = ReduceOp::kSum) {
    ireduce_scatter(output, input, op)->wait();
  }
  void all_to_all(at::Tensor& output, const at::Tensor& input) {
    iall_to_all(output, input)->wait();
  }
  void all_to_all_v(at::Tensor& output, const at::Tensor& input,
                    const std::vector<int64_t>& output_splits,
                    const std::vector<int64_t>& input_splits) {
    iall_to_all_v(output, input, output_splits, input_splits)->wait();
  }
  void reduce(at::Tensor& tensor, int root, ReduceOp op = ReduceOp::kSum) {
    ireduce(tensor, root, op)->wait();
  }
  void gather(at::Tensor& output, const at::Tensor& input, int root) {
    igather(output, input, root)->wait();
  }
  void scatter(at::Tensor& output, const at::Tensor& input, int root) {
    iscatter(output, input, root)->wait();
  }
  void gather_v(at::Tensor& output, const at::Tensor& input, const std::vector<int64_t>& splits,
                int root) {
    igather_v(output, input, splits, root)->wait();
  }

  // A sub-group of this communicator's ranks (c10d's new_group). Every rank of this
  // communicator calls split with the same list, in the same order of calls; members
  // get a communicator whose ranks are their positions in `ranks`, others get nullptr.
  virtual std::shared_ptr<Comm> split(const std::vector<int>& ranks) = 0;

 protected:
  // The backend's one entry: a call whose arguments its operation's description has
  // checked. Each backend dispatches it to its own implementation of the operation.
  virtual WorkPtr start(const CommCall& call) = 0;
};

// A size, for allocating the output of iall_gather.
inline at::Tensor empty_gather_output(const at::Tensor& input, int world) {
  auto sizes = input.sizes().vec();
  if (sizes.empty()) sizes.push_back(1);
  sizes[0] *= world;
  return at::empty(sizes, input.options());
}

}  // namespace uniference
