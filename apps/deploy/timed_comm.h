// A Comm that times every call of the Comm it wraps on a RankTimeline: the time the caller
// waits in it, and for asynchronous calls the flight from issue to completion, named by
// operation and sized as the simulator sizes them (nccl-tests' S), so a deployment's calls
// pair one to one with its simulation's.
#pragma once

#include "apps/deploy/rank_timeline.h"
#include "compute/comm.h"

#include <memory>

namespace uniference {

class TimedComm final : public Comm {
 public:
  // Times `world`, the world communicator, and every group split from it.
  TimedComm(std::shared_ptr<Comm> world, RankTimeline& timeline);
  // A group: `world_ranks[i]` is the world rank of its rank i (peers are named in world
  // ranks, as the simulator names them).
  TimedComm(std::shared_ptr<Comm> group, RankTimeline& timeline, std::vector<int> world_ranks);

  int rank() const override { return inner_->rank(); }
  int size() const override { return inner_->size(); }

  WorkPtr isend(const at::Tensor& tensor, int dst, int tag) override;
  WorkPtr irecv(at::Tensor& tensor, int src, int tag) override;
  WorkPtr ibroadcast(at::Tensor& tensor, int root) override;
  WorkPtr iall_reduce(at::Tensor& tensor, ReduceOp op) override;
  WorkPtr iall_gather(at::Tensor& output, const at::Tensor& input) override;
  WorkPtr ibarrier() override;
  WorkPtr ireduce_scatter(at::Tensor& output, const at::Tensor& input, ReduceOp op) override;
  WorkPtr iall_to_all(at::Tensor& output, const at::Tensor& input) override;
  WorkPtr iall_to_all_v(at::Tensor& output, const at::Tensor& input,
                        const std::vector<int64_t>& output_splits,
                        const std::vector<int64_t>& input_splits) override;
  WorkPtr ireduce(at::Tensor& tensor, int root, ReduceOp op) override;
  WorkPtr igather(at::Tensor& output, const at::Tensor& input, int root) override;
  WorkPtr iscatter(at::Tensor& output, const at::Tensor& input, int root) override;
  std::shared_ptr<Comm> split(const std::vector<int>& ranks) override;

 private:
  // Issues `call` as `op` with payload `bytes` (sent) to/from `peer` (a rank of this
  // communicator, or -1) and returns its timed handle.
  template <typename Call>
  WorkPtr timed(OpType op, uint64_t bytes, bool sends, int peer, Call call);

  std::shared_ptr<Comm> inner_;
  RankTimeline& timeline_;
  std::vector<int> world_ranks_;
};

}  // namespace uniference
