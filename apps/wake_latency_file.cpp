#include "apps/wake_latency_file.h"

#include "apps/format_file.h"

#include <stdexcept>

namespace uniference {

std::vector<int64_t> load_wake_latencies(const std::string& path) {
  const std::string hint = "validation/testbed/sched_delays.py --samples writes one";
  const nlohmann::json file = read_format_file(path, "wake-up latencies", "uniference-wake-latency", hint);
  const auto bad = [&](const std::string& what) { return format_file_error(path, "wake-up latencies", what, hint); };
  if (file.value("format_version", 0) != 1) throw bad("\"format_version\" is not 1");
  const auto samples = file.find("samples_ns");
  if (samples == file.end() || !samples->is_array() || samples->empty()) {
    throw bad("no samples: /samples_ns must be a non-empty array of delays in ns");
  }
  std::vector<int64_t> delays;
  delays.reserve(samples->size());
  for (size_t i = 0; i < samples->size(); ++i) {
    const nlohmann::json& sample = (*samples)[i];
    if (!sample.is_number_integer() || sample.get<int64_t>() < 0) {
      throw bad("/samples_ns/" + std::to_string(i) + " is " + sample.dump() + ", not a whole number of ns >= 0");
    }
    delays.push_back(sample.get<int64_t>());
  }
  return delays;
}

}  // namespace uniference
