// A rank's node is named "rankN" (SimCluster names it so); scenarios name ranks that way in
// their faults' targets and their partition. One place for that name, written and read, with
// no ns-3 and no libtorch, so that the scenario reader can use it too.
#pragma once

#include <string>

namespace uniference {

inline std::string rank_name(int rank) { return "rank" + std::to_string(rank); }

// N of "rankN" (no leading zero), or -1 for another name.
inline int rank_named(const std::string& name) {
  if (name.size() < 5 || name.size() > 12 || name.compare(0, 4, "rank") != 0) return -1;
  for (size_t i = 4; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return -1;
  }
  if (name.size() > 5 && name[4] == '0') return -1;
  return std::stoi(name.substr(4));
}

}  // namespace uniference
