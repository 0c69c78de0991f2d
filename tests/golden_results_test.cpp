// Golden results: every shipped scenario (scenarios/*.json) run through the uniference binary,
// its results.json compared with the values committed in tests/golden/<scenario>.json.
//
// A golden file holds every top-level key of results.json except `setup` (which describes the
// run, not its outcome): tokens, token times, TTFT/TPOT, per-rank compute and waits, bytes,
// phases, serving requests. Each key it holds must come back equal; keys that results.json
// gains later are not compared until the golden file is rewritten. Every shipped scenario
// needs a golden file, so a new scenario cannot slip in untested.
//
// A change that moves the results rewrites the golden files in the same commit, and its
// message says why:
//   UNIFERENCE_WRITE_GOLDEN=1 ctest --test-dir build -R GoldenResults
#include "apps/test/test_dir.h"
#include "tests/cli_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace uniference {
namespace {

using namespace cli;
using json = nlohmann::json;
namespace fs = std::filesystem;

// The scenario files users run: everything in scenarios/ but the schema.
std::vector<std::string> shipped_scenarios() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(UNIFERENCE_SCENARIOS_DIR)) {
    const fs::path& path = entry.path();
    if (path.extension() == ".json" && path.stem() != "schema") names.push_back(path.stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

fs::path golden_path(const std::string& name) {
  return fs::path(UNIFERENCE_GOLDEN_DIR) / (name + ".json");
}

json outcome_of(json results) {
  results.erase("setup");
  return results;
}

// One line per top-level key, so a commit that moves results shows which of them moved.
std::string golden_text(const json& outcome) {
  std::string text = "{\n";
  for (auto item = outcome.begin(); item != outcome.end(); ++item) {
    if (item != outcome.begin()) text += ",\n";
    text += json(item.key()).dump() + ":" + item.value().dump();
  }
  return text + "\n}\n";
}

class GoldenResults : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenResults, MatchTheCommittedValues) {
  const std::string name = GetParam();
  TestDir dir;
  const Result run = run_uniference("run " + scenario(name + ".json") + " --quiet --out " +
                                    dir.path().string());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const json got = outcome_of(json::parse(read_file(dir / "results.json")));

  if (std::getenv("UNIFERENCE_WRITE_GOLDEN") != nullptr) {
    std::ofstream(golden_path(name)) << golden_text(got);
    GTEST_SKIP() << "wrote " << golden_path(name).string();
  }
  ASSERT_TRUE(fs::exists(golden_path(name)))
      << "no golden values for scenarios/" << name << ".json: write them with "
      << "UNIFERENCE_WRITE_GOLDEN=1 ctest -R GoldenResults and commit "
      << golden_path(name).filename().string();
  const json want = json::parse(read_file(golden_path(name).string()));
  ASSERT_TRUE(want.is_object() && !want.empty()) << golden_path(name).string();
  for (const auto& [key, value] : want.items()) {
    ASSERT_TRUE(got.contains(key)) << name << ": results.json has no '" << key << "'";
    // One key at a time, so a failure names what moved; the diff says where inside it.
    EXPECT_EQ(got[key], value) << name << ": '" << key << "' moved; JSON patch from golden: "
                               << json::diff(value, got[key]).dump();
  }
}

// A golden file left behind by a renamed or removed scenario would silently test nothing.
TEST(GoldenFiles, EachNamesAShippedScenario) {
  const std::vector<std::string> shipped = shipped_scenarios();
  for (const auto& entry : fs::directory_iterator(UNIFERENCE_GOLDEN_DIR)) {
    if (entry.path().extension() != ".json") continue;
    EXPECT_NE(std::find(shipped.begin(), shipped.end(), entry.path().stem().string()), shipped.end())
        << entry.path().filename().string() << " has no scenarios/" << entry.path().filename().string();
  }
}

INSTANTIATE_TEST_SUITE_P(Shipped, GoldenResults, ::testing::ValuesIn(shipped_scenarios()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string id = info.param;
                           std::replace(id.begin(), id.end(), '-', '_');
                           return id;
                         });

}  // namespace
}  // namespace uniference
