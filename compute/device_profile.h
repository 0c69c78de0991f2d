// Device profiles: what a modeled device can do, from a JSON file (devices/ holds the
// presets, built into the binary; a scenario may name a file of its own). The format:
//
//   { "name": "h100", "description": "...",
//     "peak_flops": { "fp32": 67e12, "bf16": 989e12, "fp16": 989e12 },
//     "memory_bandwidth": 3.35e12, "memory_bytes": 80e9,
//     "launch_overhead_ns": 0,
//     "efficiency": { "matmul": 1.0, "elementwise": 1.0 } }
//
// peak_flops per dtype; memory_bandwidth in bytes/s; memory_bytes 0 when unknown;
// launch_overhead_ns charged per operator; efficiency by op class (matrix products, and
// everything else), fractions of the peak the kernels reach (default 1). Only
// peak_flops and memory_bandwidth are required.
#pragma once

#include "compute/registry.h"

#include <map>
#include <string>
#include <vector>

namespace uniference {

// A profile resolved for one run: the numbers a modeled meter charges with.
struct DeviceProfile {
  std::string name;
  double peak_flops;        // FLOP/s at the charged dtype
  double memory_bandwidth;  // bytes/s
  double efficiency = 1.0;  // fraction of peak_flops the kernels reach (the scenario's)
  double slowdown = 1.0;    // multiplies every charged time
  double memory_bytes = 0;  // device memory; 0: unknown
  double launch_ns = 0;              // per charged operator
  double matmul_efficiency = 1.0;    // the profile's, per op class, times `efficiency`
  double elementwise_efficiency = 1.0;
  // Bytes per element of the charged dtype. Tensors run as float32; the bytes of floating
  // tensors are charged at this size.
  double bytes_per_element = 4;
};

// A profile file as read.
struct DeviceProfileSpec {
  std::string name;
  std::string description;
  std::map<std::string, double> peak_flops;  // by dtype
  double memory_bandwidth = 0;
  double memory_bytes = 0;
  double launch_ns = 0;
  double matmul_efficiency = 1.0;
  double elementwise_efficiency = 1.0;
};

struct DeviceProfileEntry {
  std::string name;
  std::string description;
  DeviceProfileSpec spec;
};

// The dtypes a profile may give peaks for, and their element sizes.
const std::vector<std::string>& compute_dtypes();
double dtype_bytes(const std::string& dtype);

// Reads a profile file's text. Throws std::invalid_argument naming `source` and the JSON
// pointer of the problem.
DeviceProfileSpec parse_device_profile(const std::string& text, const std::string& source);
// Reads a profile file. Throws std::invalid_argument (unreadable, or as above).
DeviceProfileSpec load_device_profile(const std::string& path);
// The file text of a spec (what `uniference profile-device` writes).
std::string device_profile_text(const DeviceProfileSpec& spec);

// The spec for `dtype`. Throws std::invalid_argument when the profile gives no peak for it.
DeviceProfile resolve_device_profile(const DeviceProfileSpec& spec, const std::string& dtype);

// Every preset of devices/, by name.
const NamedRegistry<DeviceProfileEntry>& device_profiles();
std::vector<std::string> device_profile_names();
// The preset of that name for `dtype`. Throws std::invalid_argument naming the presets.
DeviceProfile device_profile(const std::string& name, const std::string& dtype = "fp32");

}  // namespace uniference
