#include "apps/scenario_files.h"

#include "apps/units.h"
#include "apps/wake_latency_file.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace uniference {

namespace {

// The loaders report a bad file by std::invalid_argument; the user needs the key as well.
template <typename Load>
auto read_at(const Checker& check, const std::string& at, Load load) -> decltype(load()) {
  try {
    return load();
  } catch (const std::invalid_argument& e) {
    check.fail(at, e.what());
  }
}

std::vector<std::string> csv_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  std::istringstream stream(line);
  while (std::getline(stream, cell, ',')) {
    while (!cell.empty() && (cell.back() == '\r' || cell.back() == ' ')) cell.pop_back();
    while (!cell.empty() && cell.front() == ' ') cell.erase(cell.begin());
    cells.push_back(cell);
  }
  return cells;
}

}  // namespace

std::string beside_scenario(const std::string& source, const std::string& file) {
  const std::filesystem::path path(file);
  return path.is_absolute() ? path.string()
                            : (std::filesystem::path(source).parent_path() / path).string();
}

std::vector<int64_t> read_length_column(const Checker& check, const std::string& pointer,
                                        const std::string& path, const std::string& column) {
  std::ifstream in(path);
  if (!in) check.fail(child(pointer, "file"), "cannot read " + path);
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = csv_cells(line);
  const auto it = std::find(header.begin(), header.end(), column);
  if (it == header.end()) {
    check.fail(child(pointer, "column"), path + " has no column '" + column + "'; its header is: " + line);
  }
  const size_t index = size_t(it - header.begin());
  std::vector<int64_t> values;
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty() || line == "\r") continue;
    const std::vector<std::string> cells = csv_cells(line);
    const std::optional<double> value =
        index < cells.size() ? parse_number(cells[index]) : std::optional<double>();
    if (!value || *value < 1 || *value != std::floor(*value) || *value > 1e9) {
      check.fail(child(pointer, "file"), path + ":" + std::to_string(number) + ": column '" +
                                             column + "' needs a positive whole number of tokens");
    }
    values.push_back(int64_t(*value));
  }
  if (values.empty()) check.fail(child(pointer, "file"), path + " has no rows");
  return values;
}

DeviceProfileSpec read_device_profile_file(const Checker& check, const std::string& at,
                                           const std::string& path) {
  return read_at(check, at, [&] { return load_device_profile(path); });
}

std::vector<int64_t> read_latency_file(const Checker& check, const std::string& at,
                                       const std::string& path) {
  return read_at(check, at, [&] { return load_wake_latencies(path); });
}

std::shared_ptr<const ReplayTable> read_replay_table(const Checker& check, const std::string& at,
                                                     const std::string& path) {
  return read_at(check, at,
                 [&] { return std::make_shared<const ReplayTable>(ReplayTable::load(path)); });
}

MeasuredStarLink read_network_profile(const Checker& check, const std::string& at,
                                      const std::string& path) {
  return read_at(check, at, [&] { return load_network_profile(path); });
}

}  // namespace uniference
