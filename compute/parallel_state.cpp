#include "compute/parallel_state.h"

#include "compute/strategy.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace uniference {

namespace {

// The groups that cut `parent_size` ranks along one dimension of the layout: ranks that
// differ only in (rank / stride) % size, listed by their first rank. Every rank of the parent
// splits every one of them, in this order (c10d's new_group).
std::vector<std::vector<int>> groups_along(int parent_size, int stride, int size) {
  std::vector<std::vector<int>> groups;
  for (int first = 0; first < parent_size; ++first) {
    if ((first / stride) % size != 0) continue;
    std::vector<int> members;
    for (int k = 0; k < size; ++k) members.push_back(first + k * stride);
    groups.push_back(std::move(members));
  }
  return groups;
}

std::string degrees_text(const ParallelDegrees& d) {
  return "tp " + std::to_string(d.tp) + " x sp " + std::to_string(d.sp) + " x ep " +
         std::to_string(d.ep) + " x pp " + std::to_string(d.pp) + " x dp " + std::to_string(d.dp);
}

Comm& built(Comm* group, const char* name, const char* field) {
  if (group == nullptr) {
    throw std::logic_error(std::string("ParallelState has no ") + name +
                           " group: it was not asked for (ParallelGroups::" + field +
                           "), so no rank made it");
  }
  return *group;
}

}  // namespace

ParallelState::ParallelState(Comm& world, const ParallelDegrees& degrees, ParallelGroups groups)
    : world_(world),
      tp_(degrees.tp),
      sp_(degrees.sp),
      ep_(degrees.ep),
      pp_(degrees.pp),
      dp_(degrees.dp),
      model_parallel_rank_(0) {
  if (tp_ < 1 || sp_ < 1 || ep_ < 1 || pp_ < 1 || dp_ < 1) {
    throw std::invalid_argument("parallel degrees " + degrees_text(degrees) +
                                ": every degree must be at least 1");
  }
  if (int64_t(model_parallel_size()) * dp_ != world.size()) {
    throw std::invalid_argument("parallel degrees " + degrees_text(degrees) + " make " +
                                std::to_string(int64_t(model_parallel_size()) * dp_) +
                                " ranks, but the world has " + std::to_string(world.size()));
  }
  const int replica = model_parallel_size();
  model_parallel_rank_ = world.rank() % replica;

  // Splits `parent` into its groups along one dimension and keeps this rank's. A group with
  // every rank of the parent is the parent itself unless it must be a communicator of its own.
  const auto split_along = [&](Comm& parent, int stride, int size, bool own) -> Comm* {
    if (!own && size == parent.size()) return &parent;
    std::shared_ptr<Comm> mine;
    for (const std::vector<int>& members : groups_along(parent.size(), stride, size)) {
      if (std::shared_ptr<Comm> group = parent.split(members)) mine = std::move(group);
    }
    if (!mine) throw std::logic_error("ParallelState: a rank is in none of its parent's groups");
    splits_.push_back(mine);
    return mine.get();
  };
  model_parallel_ = split_along(world, 1, replica, /*own=*/false);
  Comm& model_parallel = *model_parallel_;
  if (groups.tensor) tensor_ = split_along(model_parallel, 1, tp_, /*own=*/true);
  if (groups.pipeline) pipeline_ = split_along(model_parallel, tp_ * sp_ * ep_, pp_, false);
  if (groups.sequence) sequence_ = split_along(model_parallel, tp_, sp_, false);
  if (groups.expert) expert_ = split_along(model_parallel, tp_ * sp_, ep_, false);
  if (groups.data) data_ = split_along(world, replica, dp_, false);
}

Comm& ParallelState::tensor_parallel_group() const {
  return built(tensor_, "tensor-parallel", "tensor");
}

Comm& ParallelState::pipeline_parallel_group() const {
  return built(pipeline_, "pipeline-parallel", "pipeline");
}

Comm& ParallelState::sequence_parallel_group() const {
  return built(sequence_, "sequence-parallel", "sequence");
}

Comm& ParallelState::expert_parallel_group() const {
  return built(expert_, "expert-parallel", "expert");
}

Comm& ParallelState::data_parallel_group() const { return built(data_, "data-parallel", "data"); }

}  // namespace uniference
