// Which groups a rank belongs to, built once from the world communicator and the parallel
// degrees (Megatron's parallel_state). Strategies ask it for their groups and their place in
// them instead of splitting the world themselves, so every strategy lays ranks out the same
// way.
//
// Rank layout, fastest-varying first: tp, sp, ep, pp, dp. World rank
//   w = dp_rank * M + ((pp_rank * ep + ep_rank) * sp + sp_rank) * tp + tp_rank,
// with M = tp * sp * ep * pp the model-parallel size. As in Megatron, a tensor-parallel group
// is consecutive ranks; unlike Megatron's default (pipeline outermost), a data-parallel
// replica is a block of M consecutive ranks, so a replica's ranks sit together (on one
// server, or one pool of a disaggregated deployment).
#pragma once

#include "compute/comm.h"

#include <memory>
#include <vector>

namespace uniference {

struct ParallelDegrees;

// The groups a strategy communicates on beside its replica (the model-parallel group, which
// every ParallelState has). Only these become communicators, because Comm::split is
// collective: a group nobody uses would still cost every rank a split, and on a real
// backend a process group of its own.
struct ParallelGroups {
  bool tensor = false;
  bool pipeline = false;
  bool sequence = false;
  bool expert = false;
  bool data = false;

  static ParallelGroups all() { return ParallelGroups{true, true, true, true, true}; }
};

class ParallelState {
 public:
  // Every rank of `world` must construct it with the same degrees and groups: the splits
  // are collective in their call order. They run here, once, in this order: the replicas
  // (when dp > 1), then each group asked for in the order of ParallelGroups' fields. A
  // tensor-parallel group is always a communicator of its own (its collectives run inside
  // every layer, apart from whatever the replica's driver sends on the replica); any other
  // group with the same ranks as the replica (or the world) is that communicator.
  // Throws std::invalid_argument, before any split, when a degree is below 1 or their
  // product is not the world's size.
  ParallelState(Comm& world, const ParallelDegrees& degrees, ParallelGroups groups = {});
  ParallelState(const ParallelState&) = delete;
  ParallelState& operator=(const ParallelState&) = delete;

  Comm& world() const { return world_; }

  // This rank's replica: the tp * sp * ep * pp ranks a strategy runs on (the world itself
  // when dp is 1). The pipeline ranks below are ranks of this group.
  Comm& model_parallel_group() const { return *model_parallel_; }
  int model_parallel_rank() const { return model_parallel_rank_; }
  int model_parallel_size() const { return tp_ * sp_ * ep_ * pp_; }

  Comm& tensor_parallel_group() const;
  int tensor_parallel_rank() const { return model_parallel_rank_ % tp_; }
  int tensor_parallel_size() const { return tp_; }

  Comm& pipeline_parallel_group() const;
  int pipeline_parallel_rank() const { return model_parallel_rank_ / (tp_ * sp_ * ep_); }
  int pipeline_parallel_size() const { return pp_; }
  bool is_pipeline_first_stage() const { return pipeline_parallel_rank() == 0; }
  bool is_pipeline_last_stage() const { return pipeline_parallel_rank() == pp_ - 1; }
  // The ranks (of the model-parallel group) that hold this rank's place in the next,
  // previous, first and last stage; next and previous wrap around, as Megatron's do.
  int pipeline_next_rank() const { return stage_rank((pipeline_parallel_rank() + 1) % pp_); }
  int pipeline_previous_rank() const {
    return stage_rank((pipeline_parallel_rank() + pp_ - 1) % pp_);
  }
  int pipeline_first_rank() const { return stage_rank(0); }
  int pipeline_last_rank() const { return stage_rank(pp_ - 1); }

  Comm& sequence_parallel_group() const;
  int sequence_parallel_rank() const { return (model_parallel_rank_ / tp_) % sp_; }
  int sequence_parallel_size() const { return sp_; }

  Comm& expert_parallel_group() const;
  int expert_parallel_rank() const { return (model_parallel_rank_ / (tp_ * sp_)) % ep_; }
  int expert_parallel_size() const { return ep_; }

  // The ranks holding this rank's place in every replica. Its rank is the replica's index.
  Comm& data_parallel_group() const;
  int data_parallel_rank() const { return world_.rank() / model_parallel_size(); }
  int data_parallel_size() const { return dp_; }

 private:
  int stage_rank(int stage) const {
    return model_parallel_rank_ + (stage - pipeline_parallel_rank()) * tp_ * sp_ * ep_;
  }

  Comm& world_;
  int tp_, sp_, ep_, pp_, dp_;
  int model_parallel_rank_;
  std::vector<std::shared_ptr<Comm>> splits_;  // the communicators this state made
  Comm* model_parallel_ = nullptr;
  // nullptr: not asked for; else a split of splits_, or the replica or the world itself.
  Comm* tensor_ = nullptr;
  Comm* pipeline_ = nullptr;
  Comm* sequence_ = nullptr;
  Comm* expert_ = nullptr;
  Comm* data_ = nullptr;
};

}  // namespace uniference
