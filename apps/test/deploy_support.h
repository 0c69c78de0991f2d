// What the tests of real deployments share: the binaries under test, running them with a
// deadline, and reading what they wrote.
#pragma once

#include "apps/reserved_port.h"
#include "apps/test/process.h"
#include "apps/test/test_dir.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

namespace uniference {
namespace deploy_test {

using nlohmann::json;
using namespace std::chrono_literals;

inline const std::string kScenarios = UNIFERENCE_SCENARIOS_DIR;
inline const std::string kUniference = UNIFERENCE_BINARY;
inline const std::string kDeploy = UNIFERENCE_DEPLOY_BINARY;

inline json read_json(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file);
  return json::parse(in);
}

inline void write_json(const std::string& file, const json& value) { std::ofstream(file) << value.dump(2); }

// Per prompt, its generated tokens, from a results.json.
inline std::vector<std::vector<int64_t>> tokens_per_prompt(const json& results) {
  std::vector<std::vector<int64_t>> tokens;
  for (const json& prompt : results.at("prompts")) tokens.push_back(prompt.at("tokens"));
  return tokens;
}

// Runs a binary to the end (at most `limit`); its exit code, and its output in `log`.
inline int run(const TestDir& dir, const std::string& name, std::vector<std::string> argv,
        std::string* out = nullptr, std::string* err = nullptr,
        std::vector<std::pair<std::string, std::string>> env = {},
        std::chrono::milliseconds limit = 240s) {
  Process process(std::move(argv), std::move(env), dir / (name + ".out"), dir / (name + ".err"));
  const int code = process.wait(limit);
  if (out) *out = process.out();
  if (err) *err = process.err();
  return code;
}

}  // namespace deploy_test
}  // namespace uniference
