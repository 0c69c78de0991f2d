// Times in a Chrome trace: whole nanoseconds written as microseconds with exactly three
// decimals, from integers (never through a double), and read back exactly.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace uniference {

// Nanoseconds as trace microseconds: 1500 -> "1.500", -2 -> "-0.002".
std::string trace_microseconds(int64_t ns);

// A trace timestamp or duration (microseconds: a JSON integer, a double, or a string of
// digits) as whole nanoseconds. A double is read through its shortest decimal form, so a
// value parsed from "2.003" gives exactly 2003; digits past the nanosecond are rounded half
// away from zero. Throws std::invalid_argument for anything else.
int64_t trace_time_ns(const nlohmann::json& value);

}  // namespace uniference
