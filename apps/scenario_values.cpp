#include "apps/scenario_values.h"

#include "apps/units.h"

namespace uniference {

const char* const kRateExamples =
    "a data rate such as \"1Gbps\", \"2.5Mb/s\" or \"100000\" (bit/s)";
const char* const kDelayExamples =
    "a duration with a unit such as \"50us\" or \"1.5ms\" (ns, us, ms, s)";

int64_t read_duration(const Checker& check, const json& value, const std::string& at,
                      std::string* text, bool zero_ok) {
  if (!value.is_string()) check.fail_found(at, kDelayExamples, value);
  *text = value.get<std::string>();
  int64_t ns = 0;
  switch (parse_delay(*text, &ns)) {
    case Parsed::kOk:
      if (ns < 0 || (ns == 0 && !zero_ok)) {
        check.fail_found(at, zero_ok ? "a duration of 0 or more" : "a positive duration", value);
      }
      return ns;
    case Parsed::kMalformed:
      check.fail_found(at, kDelayExamples, value);
    case Parsed::kNotWhole:
      check.fail_found(at, "a whole number of nanoseconds", value);
    case Parsed::kOverflow:
      check.fail_found(at, "a duration below 2^63 ns", value);
  }
  return ns;
}

uint64_t read_rate(const Checker& check, const json& value, const std::string& at, std::string* text) {
  if (!value.is_string()) check.fail_found(at, kRateExamples, value);
  *text = value.get<std::string>();
  uint64_t bps = 0;
  switch (parse_rate(*text, &bps)) {
    case Parsed::kOk:
      if (bps == 0) check.fail_found(at, "a positive data rate", value);
      return bps;
    case Parsed::kMalformed:
      check.fail_found(at, kRateExamples, value);
    case Parsed::kNotWhole:
      check.fail_found(at, "a whole number of bits per second", value);
    case Parsed::kOverflow:
      check.fail_found(at, "a data rate below 2^64 bit/s", value);
  }
  check.fail_found(at, kRateExamples, value);
}

std::string attribute_text(const Checker& check, const json& value, const std::string& pointer) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number() || value.is_boolean()) return value.dump();
  check.fail_found(pointer, "a string, number or boolean", value);
}

}  // namespace uniference
