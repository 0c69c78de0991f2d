// uniference sweep: a grid of 3 strategies x 2 rates x 2 seeds over the quickstart, run two at
// a time, and stopped half way and resumed; four of its points run again from their job list
// under GNU parallel and from their Slurm script with the task id set by hand. Each point's
// results must be those of `uniference run` with the same overrides, byte for byte.
#include "apps/test/process.h"
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
using cli::run_command;
using cli::run_uniference;

// The grid's points in the order the sweep numbers them: pointers alphabetically
// (/network/link/rate, then /parallel), the last fastest, the seed faster still.
const std::vector<std::string> kRates = {"1Gbps", "10Gbps"};
const std::vector<std::string> kLayouts = {R"({"strategy": "tp", "tp": 4})", R"({"strategy": "pp", "pp": 4})",
                                           R"({"strategy": "voltage", "sp": 4})"};
const std::vector<int> kSeeds = {1, 2};
constexpr int kPoints = 12;

class SweepCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("sweep-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    write("spec.json", grid_spec(kLayouts, kRates));
  }

  // A sweep of the quickstart over these layouts (and rates, if any), seeds 1 and 2, into out/.
  static std::string grid_spec(const std::vector<std::string>& layouts, const std::vector<std::string>& rates) {
    const auto list = [](const std::vector<std::string>& items, bool quoted) {
      std::string text;
      for (const std::string& item : items) text += (text.empty() ? "" : ", ") + (quoted ? '"' + item + '"' : item);
      return "[" + text + "]";
    };
    std::string grid = R"("/parallel": )" + list(layouts, false);
    if (!rates.empty()) grid += R"(, "/network/link/rate": )" + list(rates, true);
    return R"({"scenario": ")" + cli::scenario("quickstart.json") + R"(", "grid": {)" + grid +
           R"(}, "seeds": [1, 2], "out": "out"})";
  }

  void write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name) << text;
  }

  std::string spec() const { return (dir_ / "spec.json").string(); }
  fs::path out() const { return dir_ / "out"; }

  // Every point's folder name, in order.
  std::vector<std::string> point_names() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(out() / "points")) names.push_back(entry.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  }

  // sweep.csv's rows without the wall time (the one column that differs run to run).
  std::vector<std::string> rows_without_wall_time() const {
    std::vector<std::string> rows;
    std::istringstream csv(read_file((out() / "sweep.csv").string()));
    std::vector<std::string> header;
    int wall = -1;
    for (std::string line; std::getline(csv, line);) {
      std::vector<std::string> fields;
      std::string field;
      bool quoted = false;
      for (char c : line) {
        if (c == '"') quoted = !quoted;
        if (c == ',' && !quoted) {
          fields.push_back(field);
          field.clear();
        } else {
          field += c;
        }
      }
      fields.push_back(field);
      if (wall < 0) wall = int(std::find(fields.begin(), fields.end(), "wall_s") - fields.begin());
      fields.erase(fields.begin() + wall);
      std::string row;
      for (const std::string& f : fields) row += f + "|";
      rows.push_back(row);
    }
    return rows;
  }

  fs::path dir_;
};

TEST_F(SweepCli, TwoAtATimeEveryPointIsWhatRunGivesForItsValues) {
  const cli::Result sweep = run_uniference("sweep " + spec() + " -j 2");
  ASSERT_EQ(sweep.exit_code, 0) << sweep.output;
  const std::vector<std::string> rows = rows_without_wall_time();
  ASSERT_EQ(rows.size(), size_t(kPoints + 1)) << read_file((out() / "sweep.csv").string());
  EXPECT_EQ(rows[0], "point|/network/link/rate|/parallel|seed|exit_code|ttft_ns|tpot_ns|total_ns|message|");

  const std::vector<std::string> names = point_names();
  ASSERT_EQ(names.size(), size_t(kPoints));
  int index = 0;
  for (const std::string& rate : kRates) {
    for (const std::string& layout : kLayouts) {
      for (int seed : kSeeds) {
        const std::string& name = names[size_t(index++)];
        SCOPED_TRACE(name);
        EXPECT_NE(name.find("rate-" + rate), std::string::npos);
        EXPECT_NE(name.find("seed-" + std::to_string(seed)), std::string::npos);
        // Every third point is checked against its own run; the rest by their records.
        const nlohmann::json record = nlohmann::json::parse(read_file((out() / "points" / name / "point.json").string()));
        EXPECT_EQ(record["exit_code"], 0) << record.dump();
        EXPECT_EQ(record["seed"], seed);
        if (index % 3 != 1) continue;
        const fs::path alone = dir_ / ("alone-" + name);
        const cli::Result run = run_uniference("run " + cli::scenario("quickstart.json") + " --quiet --out " +
                                               alone.string() + " --set '/parallel=" + layout +
                                               "' --set /network/link/rate=" + rate +
                                               " --set /seed=" + std::to_string(seed));
        ASSERT_EQ(run.exit_code, 0) << run.output;
        EXPECT_EQ(read_file((alone / "results.json").string()),
                  read_file((out() / "points" / name / "results.json").string()));
        const nlohmann::json results = nlohmann::json::parse(read_file((alone / "results.json").string()));
        EXPECT_EQ(record["total_ns"], results["total_ns"]) << results.dump().substr(0, 400);
      }
    }
  }
}

TEST_F(SweepCli, StoppedHalfWayItResumesWithoutRerunningFinishedPoints) {
  // UNIFERENCE_PROGRESS=1: the progress lines in a file too, to see the sweep under way.
  Process first({UNIFERENCE_BINARY, "sweep", spec(), "-j", "1"}, {{"UNIFERENCE_PROGRESS", "1"}},
                (dir_ / "first.out").string(), (dir_ / "first.err").string());
  ASSERT_TRUE(first.err_contains_within("[3/12 done]", std::chrono::seconds(120))) << first.err();
  ::kill(first.pid(), SIGTERM);
  EXPECT_EQ(first.wait(std::chrono::seconds(60)), 1) << first.err();
  EXPECT_NE(first.err().find("stopped"), std::string::npos) << first.err();

  // What the first run finished, byte for byte (point.json holds its wall time, which a rerun
  // would change); the point it was running when stopped has no record.
  std::map<std::string, std::string> finished;
  for (const std::string& name : point_names()) {
    const fs::path record = out() / "points" / name / "point.json";
    if (fs::exists(record)) finished[name] = read_file(record.string());
  }
  ASSERT_GE(finished.size(), 3u);
  ASSERT_LT(finished.size(), size_t(kPoints));

  const cli::Result resumed = run_uniference("sweep " + spec() + " -j 2");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find(std::to_string(finished.size()) + " already recorded, " +
                                std::to_string(kPoints - int(finished.size())) + " to run"),
            std::string::npos)
      << resumed.output;
  for (const auto& [name, record] : finished) {
    EXPECT_EQ(read_file((out() / "points" / name / "point.json").string()), record) << name << " ran again";
  }
  const std::vector<std::string> rows = rows_without_wall_time();
  ASSERT_EQ(rows.size(), size_t(kPoints + 1));
  for (size_t i = 1; i < rows.size(); ++i) EXPECT_NE(rows[i].find("|0|"), std::string::npos) << rows[i];
}

TEST_F(SweepCli, GnuParallelAndTheSlurmScriptRunTheSameCommands) {
  // Four points of the grid are enough to show the three ways run the same commands: each way
  // runs every point, and the points take a second or two each.
  constexpr int kSmallPoints = 4;
  write("small.json", grid_spec({kLayouts[0], kLayouts[1]}, {}));
  const std::string small = (dir_ / "small.json").string();
  const cli::Result local = run_uniference("sweep " + small + " -j 2 --quiet");
  ASSERT_EQ(local.exit_code, 0) << local.output;
  const std::vector<std::string> expected = rows_without_wall_time();
  ASSERT_EQ(expected.size(), size_t(kSmallPoints + 1));
  const std::string jobs = read_file((out() / "jobs.txt").string());
  EXPECT_EQ(std::count(jobs.begin(), jobs.end(), '\n'), kSmallPoints) << jobs;

  if (run_command("parallel", "--version").exit_code != 0) {
    GTEST_SKIP() << "GNU parallel is not installed (Debian package parallel; scripts/setup.sh installs it)";
  }
  fs::remove_all(out() / "points");
  const cli::Result parallel = run_command("parallel", "--will-cite -j 2 < " + (out() / "jobs.txt").string());
  ASSERT_EQ(parallel.exit_code, 0) << parallel.output;
  ASSERT_EQ(run_uniference("sweep " + small + " --collect").exit_code, 0);
  EXPECT_EQ(rows_without_wall_time(), expected);

  fs::remove_all(out() / "points");
  for (int task = 1; task <= kSmallPoints; ++task) {
    const cli::Result slurm =
        run_command("SLURM_ARRAY_TASK_ID=" + std::to_string(task) + " bash", (out() / "slurm.sh").string());
    ASSERT_EQ(slurm.exit_code, 0) << "task " << task << ": " << slurm.output;
  }
  const cli::Result beyond =
      run_command("SLURM_ARRAY_TASK_ID=" + std::to_string(kSmallPoints + 1) + " bash", (out() / "slurm.sh").string());
  EXPECT_EQ(beyond.exit_code, 2) << beyond.output;
  ASSERT_EQ(run_uniference("sweep " + small + " --collect").exit_code, 0);
  EXPECT_EQ(rows_without_wall_time(), expected);
}

TEST_F(SweepCli, APointWithAnInvalidScenarioIsRecordedWithExitCode2) {
  write("bad.json", R"({"scenario": ")" + cli::scenario("quickstart.json") +
                        R"(", "grid": {"/workload/new_tokens": [2, -1]}, "out": "bad"})");
  const cli::Result sweep = run_uniference("sweep " + (dir_ / "bad.json").string());
  ASSERT_EQ(sweep.exit_code, 0) << sweep.output;
  const std::string csv = read_file((dir_ / "bad" / "sweep.csv").string());
  std::istringstream lines(csv);
  std::string header, good, bad;
  std::getline(lines, header);
  std::getline(lines, good);
  std::getline(lines, bad);
  EXPECT_NE(good.find(",2,42,0,"), std::string::npos) << csv;
  EXPECT_NE(bad.find(",-1,0,2,"), std::string::npos) << csv;
  EXPECT_NE(bad.find("/workload/new_tokens: expected a positive integer, found -1"), std::string::npos) << csv;
}

TEST_F(SweepCli, AWrongSpecIsRefusedAtItsPointer) {
  write("typo.json", R"({"scenario": ")" + cli::scenario("quickstart.json") + R"(", "grdi": {}})");
  cli::Result result = run_uniference("sweep " + (dir_ / "typo.json").string());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("typo.json: /grdi: unknown key"), std::string::npos) << result.output;

  write("scalar.json", R"({"scenario": ")" + cli::scenario("quickstart.json") + R"(", "grid": {"/parallel/tp": 4}})");
  result = run_uniference("sweep " + (dir_ / "scalar.json").string());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("/grid/~1parallel~1tp: expected a non-empty array"), std::string::npos)
      << result.output;

  write("seeds.json", R"({"scenario": ")" + cli::scenario("quickstart.json") +
                          R"(", "grid": {"/parallel/tp": [4]}, "seeds": [1, -2]})");
  result = run_uniference("sweep " + (dir_ / "seeds.json").string());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("/seeds/1: expected a whole number"), std::string::npos) << result.output;

  result = run_uniference("sweep " + spec() + " --point 13");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("the sweep has 12 points"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace uniference
