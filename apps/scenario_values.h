// Reading the values every section of a scenario shares: data rates and durations with their
// units (units.h), and ns-3 Attribute values as ns-3 reads them from text. Each refuses a bad
// value with a ScenarioError at its pointer, saying what was expected.
#pragma once

#include <cstdint>
#include <string>

#include "apps/json_checker.h"

namespace uniference {

// What a rate or a duration looks like, for "expected ..." and "missing required key" messages.
extern const char* const kRateExamples;
extern const char* const kDelayExamples;

// A data rate: positive, whole bit/s. `text` receives it as written.
uint64_t read_rate(const Checker& check, const json& value, const std::string& at,
                   std::string* text);

// A duration with a unit: positive, or at least 0 where `zero_ok`; whole nanoseconds. `text`
// receives it as written.
int64_t read_duration(const Checker& check, const json& value, const std::string& at,
                      std::string* text, bool zero_ok);

// An ns-3 Attribute value as ns-3 reads it from text: strings as they are, numbers and
// booleans in their JSON spelling.
std::string attribute_text(const Checker& check, const json& value, const std::string& pointer);

}  // namespace uniference
