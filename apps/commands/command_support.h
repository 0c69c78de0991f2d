// What every command of `uniference` shares: its exit codes and how it reports a bad
// command line or a failure, so that every command fails the same way.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace uniference {

inline constexpr int kExitUsage = 2;  // a bad scenario or bad command-line usage

// Prints "uniference: MESSAGE" and the usage to stderr; returns kExitUsage.
int usage_error(const std::string& message);

// Runs a command's body, reporting a bad scenario (exit 2) or any other error (exit 1) in
// one line.
int reporting_errors(const std::function<int()>& body);

// "a,b,c" -> {"a", "b", "c"}; empty items are dropped.
std::vector<std::string> comma_list(const std::string& text);

}  // namespace uniference
