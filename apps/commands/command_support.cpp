#include "apps/commands/command_support.h"

#include "apps/commands/command.h"
#include "apps/scenario_error.h"

#include <algorithm>
#include <exception>
#include <iostream>

namespace uniference {

int usage_error(const std::string& message) {
  std::cerr << "uniference: " << message << "\n\n" << usage_text();
  return kExitUsage;
}

int reporting_errors(const std::function<int()>& body) {
  try {
    return body();
  } catch (const ScenarioError& e) {
    std::cerr << "uniference: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "uniference: error: " << e.what() << "\n";
    return 1;
  }
}

std::vector<std::string> comma_list(const std::string& text) {
  std::vector<std::string> items;
  for (size_t start = 0; start <= text.size();) {
    const size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) items.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

}  // namespace uniference
