// Measuring the device this process runs on, for a device profile of it: what
// `uniference profile-device` writes. CPU only (libtorch's CPU kernels, as the shard code
// runs them here).
#pragma once

#include "compute/device_profile.h"

#include <string>

namespace uniference {

// Peak FLOP/s per dtype from the best of a few square matrix products (fp32 and bf16: the
// dtypes libtorch 1.13 multiplies on a CPU), memory bandwidth from the best of a few large
// copies (read + write), the launch overhead from the mean time of a one-element addition,
// and the machine's physical memory. Takes a few seconds.
DeviceProfileSpec measure_this_device(const std::string& name, const std::string& description);

}  // namespace uniference
