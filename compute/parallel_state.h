// Which groups a rank belongs to, built once from the world communicator with
// Comm::split (Megatron's parallel_state). Strategies ask it for their groups instead of
// splitting the world themselves, so every strategy lays ranks out the same way.
#pragma once

#include "compute/comm.h"

#include <memory>

namespace uniference {

class ParallelState {
 public:
  // Tensor-parallel groups of `tp` consecutive world ranks ({0..tp-1}, {tp..2tp-1}, ...).
  // Every rank of `world` must construct it with the same degree (split is collective in
  // its call order). Throws std::invalid_argument unless tp divides the world size.
  ParallelState(Comm& world, int tp);

  Comm& world() const { return world_; }
  Comm& tensor_parallel_group() const { return *tp_group_; }
  int tensor_parallel_rank() const { return tp_group_->rank(); }
  int tensor_parallel_size() const { return tp_group_->size(); }

 private:
  Comm& world_;
  std::shared_ptr<Comm> tp_group_;
};

}  // namespace uniference
