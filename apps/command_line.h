// Reading a command's arguments: flags that take a value, and the words between them.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace uniference {

// Calls handle(arg, value) for every argument from args[first] on; value() takes the next
// argument as the value of `arg`, or throws std::invalid_argument("--x needs a value").
template <typename Handle>
void for_each_argument(const std::vector<std::string>& args, size_t first, Handle handle) {
  for (size_t i = first; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw std::invalid_argument(arg + " needs a value");
      return args[++i];
    };
    handle(arg, value);
  }
}

}  // namespace uniference
