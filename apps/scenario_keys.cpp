#include "apps/scenario_keys.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "apps/scenario_keys/sections.h"

namespace uniference {

ScenarioKey::ScenarioKey(std::string pointer, std::string type, std::string doc, std::string schema)
    : pointer(std::move(pointer)),
      type(std::move(type)),
      doc(std::move(doc)),
      schema(std::move(schema)) {}

ScenarioKey& ScenarioKey::required() {
  is_required = true;
  return *this;
}

ScenarioKey& ScenarioKey::unit(Unit unit) {
  value_unit = unit;
  return *this;
}

ScenarioKey& ScenarioKey::defaults_to(std::string markdown) {
  default_text = std::move(markdown);
  return *this;
}

ScenarioKey& ScenarioKey::in_parent_row() {
  row = DocRow::kParents;
  return *this;
}

ScenarioKey& ScenarioKey::joins_previous_row() {
  row = DocRow::kPrevious;
  return *this;
}

namespace {

std::string parent_of(const std::string& pointer) { return pointer.substr(0, pointer.rfind('/')); }

bool declared(const std::vector<ScenarioKey>& keys, const std::string& pointer) {
  return pointer.empty() || std::any_of(keys.begin(), keys.end(), [&](const ScenarioKey& key) {
           return key.pointer == pointer;
         });
}

// The tables, and the keys added to them; checked once, so that a table with a key twice or
// a key before its parent fails every test rather than confusing the parser.
std::vector<ScenarioKey>& table() {
  static std::vector<ScenarioKey> keys = [] {
    std::vector<ScenarioKey> all;
    for (auto section : {top_level_keys, model_keys, parallel_keys, workload_keys, devices_keys,
                         compute_keys, network_keys, collectives_keys, faults_keys, jobs_keys,
                         outputs_keys}) {
      for (ScenarioKey& key : section()) {
        if (declared(all, key.pointer) || !declared(all, parent_of(key.pointer))) {
          throw std::logic_error("scenario key " + key.pointer +
                                 " is declared twice or before its parent");
        }
        all.push_back(std::move(key));
      }
    }
    return all;
  }();
  return keys;
}

size_t tables_size() {
  static const size_t size = table().size();
  return size;
}

}  // namespace

const std::vector<ScenarioKey>& scenario_keys() { return table(); }

std::vector<std::string> scenario_keys_under(const std::string& pointer) {
  std::vector<std::string> names;
  for (const ScenarioKey& key : table()) {
    if (parent_of(key.pointer) == pointer) names.push_back(key.pointer.substr(pointer.size() + 1));
  }
  return names;
}

void add_scenario_key(ScenarioKey key) {
  tables_size();  // before the first addition
  std::vector<ScenarioKey>& keys = table();
  if (declared(keys, key.pointer)) {
    throw std::logic_error("scenario key " + key.pointer + " is declared already");
  }
  if (!declared(keys, parent_of(key.pointer))) {
    throw std::logic_error("scenario key " + key.pointer + ": its parent is not declared");
  }
  keys.push_back(std::move(key));
}

void remove_added_scenario_key(const std::string& pointer) {
  std::vector<ScenarioKey>& keys = table();
  const auto added = keys.begin() + std::ptrdiff_t(tables_size());
  keys.erase(std::remove_if(added, keys.end(),
                            [&](const ScenarioKey& key) { return key.pointer == pointer; }),
             keys.end());
}

}  // namespace uniference
