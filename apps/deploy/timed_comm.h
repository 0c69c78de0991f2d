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

  std::shared_ptr<Comm> split(const std::vector<int>& ranks) override;

 protected:
  // Every operation alike: its size and whether this rank sends come from its description.
  WorkPtr start(const CommCall& call) override;

 private:
  std::shared_ptr<Comm> inner_;
  RankTimeline& timeline_;
  std::vector<int> world_ranks_;
};

}  // namespace uniference
