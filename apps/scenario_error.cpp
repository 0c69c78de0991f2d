#include "apps/scenario_error.h"

namespace uniference {

ScenarioError::ScenarioError(std::string source, std::string pointer, std::string detail)
    : std::runtime_error(pointer.empty() ? source + ": " + detail
                                         : source + ": " + pointer + ": " + detail),
      source_(std::move(source)),
      pointer_(std::move(pointer)),
      detail_(std::move(detail)) {}

ScenarioError::ScenarioError(std::string source, size_t line, size_t column, std::string detail)
    : std::runtime_error(source + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                         detail),
      source_(std::move(source)),
      detail_(std::move(detail)),
      line_(line),
      column_(column) {}

}  // namespace uniference
