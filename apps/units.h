// Numbers with units, as scenarios write them: data rates ("2.5Mb/s") and durations
// ("50us"). Decimal text is converted exactly (no binary floating point), so "0.3Mbps" is
// 300000 bit/s and not 299999 after a truncated 0.3 * 1e6.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace uniference {

enum class Parsed { kOk, kMalformed, kNotWhole, kOverflow };

// ns-3 DataRate strings: a decimal number and a unit (bps, b/s, Bps, B/s with k/K, M, G, T
// prefixes; Ki, Mi, Gi, Ti binary prefixes with b/s and B/s), or a bare number of bits per
// second. kNotWhole for a rate that is not a whole number of bits per second, kOverflow
// beyond 2^64 - 1. Zero parses; the scenario rejects it itself, with its path.
Parsed parse_rate(const std::string& text, uint64_t* bits_per_second);

// Durations: a decimal number and one of ns, us, ms, s. kNotWhole for a duration that is
// not a whole number of nanoseconds, kOverflow beyond 2^63 - 1 ns.
Parsed parse_delay(const std::string& text, int64_t* nanoseconds);

// The same, true only for kOk.
bool parse_data_rate(const std::string& text, uint64_t* bits_per_second);
bool parse_duration(const std::string& text, int64_t* nanoseconds);

// A number that is all of `text` ("0.25", "1e-3"), or nothing: no leading or trailing
// characters, unlike std::stod.
std::optional<double> parse_number(const std::string& text);

// The number at the start of `text` and how many characters it took (0: none).
double leading_number(const std::string& text, size_t* used);

}  // namespace uniference
