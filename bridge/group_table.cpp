#include "bridge/group_table.h"

#include <sstream>
#include <stdexcept>

namespace uniference {

GroupTable::GroupTable(int world_size) {
  std::vector<int> world(static_cast<size_t>(world_size));
  for (int r = 0; r < world_size; ++r) world[static_cast<size_t>(r)] = r;
  add(world);
}

int GroupTable::add(const std::vector<int>& members) {
  int group = static_cast<int>(groups_.size());
  std::ostringstream label;
  label << "group " << group << " {";
  for (size_t i = 0; i < members.size(); ++i) label << (i ? "," : "") << members[i];
  label << "}";
  groups_.push_back(members);
  labels_.push_back(label.str());
  return group;
}

int GroupTable::split(int parent, uint64_t split_index, const std::vector<int>& members) {
  auto key = std::make_pair(parent, split_index);
  auto it = splits_.find(key);
  if (it == splits_.end()) {
    it = splits_.emplace(key, add(members)).first;
  } else if (groups_[static_cast<size_t>(it->second)] != members) {
    throw std::invalid_argument("split #" + std::to_string(split_index) + " of " + label(parent) +
                                " was called with different ranks by different members; every " +
                                "member must pass the same list");
  }
  return it->second;
}

}  // namespace uniference
