// Reading a file in one of the project's own JSON formats ({"format": "uniference-...", ...}:
// network profiles, wake-up latencies), with errors that name the file and say how to write one.
#pragma once

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace uniference {

// "KIND PATH: WHAT (HINT)": a problem with the file at `path`.
std::invalid_argument format_file_error(const std::string& path, const std::string& kind,
                                        const std::string& what, const std::string& hint);

// The object in the file at `path`, whose "format" must be `format`. Throws
// std::invalid_argument when it cannot be read ("cannot read KIND PATH: ..."), is not JSON or
// not of that format (format_file_error).
nlohmann::json read_format_file(const std::string& path, const std::string& kind, const std::string& format,
                                const std::string& hint);

}  // namespace uniference
