// Reading a JSON document with an error for every mistake that names its JSON pointer
// (RFC 6901): the checks every section of a scenario is built from, and the parse step
// that finds syntax errors (with line and column) and repeated keys.
#pragma once

#include "apps/scenario_error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

namespace uniference {

using nlohmann::json;

// The pointer of `key` inside the object at `pointer` ('~' and '/' escaped).
std::string child(const std::string& pointer, const std::string& key);

// How a found value is shown in a message: scalars as JSON, containers by kind.
std::string describe(const json& value);

// "\"a\", \"b\" or \"c\"".
std::string quoted_list(const std::vector<std::string>& names);

// The closest candidate to a misspelling, when it is close enough to be a likely typo;
// empty otherwise.
std::string closest(const std::string& word, const std::vector<std::string>& candidates);

// Parses JSON text. Throws ScenarioError with line and column for a syntax error, and with
// the pointer of the first key that appears twice in one object.
json parse_json_text(const std::string& text, const std::string& source_name);

// Reads and parses a JSON file (a sweep or plan spec); `what` names it in the error when it
// cannot be opened ("the sweep spec").
json read_json_file(const std::string& path, const std::string& what);


class Checker {
 public:
  explicit Checker(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const std::string& pointer, const std::string& detail) const {
    throw ScenarioError(source_, pointer, detail);
  }

  [[noreturn]] void fail_found(const std::string& pointer, const std::string& expected,
                               const json& found) const {
    fail(pointer, "expected " + expected + ", found " + describe(found));
  }

  // Checks that `value` is an object holding only `known` keys.
  void object(const json& value, const std::string& pointer,
              const std::vector<std::string>& known) const {
    if (!value.is_object()) {
      if (pointer.empty()) {
        fail(pointer, "expected a JSON object at the top level, found " + describe(value));
      }
      fail_found(pointer, "an object", value);
    }
    for (const auto& item : value.items()) {
      if (std::find(known.begin(), known.end(), item.key()) != known.end()) continue;
      std::string detail = "unknown key";
      std::string suggestion = closest(item.key(), known);
      if (!suggestion.empty()) detail += " (did you mean \"" + suggestion + "\"?)";
      detail += "; known keys here: ";
      for (size_t i = 0; i < known.size(); ++i) detail += (i ? ", " : "") + known[i];
      fail(child(pointer, item.key()), detail);
    }
  }

  static const json* find(const json& object, const std::string& key) {
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
  }

  const json& require(const json& object, const std::string& pointer, const std::string& key,
                      const std::string& expected) const {
    const json* value = find(object, key);
    if (value == nullptr) fail(child(pointer, key), "missing required key; expected " + expected);
    return *value;
  }

  std::string string(const json& value, const std::string& pointer) const {
    if (!value.is_string() || value.get_ref<const std::string&>().empty()) {
      fail_found(pointer, "a non-empty string", value);
    }
    return value.get<std::string>();
  }

  std::string choice(const json& value, const std::string& pointer,
                     const std::vector<std::string>& choices) const {
    if (value.is_string()) {
      const std::string& text = value.get_ref<const std::string&>();
      if (std::find(choices.begin(), choices.end(), text) != choices.end()) return text;
      std::string suggestion = closest(text, choices);
      if (!suggestion.empty()) {
        fail(pointer, "expected one of " + quoted_list(choices) + ", found " + describe(value) +
                          " (did you mean \"" + suggestion + "\"?)");
      }
    }
    fail_found(pointer, "one of " + quoted_list(choices), value);
  }

  int64_t integer(const json& value, const std::string& pointer, int64_t min, int64_t max,
                  const std::string& expected) const {
    // Integral JSON numbers only: 8.0 is refused rather than silently truncated.
    if (value.is_number_unsigned()) {
      uint64_t v = value.get<uint64_t>();
      if (v <= uint64_t(max) && int64_t(v) >= min) return int64_t(v);
    } else if (value.is_number_integer()) {
      int64_t v = value.get<int64_t>();
      if (v >= min && v <= max) return v;
    }
    fail_found(pointer, expected, value);
  }

  int positive_int(const json& value, const std::string& pointer) const {
    return int(integer(value, pointer, 1, INT_MAX, "a positive integer"));
  }

  uint32_t positive_u32(const json& value, const std::string& pointer) const {
    return uint32_t(integer(value, pointer, 1, UINT32_MAX, "a positive integer below 2^32"));
  }

  uint64_t unsigned64(const json& value, const std::string& pointer) const {
    // Parsed text gives unsigned numbers; a document built in C++ may hold signed ones.
    if (value.is_number_unsigned()) return value.get<uint64_t>();
    if (value.is_number_integer() && value.get<int64_t>() >= 0) {
      return uint64_t(value.get<int64_t>());
    }
    fail_found(pointer, "an unsigned 64-bit integer", value);
  }

  double number(const json& value, const std::string& pointer) const {
    if (!value.is_number()) fail_found(pointer, "a number", value);
    return value.get<double>();
  }

  bool boolean(const json& value, const std::string& pointer) const {
    if (!value.is_boolean()) fail_found(pointer, "true or false", value);
    return value.get<bool>();
  }

 private:
  std::string source_;
};


}  // namespace uniference
