#include "apps/format_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>

namespace uniference {

std::invalid_argument format_file_error(const std::string& path, const std::string& kind,
                                        const std::string& what, const std::string& hint) {
  return std::invalid_argument(kind + " " + path + ": " + what + " (" + hint + ")");
}

nlohmann::json read_format_file(const std::string& path, const std::string& kind, const std::string& format,
                                const std::string& hint) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read " + kind + " " + path + ": " + std::strerror(errno));
  nlohmann::json file = nlohmann::json::parse(in, nullptr, false);
  if (file.is_discarded()) throw format_file_error(path, kind, "not valid JSON", hint);
  if (!file.is_object() || file.value("format", "") != format) {
    throw format_file_error(path, kind, "\"format\" is not \"" + format + "\"", hint);
  }
  return file;
}

}  // namespace uniference
