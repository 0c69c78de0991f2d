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
  if (index_ == root) args.input = tensor;
  args.output = tensor;
  return collective(args);
}

WorkPtr SimComm::iall_reduce(at::Tensor& tensor, ReduceOp op) {
  CollectiveArgs args{OpType::kAllReduce};
  args.reduce = op;
  args.input = tensor;
  args.output = tensor;
  return collective(args);
}

WorkPtr SimComm::iall_gather(at::Tensor& output, const at::Tensor& input) {
  if (output.numel() != input.numel() * size()) {
    throw std::invalid_argument("all_gather on rank " + std::to_string(index_) + ": output has " +
                                std::to_string(output.numel()) + " elements, expected " +
                                std::to_string(input.numel() * size()));
  }
  CollectiveArgs args{OpType::kAllGather};
  args.input = input.reshape({1, input.numel()});
  args.output = output;
  return collective(args);
}

WorkPtr SimComm::ibarrier() {
  return collective(CollectiveArgs{OpType::kBarrier});
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
