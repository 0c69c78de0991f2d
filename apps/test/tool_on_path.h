// Whether an optional tool is installed, for the tests of features that run it (gnuplot for
// plots): where it is missing they skip, saying so, rather than fail for the machine's sake.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <string>

namespace uniference {

// True when an executable `tool` is in one of PATH's folders, as the shell would find it.
inline bool tool_on_path(const std::string& tool) {
  const char* path = std::getenv("PATH");
  std::istringstream folders(path ? path : "");
  for (std::string folder; std::getline(folders, folder, ':');) {
    if (access(((folder.empty() ? "." : folder) + "/" + tool).c_str(), X_OK) == 0) return true;
  }
  return false;
}

}  // namespace uniference
