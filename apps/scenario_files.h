// The files a scenario names beside itself: device profiles, replay tables, measured
// latencies, request lengths, link profiles. Each is found relative to the scenario's folder
// (as a user reading the scenario expects) and read while the scenario is, so that a missing
// or malformed file is a ScenarioError at the key that names it, before anything runs.
// scenario.cpp reads the keys; this file reads what they point to.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "apps/alpha_beta_fit.h"
#include "apps/json_checker.h"
#include "compute/device_profile.h"
#include "compute/replay_table.h"

namespace uniference {

// `file` as a scenario at `source` writes it: absolute, or relative to the scenario's folder.
std::string beside_scenario(const std::string& source, const std::string& file);

// A column of positive whole numbers (request lengths) from a CSV file with a header line.
// Errors are at `pointer`'s "file" (or "column", when the header lacks it).
std::vector<int64_t> read_length_column(const Checker& check, const std::string& pointer,
                                        const std::string& path, const std::string& column);

// The side files of one key each: errors at `at`, the key's pointer.
DeviceProfileSpec read_device_profile_file(const Checker& check, const std::string& at,
                                           const std::string& path);
std::vector<int64_t> read_latency_file(const Checker& check, const std::string& at,
                                       const std::string& path);
std::shared_ptr<const ReplayTable> read_replay_table(const Checker& check, const std::string& at,
                                                     const std::string& path);
MeasuredStarLink read_network_profile(const Checker& check, const std::string& at,
                                      const std::string& path);

}  // namespace uniference
