// Every key a scenario file may hold, declared once: where it is (a JSON pointer), the type
// and default the reference shows, one doc line, and its JSON Schema. The parser accepts
// exactly the keys declared here (scenario.cpp asks scenario_keys_under), and `uniference
// reference` generates scenarios/schema.json's properties and docs/scenarios.md's reference
// table from them (scenario_key_reference.h). A new key is one entry in its section's table
// (apps/scenario_keys/) and the code that reads it; nothing else is written by hand.
#pragma once

#include <string>
#include <vector>

namespace uniference {

// A value written as text with a unit, which units.h reads: its schema is a string of the
// unit's syntax.
enum class Unit { kNone, kDataRate, kDuration };

// Where a key is described in docs/scenarios.md's reference table.
enum class DocRow {
  kOwn,       // a row of its own
  kParents,   // in its parent's row (the parent's doc line names it); schema only
  kPrevious,  // in the row of the key before it, its pointer listed beside that key's
};

struct ScenarioKey {
  // pointer: "/network/link/rate". A segment "<n>" stands for every element of an array
  // (/devices/ranks/<n>/profile), any other "<name>" for every key the registries give
  // (/collectives/<op>/algorithm). type and doc are Markdown; doc is the schema's description
  // too, with its links reduced to their text. schema: the key's JSON Schema besides its
  // description and its children, as JSON text; an enum of registered names is left out, and
  // `uniference reference` fills it in from the registry.
  ScenarioKey(std::string pointer, std::string type, std::string doc, std::string schema = "{}");

  ScenarioKey& required();                         // the schema's "required"; *required* in docs
  ScenarioKey& unit(Unit unit);                    // a string in the unit's syntax
  ScenarioKey& defaults_to(std::string markdown);  // the reference's Default, when not derived
  ScenarioKey& in_parent_row();
  ScenarioKey& joins_previous_row();

  std::string pointer;
  std::string type;
  std::string doc;
  std::string schema;
  Unit value_unit = Unit::kNone;
  bool is_required = false;
  // Empty: "*required*" for a required key, else the schema's "default" as JSON, else "—".
  std::string default_text;
  DocRow row = DocRow::kOwn;
};

// Every section's keys (apps/scenario_keys/), then any added by add_scenario_key, in file
// order: a key after its parent.
const std::vector<ScenarioKey>& scenario_keys();

// The names of the keys directly under `pointer` ("" for the top level; "/devices/ranks/<n>"
// for an element of /devices/ranks), in table order.
std::vector<std::string> scenario_keys_under(const std::string& pointer);

// Declares one more key, after those of the tables: for a test to show that one declaration
// reaches the parser, the schema and the docs. Throws std::logic_error when the pointer is
// declared already or its parent is not.
void add_scenario_key(ScenarioKey key);

// Takes back a key add_scenario_key declared; nothing when there is none.
void remove_added_scenario_key(const std::string& pointer);

}  // namespace uniference
