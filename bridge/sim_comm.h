// Comm over ns-3: the backend that turns shard code's communication into packet
// flows of the exact byte sizes, and charges the compute between calls as simulated
// time. Shard code cannot tell it from a real backend.
#pragma once

#include "bridge/collective_ops.h"
#include "bridge/sim_backend.h"
#include "compute/comm.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace uniference {

class SimComm : public Comm {
 public:
  // The member at `index` of `group` (group 0 is the world).
  SimComm(SimBackend& backend, int group, int index);

  int rank() const override { return index_; }
  int size() const override { return static_cast<int>(members_.size()); }

  std::shared_ptr<Comm> split(const std::vector<int>& ranks) override;

 protected:
  WorkPtr start(const CommCall& call) override;

 private:
  int world_rank(int group_rank, const char* operation) const;

  SimBackend& backend_;
  int group_;
  int index_;
  std::vector<int> members_;
  uint64_t next_collective_ = 0;
  uint64_t next_split_ = 0;
};

}  // namespace uniference
