#include "compute/parallel_state.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace uniference {

ParallelState::ParallelState(Comm& world, int tp) : world_(world) {
  const int n = world.size();
  if (tp < 1 || n % tp != 0) {
    throw std::invalid_argument("tensor-parallel degree " + std::to_string(tp) +
                                " does not divide the world of " + std::to_string(n) + " ranks");
  }
  // Every rank takes part in every split, in the same order; it keeps its own group.
  for (int first = 0; first < n; first += tp) {
    std::vector<int> members;
    for (int r = first; r < first + tp; ++r) members.push_back(r);
    std::shared_ptr<Comm> group = world.split(members);
    if (group) tp_group_ = std::move(group);
  }
}

}  // namespace uniference
