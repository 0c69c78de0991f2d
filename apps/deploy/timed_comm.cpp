#include "apps/deploy/timed_comm.h"

#include "compute/compute_meter.h"

#include <numeric>

namespace uniference {

namespace {

uint64_t bytes_of(const at::Tensor& tensor) {
  return tensor.defined() ? uint64_t(tensor.numel()) * uint64_t(tensor.element_size()) : 0;
}

class TimedWork final : public Work {
 public:
  TimedWork(WorkPtr inner, RankTimeline& timeline, OpType op, std::string label, int64_t issued_ns,
            uint64_t bytes, int peer)
      : inner_(std::move(inner)),
        timeline_(timeline),
        op_(op),
        label_(std::move(label)),
        issued_ns_(issued_ns),
        bytes_(bytes),
        peer_(peer),
        events_at_issue_(timeline.events()),
        issue_returned_ns_(timeline.now_ns()) {}

  void wait() override {
    if (waited_) return;
    const bool overlapped = timeline_.events() != events_at_issue_;
    // Waited on at once (no other call, no label, nothing but bookkeeping since the issue
    // returned): the rank has been in this call since it issued it, as the simulator counts a
    // blocking call, so the library's work in issuing it (ProcessGroupGloo's enqueue, and its
    // worker, woken, taking this CPU) is communication, not compute.
    const bool at_once = !overlapped && timeline_.now_ns() - issue_returned_ns_ < kBookkeepingNs;
    const int64_t start = at_once ? issued_ns_ : timeline_.call_begins();
    inner_->wait();
    const int64_t end = timeline_.now_ns();
    timeline_.waited(op_name(op_), start, end, bytes_, peer_);
    // As the simulator: a flight only for a call the rank did other work beside.
    if (overlapped) timeline_.flew(op_name(op_), label_, issued_ns_, end, bytes_, peer_);
    waited_ = true;
  }

  bool is_completed() override { return waited_ || inner_->is_completed(); }

 private:
  WorkPtr inner_;
  RankTimeline& timeline_;
  OpType op_;
  std::string label_;
  int64_t issued_ns_;
  uint64_t bytes_;
  int peer_;
  uint64_t events_at_issue_;
  int64_t issue_returned_ns_;
  bool waited_ = false;
};

}  // namespace

TimedComm::TimedComm(std::shared_ptr<Comm> world, RankTimeline& timeline)
    : inner_(std::move(world)), timeline_(timeline), world_ranks_(size_t(inner_->size())) {
  std::iota(world_ranks_.begin(), world_ranks_.end(), 0);
}

TimedComm::TimedComm(std::shared_ptr<Comm> group, RankTimeline& timeline, std::vector<int> world_ranks)
    : inner_(std::move(group)), timeline_(timeline), world_ranks_(std::move(world_ranks)) {}

template <typename Call>
WorkPtr TimedComm::timed(OpType op, uint64_t bytes, bool sends, int peer, Call call) {
  const int64_t issued = timeline_.call_begins();
  WorkPtr work = call();
  const int world_peer = peer < 0 ? -1 : world_ranks_.at(size_t(peer));
  if (sends) timeline_.sent(op_name(op), timeline_.current_label(), bytes);
  return std::make_shared<TimedWork>(std::move(work), timeline_, op, timeline_.current_label(),
                                     issued, bytes, world_peer);
}

// Sizes as bridge/collective_ops.cpp gives them to the simulator: nccl-tests' S.
WorkPtr TimedComm::isend(const at::Tensor& tensor, int dst, int tag) {
  return timed(OpType::kSend, bytes_of(tensor), true, dst,
               [&] { return inner_->isend(tensor, dst, tag); });
}

WorkPtr TimedComm::irecv(at::Tensor& tensor, int src, int tag) {
  return timed(OpType::kRecv, bytes_of(tensor), false, src,
               [&] { return inner_->irecv(tensor, src, tag); });
}

WorkPtr TimedComm::ibroadcast(at::Tensor& tensor, int root) {
  return timed(OpType::kBroadcast, bytes_of(tensor), rank() == root, -1,
               [&] { return inner_->ibroadcast(tensor, root); });
}

WorkPtr TimedComm::iall_reduce(at::Tensor& tensor, ReduceOp op) {
  return timed(OpType::kAllReduce, bytes_of(tensor), true, -1,
               [&] { return inner_->iall_reduce(tensor, op); });
}

WorkPtr TimedComm::iall_gather(at::Tensor& output, const at::Tensor& input) {
  return timed(OpType::kAllGather, bytes_of(input) * uint64_t(size()), true, -1,
               [&] { return inner_->iall_gather(output, input); });
}

WorkPtr TimedComm::ibarrier() {
  return timed(OpType::kBarrier, 0, false, -1, [&] { return inner_->ibarrier(); });
}

WorkPtr TimedComm::ireduce_scatter(at::Tensor& output, const at::Tensor& input, ReduceOp op) {
  return timed(OpType::kReduceScatter, bytes_of(input), true, -1,
               [&] { return inner_->ireduce_scatter(output, input, op); });
}

WorkPtr TimedComm::iall_to_all(at::Tensor& output, const at::Tensor& input) {
  return timed(OpType::kAllToAll, bytes_of(input), true, -1,
               [&] { return inner_->iall_to_all(output, input); });
}

WorkPtr TimedComm::iall_to_all_v(at::Tensor& output, const at::Tensor& input,
                                 const std::vector<int64_t>& output_splits,
                                 const std::vector<int64_t>& input_splits) {
  return timed(OpType::kAllToAll, bytes_of(input), true, -1, [&] {
    return inner_->iall_to_all_v(output, input, output_splits, input_splits);
  });
}

WorkPtr TimedComm::ireduce(at::Tensor& tensor, int root, ReduceOp op) {
  return timed(OpType::kReduce, bytes_of(tensor), true, -1,
               [&] { return inner_->ireduce(tensor, root, op); });
}

WorkPtr TimedComm::igather(at::Tensor& output, const at::Tensor& input, int root) {
  return timed(OpType::kGather, bytes_of(input) * uint64_t(size()), true, -1,
               [&] { return inner_->igather(output, input, root); });
}

WorkPtr TimedComm::iscatter(at::Tensor& output, const at::Tensor& input, int root) {
  return timed(OpType::kScatter, bytes_of(output) * uint64_t(size()), rank() == root, -1,
               [&] { return inner_->iscatter(output, input, root); });
}

std::shared_ptr<Comm> TimedComm::split(const std::vector<int>& ranks) {
  std::shared_ptr<Comm> group = inner_->split(ranks);
  if (!group) return nullptr;
  std::vector<int> world;
  for (int r : ranks) world.push_back(world_ranks_.at(size_t(r)));
  return std::make_shared<TimedComm>(std::move(group), timeline_, std::move(world));
}

}  // namespace uniference
