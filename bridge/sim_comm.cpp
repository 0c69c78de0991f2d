#include "bridge/sim_comm.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace uniference {

namespace {
// Every Comm call ends the caller's compute segment (charging it and sleeping to the
// end of it) before it takes effect, and starts a new one when it returns.
class CallScope {
 public:
  explicit CallScope(Kernel& kernel) : kernel_(kernel) { kernel_.settle_compute(); }
  ~CallScope() {
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

namespace {
// Elements of each rank's block from its rows (dim 0): a CommCall's splits as the ns-3
// schedule counts them.
std::vector<uint64_t> split_elements(const std::vector<int64_t>& rows, const at::Tensor& tensor) {
  int64_t row = 1;
  for (int64_t d = 1; d < tensor.dim(); ++d) row *= tensor.size(d);
  std::vector<uint64_t> elements;
  for (int64_t r : rows) elements.push_back(static_cast<uint64_t>(r * row));
  return elements;
}
}  // namespace

// Every operation but send and recv is one ns-3 collective of the algorithm the scenario
// chose for it; the call's description gives its size, so there is nothing here per
// operation.
WorkPtr SimComm::start(const CommCall& call) {
  const int me = members_[static_cast<size_t>(index_)];
  if (call.op == OpType::kSend) {
    CallScope scope(backend_.kernel());
    return backend_.point_to_point().post_send(group_, me, world_rank(call.peer, "send"),
                                               call.tag, call.input);
  }
  if (call.op == OpType::kRecv) {
    CallScope scope(backend_.kernel());
    at::Tensor tensor = call.output;
    return backend_.point_to_point().post_recv(group_, me, world_rank(call.peer, "recv"),
                                               call.tag, tensor);
  }
  CollectiveArgs args{call.op};
  args.reduce = call.reduce;
  args.root = call.root;
  args.input = call.input;
  args.output = call.output;
  args.bytes = describe(call.op).bytes(call, size());
  // Rows count in the tensor they describe; a rooted call's output exists at its root only,
  // and elsewhere its rows are the input's.
  const at::Tensor& received = call.output.defined() ? call.output : call.input;
  if (!call.input_splits.empty()) args.send_counts = split_elements(call.input_splits, call.input);
  if (!call.output_splits.empty()) {
    args.recv_counts = split_elements(call.output_splits, received);
  }
  CallScope scope(backend_.kernel());
  return backend_.collectives().enter(group_, next_collective_++, index_, args);
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
