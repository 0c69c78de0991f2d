// libFuzzer target: the scenario reader (apps/scenario.h) on arbitrary bytes. Reading a
// scenario may fail only with ScenarioError, the reader's own error, which names where and
// what; any other exception, a sanitizer report or a slow input is a finding.
#include "apps/scenario.h"
#include "apps/scenario_error.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)uniference::parse_scenario_text(text, "fuzz.json");
  } catch (const uniference::ScenarioError&) {
    // The reader's own refusal: expected for most inputs.
  } catch (const std::exception& e) {
    std::fprintf(stderr, "scenario reader: an exception other than ScenarioError: %s\n", e.what());
    std::abort();
  }
  return 0;
}
