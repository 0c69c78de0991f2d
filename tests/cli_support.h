// Running programs from the CLI tests: a command's exit code and everything it printed, the
// uniference binary (UNIFERENCE_BINARY) and the shipped scenarios (UNIFERENCE_SCENARIOS_DIR),
// which each test target defines.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>

namespace uniference::cli {

struct Result {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

inline Result run_command(const std::string& program, const std::string& args) {
  const std::string command = program + " " + args + " 2>&1";
  Result result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

inline Result run_uniference(const std::string& args) {
  return run_command(UNIFERENCE_BINARY, args);
}

inline std::string scenario(const std::string& name) {
  return std::string(UNIFERENCE_SCENARIOS_DIR) + "/" + name;
}

// A --set that makes a shipped scenario wrong, and where and how the error must say so.
struct BadKey {
  const char* name;       // the test's name
  const char* scenario;   // the shipped scenario it starts from
  const char* override_;  // a --set assignment
  const char* pointer;    // the pointer the error must name
  const char* detail;     // a piece of the message
};

inline void PrintTo(const BadKey& bad, std::ostream* out) { *out << bad.override_; }

inline std::string bad_key_name(const ::testing::TestParamInfo<BadKey>& info) {
  return info.param.name;
}

// `uniference validate` refuses the edited scenario: exit code 2, the pointer and the detail
// in the message.
inline void expect_refused(const BadKey& bad) {
  const Result result = run_uniference("validate " + scenario(bad.scenario) + " --set '" +
                                       bad.override_ + "'");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find(std::string(": ") + bad.pointer + ": "), std::string::npos)
      << "expected the pointer " << bad.pointer << " in: " << result.output;
  EXPECT_NE(result.output.find(bad.detail), std::string::npos) << result.output;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace uniference::cli
