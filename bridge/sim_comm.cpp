#include "bridge/sim_comm.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace uniference {

namespace {
// Every Comm call ends the caller's compute segment (charging it and sleeping to the
// end of it) before it takes effect, and starts a new one when it returns.
class CommCall {
 public:
  explicit CommCall(Kernel& kernel) : kernel_(kernel) { kernel_.settle_compute(); }
  ~CommCall() {
    if (std::uncaught_exceptions() == 0) kernel_.resume_compute();
  }

 private:
  Kernel& kernel_;
};
}  // namespace

SimComm::SimComm(SimBackend& backend, int group, int index)
    : backend_(backend), group_(group), index_(index), members_(backend.groups().members(group)) {}

int SimComm::world_rank(int group_rank, const char* operation) const {
  if (group_rank < 0 || group_rank >= size()) {
    throw std::out_of_range(std::string(operation) + " on rank " + std::to_string(index_) +
                            ": peer " + std::to_string(group_rank) +
                            " is outside a group of size " + std::to_string(size()));
  }
  return members_[static_cast<size_t>(group_rank)];
}

WorkPtr SimComm::isend(const at::Tensor& tensor, int dst, int tag) {
  CommCall call(backend_.kernel());
  return backend_.point_to_point().post_send(group_, members_[static_cast<size_t>(index_)], world_rank(dst, "send"),
                          tag, tensor);
}

WorkPtr SimComm::irecv(at::Tensor& tensor, int src, int tag) {
  CommCall call(backend_.kernel());
  return backend_.point_to_point().post_recv(group_, members_[static_cast<size_t>(index_)], world_rank(src, "recv"),
                          tag, tensor);
}

WorkPtr SimComm::collective(const CollectiveArgs& args) {
  CommCall call(backend_.kernel());
  return backend_.collectives().enter(group_, next_collective_++, index_, args);
}

WorkPtr SimComm::ibroadcast(at::Tensor& tensor, int root) {
  world_rank(root, "broadcast");
  CollectiveArgs args{OpType::kBroadcast};
  args.root = root;
  args.output = tensor;
  return collective(args);
}

WorkPtr SimComm::iall_reduce(at::Tensor& tensor, ReduceOp op) {
  CollectiveArgs args{OpType::kAllReduce};
  args.reduce = op;
  args.output = tensor;
  return collective(args);
}

WorkPtr SimComm::iall_gather(at::Tensor& output, const at::Tensor& input) {
  check_stacked("all_gather", "output", output, input);
  CollectiveArgs args{OpType::kAllGather};
  args.input = input;
  args.output = output;
  return collective(args);
}

WorkPtr SimComm::ibarrier() {
  return collective(CollectiveArgs{OpType::kBarrier});
}

void SimComm::check_numel(const char* operation, const char* what, const at::Tensor& tensor,
                          int64_t expected) const {
  const int64_t has = tensor.defined() ? tensor.numel() : 0;
  if (has != expected) {
    throw std::invalid_argument(std::string(operation) + " on rank " + std::to_string(index_) +
                                ": " + what + " has " + std::to_string(has) +
                                " elements, expected " + std::to_string(expected));
  }
}

void SimComm::check_stacked(const char* operation, const char* what, const at::Tensor& whole,
                            const at::Tensor& block) const {
  // c10d's *_into_tensor contract, which the real backends enforce: size() blocks of the
  // block's shape, concatenated along dim 0.
  std::vector<int64_t> expected = block.sizes().vec();
  if (expected.empty()) expected.push_back(1);
  expected[0] *= size();
  const std::vector<int64_t> has = whole.defined() ? whole.sizes().vec() : std::vector<int64_t>{};
  if (has != expected) {
    throw std::invalid_argument(std::string(operation) + " on rank " + std::to_string(index_) +
                                ": " + what + " has shape " + c10::str(at::IntArrayRef(has)) +
                                ", expected " + c10::str(at::IntArrayRef(expected)) + " (" +
                                std::to_string(size()) + " blocks of " + c10::str(block.sizes()) +
                                " along dim 0)");
  }
}

WorkPtr SimComm::ireduce_scatter(at::Tensor& output, const at::Tensor& input, ReduceOp op) {
  check_stacked("reduce_scatter", "input", input, output);
  CollectiveArgs args{OpType::kReduceScatter};
  args.reduce = op;
  args.input = input;
  args.output = output;
  return collective(args);
}

WorkPtr SimComm::iall_to_all(at::Tensor& output, const at::Tensor& input) {
  check_numel("all_to_all", "output", output, input.numel());
  if (input.numel() % size() != 0) {
    throw std::invalid_argument("all_to_all on rank " + std::to_string(index_) + ": " +
                                std::to_string(input.numel()) +
                                " elements do not split into " + std::to_string(size()) +
                                " equal blocks");
  }
  CollectiveArgs args{OpType::kAllToAll};
  args.input = input;
  args.output = output;
  return collective(args);
}

WorkPtr SimComm::iall_to_all_v(at::Tensor& output, const at::Tensor& input,
                               const std::vector<int64_t>& output_splits,
                               const std::vector<int64_t>& input_splits) {
  auto counts = [&](const at::Tensor& t, const std::vector<int64_t>& rows, const char* what) {
    if (rows.size() != static_cast<size_t>(size())) {
      throw std::invalid_argument("all_to_all_v on rank " + std::to_string(index_) + ": " +
                                  what + " splits has " + std::to_string(rows.size()) +
                                  " entries for a group of " + std::to_string(size()));
    }
    const int64_t row = t.dim() == 0 || t.size(0) == 0 ? 0 : t.numel() / t.size(0);
    std::vector<uint64_t> elements;
    int64_t total = 0;
    for (int64_t r : rows) {
      if (r < 0) {
        throw std::invalid_argument("all_to_all_v on rank " + std::to_string(index_) +
                                    ": negative split " + std::to_string(r));
      }
      elements.push_back(static_cast<uint64_t>(r * row));
      total += r;
    }
    check_numel("all_to_all_v", what, t, total * row);
    return elements;
  };
  CollectiveArgs args{OpType::kAllToAll};
  args.input = input;
  args.output = output;
  args.send_counts = counts(input, input_splits, "input");
  args.recv_counts = counts(output, output_splits, "output");
  return collective(args);
}

WorkPtr SimComm::ireduce(at::Tensor& tensor, int root, ReduceOp op) {
  world_rank(root, "reduce");
  CollectiveArgs args{OpType::kReduce};
  args.reduce = op;
  args.root = root;
  args.output = tensor;
  return collective(args);
}

WorkPtr SimComm::igather(at::Tensor& output, const at::Tensor& input, int root) {
  world_rank(root, "gather");
  CollectiveArgs args{OpType::kGather};
  args.root = root;
  args.input = input;
  if (index_ == root) {
    check_numel("gather", "output", output, input.numel() * size());
    args.output = output;
  }
  return collective(args);
}

WorkPtr SimComm::iscatter(at::Tensor& output, const at::Tensor& input, int root) {
  world_rank(root, "scatter");
  CollectiveArgs args{OpType::kScatter};
  args.root = root;
  args.output = output;
  if (index_ == root) {
    check_numel("scatter", "input", input, output.numel() * size());
    args.input = input;
  }
  return collective(args);
}

std::shared_ptr<Comm> SimComm::split(const std::vector<int>& ranks) {
  std::vector<int> members;
  for (int r : ranks) members.push_back(world_rank(r, "split"));
  std::vector<int> sorted = members;
  std::sort(sorted.begin(), sorted.end());
  if (members.empty() || std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    throw std::invalid_argument("split on rank " + std::to_string(index_) +
                                ": the rank list must be non-empty and without repeats");
  }
  int group = backend_.groups().split(group_, next_split_++, members);
  auto me = std::find(members.begin(), members.end(), members_[static_cast<size_t>(index_)]);
  if (me == members.end()) return nullptr;
  return std::make_shared<SimComm>(backend_, group, static_cast<int>(me - members.begin()));
}

}  // namespace uniference
