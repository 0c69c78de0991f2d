// An example run as its user runs it: its exit code, what it printed, and the rows of the
// table it printed (every example prints '#' comment lines, one line of column headings,
// then one row per result).
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace uniference::examples {

struct ExampleRun {
  int exit_code = -1;
  std::string output;                          // stdout and stderr together
  std::vector<std::vector<std::string>> rows;  // the table's rows, split into fields
};

inline ExampleRun run_example(const std::string& program, const std::string& args) {
  ExampleRun run;
  FILE* pipe = popen((program + " " + args + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) run.output.append(buffer, n);
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::istringstream lines(run.output);
  bool headings = true;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    if (headings) {
      headings = false;
      continue;
    }
    std::istringstream fields(line);
    std::vector<std::string> row;
    for (std::string field; fields >> field;) row.push_back(field);
    run.rows.push_back(row);
  }
  return run;
}

}  // namespace uniference::examples
