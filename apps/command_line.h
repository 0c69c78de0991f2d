// Reading a command's arguments: flags that take a value, and the words between them. The
// only argument parser of apps/ (uniference and uniference-deploy).
#pragma once

#include <climits>
#include <stdexcept>
#include <string>
#include <vector>

namespace uniference {

// Thrown by for_each_argument when -h or --help stands where a flag may: the caller prints
// its usage and exits 0. Not a std::exception, so the handlers that turn a bad argument into
// a usage error (exit 2) let it pass.
struct HelpRequested {};

// `text` as the whole number given to `what` (a flag or a variable's name); throws
// std::invalid_argument naming both when it is not one, or when it is below `least`.
inline int int_argument(const std::string& what, const std::string& text, int least = INT_MIN) {
  size_t used = 0;
  int value = 0;
  try {
    value = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) {
    throw std::invalid_argument(what + " must be an integer, found '" + text + "'");
  }
  if (value < least) {
    throw std::invalid_argument(what + " must be " + std::to_string(least) + " or more, found " + text);
  }
  return value;
}

// Calls handle(arg, value) for every argument from args[first] on; value() takes the next
// argument as the value of `arg`, or throws std::invalid_argument("--x needs a value").
// -h and --help throw HelpRequested (as a value, "--set --help" is only a value).
template <typename Handle>
void for_each_argument(const std::vector<std::string>& args, size_t first, Handle handle) {
  for (size_t next = first; next < args.size();) {
    const std::string& arg = args[next++];
    if (arg == "-h" || arg == "--help") throw HelpRequested{};
    const auto value = [&]() -> const std::string& {
      if (next >= args.size()) throw std::invalid_argument(arg + " needs a value");
      return args[next++];
    };
    handle(arg, value);
  }
}

}  // namespace uniference
