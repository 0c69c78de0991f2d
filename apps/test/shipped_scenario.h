// A scenario shipped in scenarios/ (UNIFERENCE_SCENARIOS_DIR, which the test target defines),
// as JSON for a test to edit before parsing it.
#pragma once

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <string>

namespace uniference::test {

inline nlohmann::json shipped(const std::string& file) {
  std::ifstream in(std::string(UNIFERENCE_SCENARIOS_DIR) + "/" + file);
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
}

}  // namespace uniference::test
