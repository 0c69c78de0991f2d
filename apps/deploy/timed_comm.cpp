#include "apps/deploy/timed_comm.h"

#include "compute/compute_meter.h"

#include <numeric>

namespace uniference {

namespace {

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

// Sized as the simulator sizes them: nccl-tests' S, from the operation's description.
WorkPtr TimedComm::start(const CommCall& call) {
  const CollectiveDescription& op = describe(call.op);
  const uint64_t bytes = op.bytes(call, size());
  const int64_t issued = timeline_.call_begins();
  WorkPtr work = inner_->issue(call);
  const int world_peer = op.collective ? -1 : world_ranks_.at(size_t(call.peer));
  if (op.sends(call, rank())) timeline_.sent(op.name, timeline_.current_label(), bytes);
  return std::make_shared<TimedWork>(std::move(work), timeline_, call.op,
                                     timeline_.current_label(), issued, bytes, world_peer);
}

std::shared_ptr<Comm> TimedComm::split(const std::vector<int>& ranks) {
  std::shared_ptr<Comm> group = inner_->split(ranks);
  if (!group) return nullptr;
  std::vector<int> world;
  for (int r : ranks) world.push_back(world_ranks_.at(size_t(r)));
  return std::make_shared<TimedComm>(std::move(group), timeline_, std::move(world));
}

}  // namespace uniference
