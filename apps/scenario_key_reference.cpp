#include "apps/scenario_key_reference.h"

#include <stdexcept>

#include "apps/scenario_keys.h"

namespace uniference {

namespace {

using ordered = nlohmann::ordered_json;

// The syntax units.h reads, for editors: it cannot say everything the parser checks (positive,
// whole bit/s or ns), which the parser reports with the key's pointer.
const char* const kDataRatePattern =
    "^[0-9]+(\\.[0-9]+)?(bps|b/s|Bps|B/s|[kKMGT](bps|b/s|Bps|B/s)|(Ki|Mi|Gi|Ti)(b/s|B/s))?$";
const char* const kDurationPattern = "^[0-9]+(\\.[0-9]+)?(ns|us|ms|s)$";

bool is_placeholder(const std::string& segment) {
  return segment.size() > 2 && segment.front() == '<' && segment.back() == '>';
}

std::string last_segment(const std::string& pointer) {
  return pointer.substr(pointer.rfind('/') + 1);
}

std::vector<const ScenarioKey*> children_of(const std::string& pointer) {
  std::vector<const ScenarioKey*> children;
  for (const ScenarioKey& key : scenario_keys()) {
    if (key.pointer.substr(0, key.pointer.rfind('/')) == pointer) children.push_back(&key);
  }
  return children;
}

ordered parse_schema(const ScenarioKey& key) {
  try {
    return ordered::parse(key.schema);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::logic_error("scenario key " + key.pointer + ": its schema is not JSON: " + e.what());
  }
}

// The children of the key at `pointer`, as "required" and "properties" (or "items" for an
// array's elements), added to `target` after its "additionalProperties" when it has one, so
// the generated file reads type, then children, then combinations (anyOf).
void add_children(const std::string& pointer, ordered& target,
                  const std::map<std::string, std::vector<std::string>>& names);

ordered key_schema(const ScenarioKey& key,
                   const std::map<std::string, std::vector<std::string>>& names) {
  ordered node = ordered::object();
  if (!key.doc.empty()) node["description"] = plain_text(key.doc);
  if (key.value_unit != Unit::kNone) {
    node["type"] = "string";
    node["pattern"] = key.value_unit == Unit::kDataRate ? kDataRatePattern : kDurationPattern;
  }
  const ordered constraints = parse_schema(key);
  for (const auto& item : constraints.items()) node[item.key()] = item.value();
  // A key that is an object or `false` (/network/wan/fade) keeps its keys in the object.
  ordered* target = &node;
  if (node.contains("oneOf")) {
    for (ordered& member : node["oneOf"]) {
      if (member.value("type", "") == "object") target = &member;
    }
  }
  add_children(key.pointer, *target, names);
  return node;
}

void add_children(const std::string& pointer, ordered& target,
                  const std::map<std::string, std::vector<std::string>>& names) {
  const std::vector<const ScenarioKey*> children = children_of(pointer);
  if (children.empty()) return;
  ordered required = ordered::array();
  ordered properties = ordered::object();
  ordered items;
  for (const ScenarioKey* child : children) {
    const std::string name = last_segment(child->pointer);
    if (name == "<n>") {
      items = key_schema(*child, names);
      continue;
    }
    std::vector<std::string> expanded = {name};
    if (is_placeholder(name)) {
      const auto it = names.find(name);
      expanded = it == names.end() ? std::vector<std::string>{} : it->second;
    }
    for (const std::string& each : expanded) {
      properties[each] = key_schema(*child, names);
      if (child->is_required) required.push_back(each);
    }
  }
  // Rebuilt in order: what comes before the children, the children, what comes after.
  ordered rebuilt = ordered::object();
  bool placed = false;
  const auto place = [&] {
    if (!required.empty()) rebuilt["required"] = required;
    if (!properties.empty()) rebuilt["properties"] = properties;
    if (!items.is_null()) rebuilt["items"] = items;
    placed = true;
  };
  for (auto& item : target.items()) {
    rebuilt[item.key()] = item.value();
    if (item.key() == "additionalProperties" && !placed) place();
  }
  if (!placed) place();
  target = std::move(rebuilt);
}

std::string default_cell(const ScenarioKey& key) {
  if (!key.default_text.empty()) return key.default_text;
  if (key.is_required) return "*required*";
  const ordered schema = parse_schema(key);
  if (schema.contains("default")) return "`" + schema["default"].dump() + "`";
  return "—";
}

void add_rows(const std::string& pointer, std::string& out) {
  const std::vector<const ScenarioKey*> children = children_of(pointer);
  for (size_t i = 0; i < children.size(); ++i) {
    const ScenarioKey& key = *children[i];
    if (key.row == DocRow::kOwn) {
      std::string cell = "`" + key.pointer + "`";
      for (size_t j = i + 1; j < children.size() && children[j]->row == DocRow::kPrevious; ++j) {
        cell += ", `" + children[j]->pointer + "`";
      }
      out += "| " + cell + " | " + key.type + " | " + default_cell(key) + " | " + key.doc + " |\n";
    }
    add_rows(key.pointer, out);
  }
}

}  // namespace

ordered scenario_keys_schema(const std::map<std::string, std::vector<std::string>>& names) {
  ordered root = ordered::object();
  add_children("", root, names);
  return root;
}

std::string scenario_keys_table() {
  std::string out = "| Key | Type | Default | Meaning |\n| --- | --- | --- | --- |\n";
  add_rows("", out);
  return out;
}

std::string plain_text(const std::string& markdown) {
  std::string out;
  for (size_t i = 0; i < markdown.size(); ++i) {
    // "[text](target)" -> "text"
    if (markdown[i] == '[') {
      const size_t close = markdown.find("](", i);
      const size_t end = close == std::string::npos ? close : markdown.find(')', close);
      if (close != std::string::npos && end != std::string::npos &&
          markdown.find('[', i + 1) > close) {
        out += markdown.substr(i + 1, close - i - 1);
        i = end;
        continue;
      }
    }
    if (markdown[i] == '\\' && i + 1 < markdown.size() && markdown[i + 1] == '|') continue;
    out += markdown[i];
  }
  return out;
}

}  // namespace uniference
