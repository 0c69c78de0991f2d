// uniference plan through the binary, on the quickstart's 1 Gbit/s star over two devices: the
// winner is no worse than the default plan, its scenario simulates to the figures the plan
// reported, the static memory estimate of every plan checked is what its run's model reported,
// a second run of the same spec resumes and writes the same files, and a bad spec is refused at
// its pointer.
#include "tests/cli_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace uniference {
namespace {

namespace fs = std::filesystem;
using cli::read_file;
using cli::run_uniference;

// plan.csv's rows by plan name: column name -> value.
std::map<std::string, std::map<std::string, std::string>> read_plan_csv(const fs::path& path) {
  std::istringstream in(read_file(path.string()));
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  std::stringstream names(line);
  for (std::string name; std::getline(names, name, ',');) header.push_back(name);
  std::map<std::string, std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    std::map<std::string, std::string> row;
    std::stringstream cells(line);
    std::string cell;
    for (size_t i = 0; i < header.size() && std::getline(cells, cell, ','); ++i) row[header[i]] = cell;
    if (cell.size() && cell.front() == '"') continue;  // a quoted message: not needed here
    rows[row["plan"]] = row;
  }
  return rows;
}

class PlanCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("plan-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  std::string write_spec(const std::string& body) const {
    const fs::path path = dir_ / "spec.json";
    std::ofstream(path) << R"({"scenario": ")" << cli::scenario("quickstart.json") << R"(", "out": ")"
                        << (dir_ / "out").string() << "\", " << body << "}";
    return path.string();
  }
  fs::path dir_;
};

TEST_F(PlanCli, TheWinnerBeatsOrEqualsTheDefaultAndDeploysAsPlanned) {
  const std::string spec = write_spec(
      R"("devices": {"count": 2}, "search": {"strategies": ["tp", "pp", "dp"]}, "check": 2, "seed": 7)");
  const cli::Result result = run_uniference("plan " + spec + " -j 2 --quiet");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("Winner: "), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("Deploy it: uniference launch -n "), std::string::npos) << result.output;

  const auto rows = read_plan_csv(dir_ / "out" / "plan.csv");
  // The default tp2; pp2 split evenly (alike devices finish no sooner split otherwise); dp1
  // and dp2.
  EXPECT_EQ(rows.size(), 4u);
  ASSERT_EQ(rows.count("default-tp2"), 1u);
  std::string winner;
  for (const auto& [name, row] : rows) {
    if (row.at("winner") == "yes") winner = name;
  }
  ASSERT_FALSE(winner.empty());
  const auto& w = rows.at(winner);
  const auto& d = rows.at("default-tp2");
  ASSERT_EQ(d.at("packet_exit"), "0");
  EXPECT_LE(std::stod(w.at("packet_tpot_ns")), std::stod(d.at("packet_tpot_ns")));

  // The winner's scenario, simulated on its own, gives the figures the plan reported.
  const cli::Result run = run_uniference("run " + (dir_ / "out" / "winner.json").string() + " --quiet --out " +
                                         (dir_ / "winner-run").string());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json results = nlohmann::json::parse(read_file((dir_ / "winner-run" / "results.json").string()));
  EXPECT_NEAR(results["tpot_ns"].get<double>(), std::stod(w.at("packet_tpot_ns")), 0.001);
  EXPECT_EQ(results["ttft_ns"].get<int64_t>(), std::stoll(w.at("packet_ttft_ns")));

  // Every plan checked: the static estimate is what its run's model reported, rank by rank's
  // largest.
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(dir_ / "out" / "check" / "points")) {
    const std::string name = entry.path().filename().string().substr(5);  // "0001_" + plan
    const nlohmann::json r = nlohmann::json::parse(read_file((entry.path() / "results.json").string()));
    uint64_t fullest = 0;
    for (const auto& rank : r["ranks"]) fullest = std::max(fullest, rank["memory"]["total_bytes"].get<uint64_t>());
    EXPECT_EQ(std::to_string(fullest), rows.at(name).at("memory_bytes")) << name;
    ++checked;
  }
  EXPECT_GE(checked, 2);

  // Run again: everything is recorded, and the files are the same.
  const std::string csv = read_file((dir_ / "out" / "plan.csv").string());
  const std::string html = read_file((dir_ / "out" / "plan.html").string());
  const cli::Result again = run_uniference("plan " + spec + " --quiet");
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_EQ(read_file((dir_ / "out" / "plan.csv").string()), csv);
  EXPECT_EQ(read_file((dir_ / "out" / "plan.html").string()), html);
  EXPECT_NE(html.find("<svg class=\"plot\""), std::string::npos);
}

TEST_F(PlanCli, ABadSpecIsRefusedAtItsPointer) {
  const cli::Result result = run_uniference("plan " + write_spec(R"("objective": "fastest")"));
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("spec.json: /objective: expected one of"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace uniference
