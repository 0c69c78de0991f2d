// Looking a scenario's name up in its registry, with the error a user needs when it is not
// there: where, what the known names are, and the likely one meant.
#pragma once

#include "apps/json_checker.h"
#include "apps/scenario_error.h"
#include "compute/registry.h"

#include <string>

namespace uniference {

// The registered entry called `name`, or a ScenarioError at `pointer` listing the names.
template <typename Entry>
const Entry& registered(const NamedRegistry<Entry>& registry, const std::string& name,
                        const std::string& source, const std::string& pointer) {
  if (const Entry* entry = registry.find(name)) return *entry;
  std::string detail = "expected a " + registry.kind() + ": one of " + quoted_list(registry.names()) +
                       ", found \"" + name + "\"";
  std::string suggestion = closest(name, registry.names());
  if (!suggestion.empty()) detail += " (did you mean \"" + suggestion + "\"?)";
  throw ScenarioError(source, pointer, detail);
}

}  // namespace uniference
