// The table of commands, and the help text assembled from it.
#include "apps/commands/command.h"

#include "apps/reference.h"

#include <sstream>
#include <utility>

namespace uniference {

// Each command's entry, defined in its own file (apps/commands/NAME.cpp).
Command run_command();
Command validate_command();
Command reference_command();
Command colltest_command();
Command crosscheck_command();
Command compare_command();
Command profile_network_command();
Command profile_device_command();
Command profile_command();
Command launch_command();
Command sweep_command();
Command plan_command();
Command report_command();

namespace {

const char* kAbout = R"(Simulates distributed inference of real libtorch shard code over a packet-level ns-3
network, as described by SCENARIO.json (see docs/scenarios.md for every key).
)";

// The shared options' help, each with the CommonOption it belongs to.
const std::pair<unsigned, const char*> kCommonOptions[] = {
    {kOutFolder, R"(  --out DIR           output folder (default: out/<scenario name>); created if missing;
                      files are replaced atomically, nothing is written for a failed run
)"},
    {kSetKey, R"(  --set POINTER=VALUE override one key of the scenario by JSON pointer before it is
                      checked, e.g. --set /network/link/rate=10Gbps; VALUE is read as
                      JSON when it is JSON (10, true, {...}), else as a string; repeatable
)"},
    {kQuietOption, R"(  --quiet             no progress line on stderr (shown on a terminal only, or in a
                      pipe or log too with UNIFERENCE_PROGRESS=1 in the environment)
)"},
};

// "options:" and those of `mask` among the shared ones, then --help.
std::string common_options_text(unsigned mask) {
  std::string out = "options:\n";
  for (const auto& [option, text] : kCommonOptions) {
    if (mask & option) out += text;
  }
  return out + "  -h, --help          this text\n";
}

const char* kExitCodes = R"(exit codes:
  0  the run completed
  1  a runtime error (an exception in shard code, an output that cannot be written, a
     wait past /collectives/timeout), or a fault of /faults the run cannot finish after
     (the report names the wait, the faults and the time; the outputs say "partial")
  2  a bad scenario (the message names the JSON path) or bad command-line usage
  3  deadlock with no fault: every unfinished rank is blocked and nothing is in flight
     (the report names each blocked rank, its operation, its peer or group, tag, and since
     when)
  130, 143  run stopped by SIGINT (Ctrl-C) or SIGTERM: what it had simulated by then is
     written, results.json's "partial" saying when and why
)";

// A topic's text starts in this column; a heading too long to leave a gap before it stands
// on a line of its own.
constexpr size_t kTextColumn = 22;

void append_synopses(const Command& command, bool first_of_usage, std::string& out) {
  const std::string lead = "uniference " + command.name + " ";
  for (const std::string& synopsis : command.synopses) {
    out += first_of_usage ? "usage: " : "       ";
    first_of_usage = false;
    std::istringstream lines(synopsis);
    std::string line;
    for (bool first_line = true; std::getline(lines, line); first_line = false) {
      out += first_line ? lead : "       " + std::string(lead.size(), ' ');
      out += line + "\n";
    }
  }
}

void append_topics(const Command& command, std::string& out) {
  for (const CommandTopic& topic : command.topics) {
    std::string line = "  " + topic.heading;
    std::istringstream lines(topic.text);
    std::string text;
    if (line.size() + 2 <= kTextColumn) {
      line.resize(kTextColumn, ' ');
    } else {
      out += line + "\n";
      line = std::string(kTextColumn, ' ');
    }
    for (bool first_line = true; std::getline(lines, text); first_line = false) {
      out += (first_line ? line : std::string(kTextColumn, ' ')) + text + "\n";
    }
  }
}

}  // namespace

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      run_command(),       validate_command(),        reference_command(),
      colltest_command(),  crosscheck_command(),      compare_command(),
      profile_network_command(), profile_device_command(), profile_command(),
      launch_command(),    sweep_command(),           plan_command(),
      report_command(),
  };
  return table;
}

const Command* find_command(const std::string& name) {
  for (const Command& command : commands()) {
    if (command.name == name) return &command;
  }
  return nullptr;
}

std::string usage_text() {
  std::string out;
  bool first = true;
  for (const Command& command : commands()) {
    append_synopses(command, first, out);
    first = false;
  }
  out += "       uniference --help\n";
  out += "       uniference --version   which ns-3 it runs on, logging, MPI\n\n";
  out += kAbout;
  out += "\ncommands:\n";
  for (const Command& command : commands()) append_topics(command, out);
  out += "\n";
  out += common_options_text(kOutFolder | kSetKey | kQuietOption);
  out += "\n";
  out += kExitCodes;
  out += "\nregistered names (scenario values):\n";
  return out + registered_names_help();
}

std::string command_usage_text(const Command& command) {
  std::string out;
  append_synopses(command, true, out);
  out += "\n";
  append_topics(command, out);
  out += "\n";
  out += common_options_text(command.common_options);
  out += "\n";
  return out + kExitCodes;
}

}  // namespace uniference
