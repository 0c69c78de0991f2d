// Output files that are either complete or absent. A run that fails or is killed half way
// must not leave a truncated results.json that a sweep script then reads as data
// (docs/design.md section 6: nothing half-written is left behind).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace uniference {

// An output that could not be written. what() names the path and the system's reason.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Writes `contents` to a new temporary file next to `path` and renames it over `path`, so a
// reader sees the old file or the whole new one, never a part. On failure the temporary is
// removed, `path` is left as it was, and OutputError is thrown.
//
// No fsync: the guarantee is against our own failures and kills, not against power loss,
// which simulation outputs can be rerun for.
void write_file_atomically(const std::string& path, std::string_view contents);

}  // namespace uniference
