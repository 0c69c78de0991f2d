// The generated parts of the reference: scenarios/schema.json's properties and
// docs/scenarios.md's key table (from the scenario keys' table, scenario_keys.h), and the
// lists of registered names (schema.json's enums, docs/scenarios.md's tables, --help). They
// cannot drift from what the program accepts;
// `uniference reference --check` fails when a committed file differs from what it would
// generate, and `--write` regenerates them.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace uniference {

// Every registry's names: {"strategies": [...], ..., "collectives": {"all_reduce": [...]}}.
nlohmann::json registered_names();

// The lists for --help, one line per registry.
std::string registered_names_help();

// Regenerates schema.json and scenarios.md under `root` (the source tree) in memory and
// compares them with the files; with `write`, replaces the files that differ. Returns the
// paths that differed (before writing), one per line; empty when all agree. Throws
// std::runtime_error when a file cannot be read or lacks a generated section's markers.
std::string update_reference(const std::string& root, bool write);

}  // namespace uniference
