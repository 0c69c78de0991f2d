// uniference: the command-line front end. Each command lives in apps/commands/, one file
// each, and registers in the table of apps/commands/command_table.cpp, from which the
// dispatch below and every --help text come.
//
// Exit codes: 0 success, 1 runtime error or an unrecoverable fault, 2 bad scenario or usage,
// 3 deadlock with no fault.
#include "apps/command_line.h"
#include "apps/commands/command.h"
#include "apps/commands/command_support.h"
#include "bridge/ns3_build.h"

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  const std::vector<std::string> words(argv + 1, argv + argc);
  if (words.empty()) return uniference::usage_error("no command given");
  const std::string& name = words.front();
  if (name == "-h" || name == "--help") {
    std::cout << uniference::usage_text();
    return 0;
  }
  if (name == "--version") {
    std::cout << "uniference (Uniference-ns3)\n" << uniference::describe(uniference::ns3_build());
    return 0;
  }
  const uniference::Command* command = uniference::find_command(name);
  if (command == nullptr) return uniference::usage_error("unknown command '" + name + "'");
  try {
    return command->run(std::vector<std::string>(words.begin() + 1, words.end()), argv[0]);
  } catch (const uniference::HelpRequested&) {
    std::cout << uniference::command_usage_text(*command);
    return 0;
  }
}
