#include "compute/comm.h"

#include <utility>

namespace uniference {

WorkPtr Comm::issue(CommCall call) {
  const CollectiveDescription& op = describe(call.op);
  op.check(call, rank(), size());
  if (rank() != call.root) {
    if (op.output_at_root_only) call.output = at::Tensor();
    if (op.input_at_root_only) call.input = at::Tensor();
  }
  return start(call);
}

WorkPtr Comm::isend(const at::Tensor& tensor, int dst, int tag) {
  CommCall call{OpType::kSend};
  call.input = tensor;
  call.peer = dst;
  call.tag = tag;
  return issue(std::move(call));
}

WorkPtr Comm::irecv(at::Tensor& tensor, int src, int tag) {
  CommCall call{OpType::kRecv};
  call.output = tensor;
  call.peer = src;
  call.tag = tag;
  return issue(std::move(call));
}

WorkPtr Comm::ibroadcast(at::Tensor& tensor, int root) {
  CommCall call{OpType::kBroadcast};
  call.output = tensor;
  call.root = root;
  return issue(std::move(call));
}

WorkPtr Comm::iall_reduce(at::Tensor& tensor, ReduceOp op) {
  CommCall call{OpType::kAllReduce};
  call.output = tensor;
  call.reduce = op;
  return issue(std::move(call));
}

WorkPtr Comm::iall_gather(at::Tensor& output, const at::Tensor& input) {
  CommCall call{OpType::kAllGather};
  call.input = input;
  call.output = output;
  return issue(std::move(call));
}

WorkPtr Comm::ibarrier() { return issue(CommCall{OpType::kBarrier}); }

WorkPtr Comm::ireduce_scatter(at::Tensor& output, const at::Tensor& input, ReduceOp op) {
  CommCall call{OpType::kReduceScatter};
  call.input = input;
  call.output = output;
  call.reduce = op;
  return issue(std::move(call));
}

WorkPtr Comm::iall_to_all(at::Tensor& output, const at::Tensor& input) {
  CommCall call{OpType::kAllToAll};
  call.input = input;
  call.output = output;
  return issue(std::move(call));
}

WorkPtr Comm::iall_to_all_v(at::Tensor& output, const at::Tensor& input,
                            const std::vector<int64_t>& output_splits,
                            const std::vector<int64_t>& input_splits) {
  CommCall call{OpType::kAllToAll};
  call.input = input;
  call.output = output;
  call.input_splits = input_splits;
  call.output_splits = output_splits;
  return issue(std::move(call));
}

WorkPtr Comm::ireduce(at::Tensor& tensor, int root, ReduceOp op) {
  CommCall call{OpType::kReduce};
  call.output = tensor;
  call.root = root;
  call.reduce = op;
  return issue(std::move(call));
}

WorkPtr Comm::igather(at::Tensor& output, const at::Tensor& input, int root) {
  CommCall call{OpType::kGather};
  call.input = input;
  call.output = output;
  call.root = root;
  return issue(std::move(call));
}

WorkPtr Comm::iscatter(at::Tensor& output, const at::Tensor& input, int root) {
  CommCall call{OpType::kScatter};
  call.input = input;
  call.output = output;
  call.root = root;
  return issue(std::move(call));
}

WorkPtr Comm::igather_v(at::Tensor& output, const at::Tensor& input,
                        const std::vector<int64_t>& splits, int root) {
  CommCall call{OpType::kGatherV};
  call.input = input;
  call.output = output;
  call.root = root;
  call.input_splits = splits;
  call.output_splits = splits;
  return issue(std::move(call));
}

}  // namespace uniference
