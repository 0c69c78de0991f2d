// libFuzzer target: the readers of the files a scenario names beside itself
// (apps/scenario_files.h) on arbitrary bytes. The first byte picks the reader, the rest is the
// file. A reader may fail only with ScenarioError naming the key; any other exception, a
// sanitizer report or a slow input is a finding.
#include "apps/scenario_error.h"
#include "apps/scenario_files.h"

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <string>

namespace {

// One file per fuzzing process, rewritten for every input.
const std::string& file_path() {
  static const std::string path = "/tmp/uniference-side-file-fuzz-" + std::to_string(::getpid());
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  {
    std::ofstream out(file_path(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data + 1), std::streamsize(size - 1));
  }
  const uniference::Checker check("fuzz.json");
  try {
    switch (data[0] % 5) {
      case 0: (void)uniference::read_length_column(check, "/workload/lengths", file_path(), "prompt_tokens"); break;
      case 1: (void)uniference::read_latency_file(check, "/compute/latency_file", file_path()); break;
      case 2: (void)uniference::read_replay_table(check, "/compute/table", file_path()); break;
      case 3: (void)uniference::read_network_profile(check, "/network/profile", file_path()); break;
      default: (void)uniference::read_device_profile_file(check, "/devices/profile", file_path()); break;
    }
  } catch (const uniference::ScenarioError&) {
    // The readers' own refusal.
  } catch (const std::exception& e) {
    std::fprintf(stderr, "side-file reader %d: an exception other than ScenarioError: %s\n", data[0] % 5, e.what());
    std::abort();
  }
  return 0;
}
