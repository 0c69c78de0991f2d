#include "compute/device_profile.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace uniference {

// The presets' file texts, generated from devices/*.json by compute/CMakeLists.txt.
extern const std::vector<std::pair<std::string, std::string>> kDeviceProfileFiles;

namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& source, const std::string& pointer,
                       const std::string& detail) {
  throw std::invalid_argument(source + ": " + (pointer.empty() ? "" : pointer + ": ") + detail);
}

double positive(const json& value, const std::string& source, const std::string& pointer) {
  if (!value.is_number() || !(value.get<double>() > 0) || !std::isfinite(value.get<double>())) {
    fail(source, pointer, "expected a positive number, found " + value.dump());
  }
  return value.get<double>();
}

double fraction(const json& value, const std::string& source, const std::string& pointer) {
  const double v = positive(value, source, pointer);
  if (v > 1) fail(source, pointer, "expected a fraction in (0, 1], found " + value.dump());
  return v;
}

}  // namespace

const std::vector<std::string>& compute_dtypes() {
  static const std::vector<std::string> dtypes{"fp32", "bf16", "fp16"};
  return dtypes;
}

double dtype_bytes(const std::string& dtype) {
  if (dtype == "fp32") return 4;
  if (dtype == "bf16" || dtype == "fp16") return 2;
  throw std::invalid_argument("unknown dtype '" + dtype + "'; known: fp32, bf16, fp16");
}

DeviceProfileSpec parse_device_profile(const std::string& text, const std::string& source) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for a number beyond a double
    fail(source, "", std::string("not JSON: ") + e.what());
  }
  if (!doc.is_object()) fail(source, "", "expected a JSON object");
  const std::vector<std::string> known{"name",         "description",        "peak_flops",
                                       "memory_bandwidth", "memory_bytes", "launch_overhead_ns",
                                       "efficiency"};
  for (const auto& item : doc.items()) {
    if (std::find(known.begin(), known.end(), item.key()) == known.end()) {
      fail(source, "/" + item.key(), "unknown key");
    }
  }
  DeviceProfileSpec spec;
  if (!doc.contains("name") || !doc["name"].is_string() || doc["name"].get<std::string>().empty()) {
    fail(source, "/name", "expected a non-empty string");
  }
  spec.name = doc["name"].get<std::string>();
  if (doc.contains("description")) {
    if (!doc["description"].is_string()) fail(source, "/description", "expected a string");
    spec.description = doc["description"].get<std::string>();
  }
  if (!doc.contains("peak_flops") || !doc["peak_flops"].is_object() || doc["peak_flops"].empty()) {
    fail(source, "/peak_flops", "expected an object of FLOP/s by dtype (fp32, bf16, fp16)");
  }
  for (const auto& item : doc["peak_flops"].items()) {
    const std::string at = "/peak_flops/" + item.key();
    const auto& dtypes = compute_dtypes();
    if (std::find(dtypes.begin(), dtypes.end(), item.key()) == dtypes.end()) {
      fail(source, at, "unknown dtype; known: fp32, bf16, fp16");
    }
    spec.peak_flops[item.key()] = positive(item.value(), source, at);
  }
  if (!doc.contains("memory_bandwidth")) fail(source, "/memory_bandwidth", "missing (bytes/s)");
  spec.memory_bandwidth = positive(doc["memory_bandwidth"], source, "/memory_bandwidth");
  if (doc.contains("memory_bytes")) spec.memory_bytes = positive(doc["memory_bytes"], source, "/memory_bytes");
  if (doc.contains("launch_overhead_ns")) {
    const json& v = doc["launch_overhead_ns"];
    if (!v.is_number() || v.get<double>() < 0) {
      fail(source, "/launch_overhead_ns", "expected a number of nanoseconds >= 0");
    }
    spec.launch_ns = v.get<double>();
  }
  if (doc.contains("efficiency")) {
    const json& e = doc["efficiency"];
    if (!e.is_object()) fail(source, "/efficiency", "expected {\"matmul\": f, \"elementwise\": f}");
    for (const auto& item : e.items()) {
      const std::string at = "/efficiency/" + item.key();
      if (item.key() == "matmul") {
        spec.matmul_efficiency = fraction(item.value(), source, at);
      } else if (item.key() == "elementwise") {
        spec.elementwise_efficiency = fraction(item.value(), source, at);
      } else {
        fail(source, at, "unknown op class; known: matmul, elementwise");
      }
    }
  }
  return spec;
}

DeviceProfileSpec load_device_profile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot read the device profile");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_device_profile(text.str(), path);
}

std::string device_profile_text(const DeviceProfileSpec& spec) {
  nlohmann::ordered_json doc;
  doc["name"] = spec.name;
  doc["description"] = spec.description;
  for (const std::string& dtype : compute_dtypes()) {
    if (spec.peak_flops.count(dtype)) doc["peak_flops"][dtype] = spec.peak_flops.at(dtype);
  }
  doc["memory_bandwidth"] = spec.memory_bandwidth;
  if (spec.memory_bytes > 0) doc["memory_bytes"] = spec.memory_bytes;
  doc["launch_overhead_ns"] = spec.launch_ns;
  doc["efficiency"] = {{"matmul", spec.matmul_efficiency}, {"elementwise", spec.elementwise_efficiency}};
  return doc.dump(2) + "\n";
}

DeviceProfile resolve_device_profile(const DeviceProfileSpec& spec, const std::string& dtype) {
  const auto peak = spec.peak_flops.find(dtype);
  if (peak == spec.peak_flops.end()) {
    std::string known;
    for (const auto& [name, flops] : spec.peak_flops) known += (known.empty() ? "" : ", ") + name;
    throw std::invalid_argument("device profile '" + spec.name + "' gives no " + dtype +
                                " peak (it has " + known + ")");
  }
  DeviceProfile p{spec.name, peak->second, spec.memory_bandwidth};
  p.memory_bytes = spec.memory_bytes;
  p.launch_ns = spec.launch_ns;
  p.matmul_efficiency = spec.matmul_efficiency;
  p.elementwise_efficiency = spec.elementwise_efficiency;
  p.bytes_per_element = dtype_bytes(dtype);
  return p;
}

const NamedRegistry<DeviceProfileEntry>& device_profiles() {
  static const NamedRegistry<DeviceProfileEntry> registry = [] {
    std::vector<DeviceProfileEntry> entries;
    for (const auto& [file, text] : kDeviceProfileFiles) {
      DeviceProfileSpec spec = parse_device_profile(text, "devices/" + file);
      entries.push_back(DeviceProfileEntry{spec.name, spec.description, spec});
    }
    return NamedRegistry<DeviceProfileEntry>("device profile", std::move(entries));
  }();
  return registry;
}

std::vector<std::string> device_profile_names() { return device_profiles().names(); }

DeviceProfile device_profile(const std::string& name, const std::string& dtype) {
  return resolve_device_profile(device_profiles().at(name).spec, dtype);
}

}  // namespace uniference
