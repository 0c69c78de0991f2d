#include "apps/wake_latency_file.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace uniference {

std::vector<int64_t> load_wake_latencies(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read wake-up latencies " + path + ": " + std::strerror(errno));
  const nlohmann::json file = nlohmann::json::parse(in, nullptr, false);
  const auto bad = [&](const std::string& what) {
    return std::invalid_argument("wake-up latencies " + path + ": " + what +
                                 " (validation/testbed/sched_delays.py --samples writes one)");
  };
  if (file.is_discarded()) throw bad("not valid JSON");
  if (!file.is_object() || file.value("format", "") != "uniference-wake-latency") {
    throw bad("\"format\" is not \"uniference-wake-latency\"");
  }
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
