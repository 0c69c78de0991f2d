#include "apps/units.h"

#include <limits>
#include <stdexcept>
#include <utility>

namespace uniference {

namespace {

using Wide = unsigned __int128;

// Splits "2.5Mb/s" into the value scaled by `multiplier` (must come out whole) and checks it
// against `limit`. `unit_of` maps the text after the number to a multiplier (0: unknown).
template <typename UnitOf>
Parsed parse_with_unit(const std::string& text, UnitOf unit_of, uint64_t limit, uint64_t* out) {
  size_t i = 0;
  Wide digits = 0;
  int fraction_digits = 0;
  int significant = 0;
  size_t integer_start = i;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    digits = digits * 10 + Wide(text[i] - '0');
    if (digits != 0 && ++significant > 36) return Parsed::kOverflow;
  }
  if (i == integer_start) return Parsed::kMalformed;  // no leading digit: "", ".5", "-1"
  if (i < text.size() && text[i] == '.') {
    ++i;
    size_t fraction_start = i;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      digits = digits * 10 + Wide(text[i] - '0');
      ++fraction_digits;
      if ((digits != 0 && ++significant > 36) || fraction_digits > 36) return Parsed::kOverflow;
    }
    if (i == fraction_start) return Parsed::kMalformed;  // "5."
  }
  const uint64_t multiplier = unit_of(text.substr(i));
  if (multiplier == 0) return Parsed::kMalformed;

  const Wide max_wide = ~Wide(0);
  if (digits != 0 && digits > max_wide / multiplier) return Parsed::kOverflow;
  Wide scaled = digits * multiplier;
  Wide power = 1;
  for (int k = 0; k < fraction_digits; ++k) power *= 10;
  if (scaled % power != 0) return Parsed::kNotWhole;
  scaled /= power;
  if (scaled > Wide(limit)) return Parsed::kOverflow;
  *out = uint64_t(scaled);
  return Parsed::kOk;
}

uint64_t rate_unit(const std::string& unit) {
  // ns-3's DataRate spellings, plus T prefixes for the fastest fabrics (the value reaches
  // ns-3 as an integer, so its string parser never sees them).
  static const std::pair<const char*, uint64_t> kUnits[] = {
      {"", 1},  // ns-3 reads a bare number as bit/s
      {"bps", 1},
      {"b/s", 1},
      {"Bps", 8},
      {"B/s", 8},
      {"kbps", 1000},
      {"kb/s", 1000},
      {"Kbps", 1000},
      {"Kb/s", 1000},
      {"kBps", 8000},
      {"kB/s", 8000},
      {"KBps", 8000},
      {"KB/s", 8000},
      {"Kib/s", uint64_t(1) << 10},
      {"KiB/s", uint64_t(8) << 10},
      {"Mbps", 1000000},
      {"Mb/s", 1000000},
      {"MBps", 8000000},
      {"MB/s", 8000000},
      {"Mib/s", uint64_t(1) << 20},
      {"MiB/s", uint64_t(8) << 20},
      {"Gbps", 1000000000},
      {"Gb/s", 1000000000},
      {"GBps", 8000000000},
      {"GB/s", 8000000000},
      {"Gib/s", uint64_t(1) << 30},
      {"GiB/s", uint64_t(8) << 30},
      {"Tbps", 1000000000000},
      {"Tb/s", 1000000000000},
      {"TBps", 8000000000000},
      {"TB/s", 8000000000000},
      {"Tib/s", uint64_t(1) << 40},
      {"TiB/s", uint64_t(8) << 40},
  };
  for (const auto& [name, multiplier] : kUnits) {
    if (unit == name) return multiplier;
  }
  return 0;
}

uint64_t duration_unit(const std::string& unit) {
  if (unit == "ns") return 1;
  if (unit == "us") return 1000;
  if (unit == "ms") return 1000000;
  if (unit == "s") return 1000000000;
  return 0;
}

}  // namespace

Parsed parse_rate(const std::string& text, uint64_t* bps) {
  return parse_with_unit(text, rate_unit, std::numeric_limits<uint64_t>::max(), bps);
}

Parsed parse_delay(const std::string& text, int64_t* ns) {
  uint64_t value = 0;
  Parsed result =
      parse_with_unit(text, duration_unit, uint64_t(std::numeric_limits<int64_t>::max()), &value);
  if (result == Parsed::kOk) *ns = int64_t(value);
  return result;
}


bool parse_data_rate(const std::string& text, uint64_t* bits_per_second) {
  return parse_rate(text, bits_per_second) == Parsed::kOk;
}

bool parse_duration(const std::string& text, int64_t* nanoseconds) {
  return parse_delay(text, nanoseconds) == Parsed::kOk;
}

double leading_number(const std::string& text, size_t* used) {
  try {
    return std::stod(text, used);
  } catch (const std::exception&) {
    *used = 0;
    return 0;
  }
}

std::optional<double> parse_number(const std::string& text) {
  size_t used = 0;
  const double value = leading_number(text, &used);
  if (used == 0 || used != text.size()) return std::nullopt;
  return value;
}

}  // namespace uniference
