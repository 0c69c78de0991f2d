#include "bridge/trace_time.h"

#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

namespace uniference {

namespace {

using nlohmann::json;

// A value for an error message; text that is not UTF-8 must still print.
std::string dump(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

// A decimal number of microseconds ([-]digits[.digits][e[+-]digits]) as nanoseconds,
// rounded half away from zero. Exact integer arithmetic throughout.
// 36 decimal digits fit: enough for any time and the digits that round it.
using Wide = unsigned __int128;

int64_t decimal_microseconds_to_ns(const std::string& text) {
  const auto fail = [&]() -> int64_t {
    throw std::invalid_argument("not a trace time: \"" + text + "\"");
  };
  size_t at = 0;
  bool negative = false;
  if (at < text.size() && (text[at] == '-' || text[at] == '+')) negative = text[at++] == '-';
  Wide digits = 0;
  int significant = 0;  // digits accumulated, at most 36 so that the value stays exact
  int exponent = 3;     // microseconds -> nanoseconds
  bool any_digit = false;
  bool fraction = false;
  for (; at < text.size(); ++at) {
    const char c = text[at];
    if (c == '.' && !fraction) {
      fraction = true;
      continue;
    }
    if (c < '0' || c > '9') break;
    any_digit = true;
    if (significant < 36) {
      digits = digits * 10 + unsigned(c - '0');
      if (digits != 0) ++significant;
      if (fraction) --exponent;
    } else if (!fraction) {
      ++exponent;  // a digit past what we keep, before the point: scale instead
    }
  }
  if (!any_digit) return fail();
  if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    ++at;
    bool exponent_negative = false;
    if (at < text.size() && (text[at] == '-' || text[at] == '+')) {
      exponent_negative = text[at++] == '-';
    }
    int value = 0;
    bool exponent_digit = false;
    for (; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at) {
      exponent_digit = true;
      if (value < 10000) value = value * 10 + (text[at] - '0');
    }
    if (!exponent_digit) return fail();
    exponent += exponent_negative ? -value : value;
  }
  if (at != text.size()) return fail();

  constexpr Wide kMax = Wide(std::numeric_limits<int64_t>::max()) + 1;
  if (digits == 0) return 0;
  for (; exponent > 0; --exponent) {
    digits *= 10;
    if (digits > kMax) throw std::out_of_range("trace time out of range: \"" + text + "\"");
  }
  if (exponent < 0) {
    if (exponent < -38) {
      digits = 0;
    } else {
      Wide divisor = 1;
      for (; exponent < 0; ++exponent) divisor *= 10;
      const Wide quotient = digits / divisor;
      const Wide remainder = digits % divisor;
      digits = quotient + (remainder * 2 >= divisor ? 1 : 0);
    }
  }
  if (digits > kMax || (!negative && digits == kMax)) {
    throw std::out_of_range("trace time out of range: \"" + text + "\"");
  }
  return negative ? int64_t(0 - uint64_t(digits)) : int64_t(uint64_t(digits));
}

}  // namespace

std::string trace_microseconds(int64_t ns) {
  // Magnitude as unsigned so that INT64_MIN has one too.
  const uint64_t magnitude = ns < 0 ? uint64_t(0) - uint64_t(ns) : uint64_t(ns);
  char text[32];
  std::snprintf(text, sizeof text, "%s%" PRIu64 ".%03" PRIu64, ns < 0 ? "-" : "", magnitude / 1000,
                magnitude % 1000);
  return text;
}

int64_t trace_time_ns(const json& value) {
  if (value.is_number_unsigned()) {
    const uint64_t us = value.get<uint64_t>();
    if (us > uint64_t(std::numeric_limits<int64_t>::max() / 1000)) {
      throw std::out_of_range("trace time out of range: " + dump(value));
    }
    return int64_t(us) * 1000;
  }
  if (value.is_number_integer()) {
    const int64_t us = value.get<int64_t>();
    if (us > std::numeric_limits<int64_t>::max() / 1000 ||
        us < std::numeric_limits<int64_t>::min() / 1000) {
      throw std::out_of_range("trace time out of range: " + dump(value));
    }
    return us * 1000;
  }
  if (value.is_number_float()) {
    // The shortest text that reads back as this double: the text it was parsed from,
    // whenever that had at most 15 significant digits (three decimals up to 10^12 us).
    char text[64];
    const auto result = std::to_chars(text, text + sizeof text, value.get<double>());
    if (result.ec != std::errc()) throw std::invalid_argument("not a trace time: " + dump(value));
    return decimal_microseconds_to_ns(std::string(text, result.ptr));
  }
  if (value.is_string()) return decimal_microseconds_to_ns(value.get<std::string>());
  throw std::invalid_argument("not a trace time: " + dump(value));
}

}  // namespace uniference
