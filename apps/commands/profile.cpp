// uniference profile: every operator of a model timed on this device, as a replay table.
#include "apps/command_line.h"
#include "apps/commands/command.h"
#include "apps/commands/command_support.h"
#include "apps/atomic_file.h"
#include "compute/model_config.h"
#include "compute/replay_profile.h"

#include <iostream>
#include <stdexcept>

namespace uniference {

namespace {

// The presets --model takes, as the model registry lists them.
std::string model_list() {
  std::string text;
  for (const std::string& name : model_preset_names()) text += (text.empty() ? "" : ", ") + name;
  return text;
}

int profile_main(const std::vector<std::string>& args, const char*) {
  std::string model = "tiny", out;
  ProfileShapes shapes;
  uint64_t seed = 1;
  try {
    for_each_argument(args, 0, [&](const std::string& a, const auto& value) {
      if (a == "--model") model = value();
      else if (a == "--out") out = value();
      else if (a == "--max-prompt") shapes.max_prompt = std::stoll(value());
      else if (a == "--max-batch") shapes.max_batch = std::stoll(value());
      else if (a == "--repeats") shapes.repeats = std::stoi(value());
      else if (a == "--seed") seed = std::stoull(value());
      else throw std::invalid_argument("unknown argument '" + a + "'");
    });
    if (out.empty()) throw std::invalid_argument("needs --out FILE.csv");
  } catch (const std::exception& e) {
    return usage_error(std::string("profile: ") + e.what());
  }
  return reporting_errors([&] {
    const ModelConfig config = model_preset(model);
    const ReplayTable table = profile_model(config, seed, shapes);
    write_file_atomically(out, table.csv());
    std::cerr << "uniference: wrote " << out << " (" << table.rows() << " timings of model "
              << model << ")\n";
    return 0;
  });
}

}  // namespace

Command profile_command() {
  return {"profile",
          {"--out FILE.csv [--model M] [--max-prompt N] [--max-batch B] [--repeats R]"},
          {{"profile --out FILE.csv",
            "time every operator of --model (default tiny) on this device, whole\n"
            "model on one device, prefills of 1, 2, 4 ... --max-prompt (default 64)\n"
            "positions and decode steps of 1, 2, 4 ... --max-batch (default 8)\n"
            "sequences, --repeats (default 3) each; writes the replay table\n"
            "(median per operator and size) that \"compute\": {\"mode\": \"replay\",\n"
            "\"table\": FILE} charges from\n"
            "--model is one of:\n  " + model_list()}},
          profile_main, 0};
}

}  // namespace uniference
