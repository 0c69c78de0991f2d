// The groups of one simulated run: the world (group 0) and every split of it, by the
// world ranks of their members. Splits are collective in call order, as in c10d: the
// k-th split of a group is the same group for every member that makes it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace uniference {

class GroupTable {
 public:
  explicit GroupTable(int world_size);

  // The group id for the `split_index`-th split of `parent` with these world ranks;
  // throws std::invalid_argument when members disagree about the list.
  int split(int parent, uint64_t split_index, const std::vector<int>& members);

  // A group its members take for their whole world: a job's ranks among other jobs' (/jobs).
  // Made before the run, by no member's call.
  int add_world(const std::vector<int>& members) { return add(members); }

  const std::vector<int>& members(int group) const { return groups_.at(static_cast<size_t>(group)); }
  // "group 1 {0,2}", for errors and reports.
  const std::string& label(int group) const { return labels_.at(static_cast<size_t>(group)); }

 private:
  int add(const std::vector<int>& members);

  std::vector<std::vector<int>> groups_;
  std::vector<std::string> labels_;
  std::map<std::pair<int, uint64_t>, int> splits_;
};

}  // namespace uniference
