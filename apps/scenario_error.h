// The one kind of error a bad scenario produces, wherever it is found: while reading the
// file, while checking names against the registries, or when compute rejects a value.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace uniference {

// A scenario that cannot be used. what() reads
//   "<source>: <pointer>: <detail>"   e.g. quickstart.json: /workload/new_tokens: expected ...
//   "<source>:<line>:<column>: invalid JSON: <detail>"   for syntax errors
//   "<source>: <detail>"              for the whole file (cannot open, top level not an object)
// The runner maps it to exit code 2 (docs/design.md, scenarios). Code outside this file that finds
// a scenario value unusable (compute rejecting tp for a model) throws it too, with the path
// of the value it rejects, so the user sees one kind of error for one kind of mistake.
class ScenarioError : public std::runtime_error {
 public:
  ScenarioError(std::string source, std::string pointer, std::string detail);
  // A syntax error at a 1-based line and column.
  ScenarioError(std::string source, size_t line, size_t column, std::string detail);

  const std::string& source() const { return source_; }
  // JSON pointer of the offending value ("/network/link/rate"); empty for the whole file.
  const std::string& pointer() const { return pointer_; }
  // What was expected and what was found, without source and pointer.
  const std::string& detail() const { return detail_; }
  // Position of a syntax error; 0 for errors about values.
  size_t line() const { return line_; }
  size_t column() const { return column_; }

 private:
  std::string source_;
  std::string pointer_;
  std::string detail_;
  size_t line_ = 0;
  size_t column_ = 0;
};

}  // namespace uniference
