// uniference profile-device: this machine's CPU as a device profile.
#include "apps/command_line.h"
#include "apps/commands/command.h"
#include "apps/commands/command_support.h"
#include "apps/atomic_file.h"
#include "compute/device_measure.h"

#include <iostream>
#include <stdexcept>

namespace uniference {

namespace {

int profile_device_main(const std::vector<std::string>& args, const char*) {
  std::string out, name = "cpu";
  std::string description = "this machine's CPU, measured by uniference profile-device";
  try {
    for_each_argument(args, 0, [&](const std::string& a, const auto& value) {
      if (a == "--out") out = value();
      else if (a == "--name") name = value();
      else if (a == "--description") description = value();
      else throw std::invalid_argument("unknown argument '" + a + "'");
    });
  } catch (const std::exception& e) {
    return usage_error(std::string("profile-device: ") + e.what());
  }
  return reporting_errors([&] {
    const std::string text =
        device_profile_text(measure_this_device(name, description));
    if (out.empty()) {
      std::cout << text;
    } else {
      write_file_atomically(out, text);
      std::cerr << "uniference: wrote " << out << "\n";
    }
    return 0;
  });
}

}  // namespace

Command profile_device_command() {
  return {"profile-device",
          {"[--name NAME] [--description TEXT] [--out FILE.json]"},
          {{"profile-device",
            "measure this machine's CPU as libtorch runs on it (peak FLOP/s of\n"
            "fp32 and bf16 matrix products, copy bandwidth, per-operator launch\n"
            "overhead, physical memory) and print a device profile (devices/*.json\n"
            "format), or write it to --out; a scenario names the file in\n"
            "/devices/profile, or it becomes a preset in devices/"}},
          profile_device_main, 0};
}

}  // namespace uniference
