// The subcommands of `uniference`: one table of name, usage and run function, from which
// `uniference --help`, `uniference CMD --help` and the dispatch in apps/uniference.cpp all
// come, so that a new command is one file plus one row (command_table.cpp).
#pragma once

#include <string>
#include <vector>

namespace uniference {

// A paragraph of a command's help: the heading it stands under in the commands list
// ("run SCENARIO.json") and its text, one line per line, unindented (an inner indent is kept).
struct CommandTopic {
  std::string heading;
  std::string text;
};

// The options several commands share; a command's help lists those it takes.
enum CommonOption : unsigned { kOutFolder = 1, kSetKey = 2, kQuietOption = 4 };

struct Command {
  std::string name;
  // Each form of the command's arguments, after "uniference NAME "; a '\n' continues a form
  // on a line aligned under its first argument.
  std::vector<std::string> synopses;
  std::vector<CommandTopic> topics;
  // Runs the command on its arguments (those after its name); argv0 locates the binaries
  // beside this one. Returns the exit code.
  int (*run)(const std::vector<std::string>& args, const char* argv0);
  // Which CommonOptions it takes in their shared meaning (an --out of its own is in its topics).
  unsigned common_options = kOutFolder | kSetKey | kQuietOption;
};

// Every command, in the order --help lists them.
const std::vector<Command>& commands();

// The command called `name`, or nullptr.
const Command* find_command(const std::string& name);

// `uniference --help`: every command's synopsis and topics, the common options, the exit
// codes and the names a scenario may give.
std::string usage_text();

// `uniference NAME --help`: that command's synopsis and topics, the common options and the
// exit codes.
std::string command_usage_text(const Command& command);

}  // namespace uniference
