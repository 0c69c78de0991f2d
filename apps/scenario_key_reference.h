// What the scenario keys' table (scenario_keys.h) generates: the properties of
// scenarios/schema.json and the reference table of docs/scenarios.md. `uniference reference`
// (reference.h) writes them into the files, with the registries' names.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace uniference {

// The schema of the top level: {"required": [...], "properties": {...}}, every declared key
// with its description, constraints and children. `names` gives the keys a placeholder
// segment stands for ({"<op>": {"all_reduce", ...}}); a placeholder it lacks gets none.
nlohmann::ordered_json scenario_keys_schema(
    const std::map<std::string, std::vector<std::string>>& names);

// docs/scenarios.md's reference table: its header, then one row per key (or per keys that
// share a row), parents before children.
std::string scenario_keys_table();

// A doc line as a schema description: Markdown links reduced to their text, table escapes
// removed.
std::string plain_text(const std::string& markdown);

}  // namespace uniference
