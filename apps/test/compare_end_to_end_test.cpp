#include "apps/compare_end_to_end.h"

#include "apps/run_scenario.h"
#include "apps/test/test_dir.h"
#include "apps/test/tool_on_path.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

namespace uniference {
namespace {

void write(const std::filesystem::path& path, const std::string& text) { std::ofstream(path) << text; }

// Whether reading `text` as an end-to-end CSV fails with a message holding `part`.
void expect_bad(const TestDir& dir, const std::string& text, const std::string& part) {
  write(dir / "bad.csv", text);
  try {
    read_end_to_end(dir / "bad.csv");
    ADD_FAILURE() << "accepted: " << text;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(CompareEndToEnd, ReadsScenariosOverridesMetricsAndRequests) {
  TestDir dir;
  write(dir / "runs.csv",
        "scenario,set,metric,request,seconds\n"
        "s.json,/parallel/strategy=pp;/parallel/pp=2,ttft,,0.25\n"
        "/abs/t.json,,e2e,7,1.5\n");
  EXPECT_TRUE(is_end_to_end_csv(dir / "runs.csv"));
  const std::vector<EndToEndMeasurement> rows = read_end_to_end(dir / "runs.csv");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].scenario, dir / "s.json");
  EXPECT_EQ(rows[0].overrides, (std::vector<std::string>{"/parallel/strategy=pp", "/parallel/pp=2"}));
  EXPECT_EQ(rows[0].metric, "ttft");
  EXPECT_FALSE(rows[0].request);
  EXPECT_DOUBLE_EQ(rows[0].seconds, 0.25);
  EXPECT_EQ(rows[1].scenario, "/abs/t.json");
  EXPECT_TRUE(rows[1].overrides.empty());
  EXPECT_EQ(rows[1].request, 7);

  write(dir / "collective.csv", "op,ranks,bytes,seconds\nall_reduce,2,4096,0.001\n");
  EXPECT_FALSE(is_end_to_end_csv(dir / "collective.csv"));
}

TEST(CompareEndToEnd, BadRowsNameFileLineAndField) {
  TestDir dir;
  expect_bad(dir, "scenario,seconds\ns.json,1\n", "bad.csv:1: the header has no column metric");
  expect_bad(dir, "scenario,metric,seconds\ns.json,latency,1\n", "bad.csv:2: metric \"latency\"");
  expect_bad(dir, "scenario,metric,seconds\ns.json,e2e,1\n", "bad.csv:2: metric e2e is a request's");
  expect_bad(dir, "scenario,metric,request,seconds\ns.json,total,3,1\n", "bad.csv:2: metric total is the run's");
  expect_bad(dir, "scenario,metric,request,seconds\ns.json,ttft,x,1\n", "bad.csv:2: request must be");
  expect_bad(dir, "scenario,metric,seconds\ns.json,ttft,1\ns.json,ttft,-2\n", "bad.csv:3: seconds must be");
  expect_bad(dir, "scenario,metric,seconds\n,ttft,1\n", "bad.csv:2: the scenario field is empty");
}

TEST(CompareEndToEnd, AgainstAnotherMeasurementPairsTheSameCases) {
  // The other CSV sits in a folder of its own, names the same scenario by another path, and
  // lists its rows in another order, with a case the measured file lacks.
  TestDir dir;
  std::filesystem::create_directories(dir / "sim");
  write(dir / "runs.csv",
        "scenario,set,metric,request,seconds\n"
        "s.json,/parallel/tp=2,ttft,,0.2\n"
        "s.json,/parallel/tp=2,tpot,,0.02\n"
        "s.json,,e2e,3,1.0\n");
  write(dir / "sim/runs.csv",
        "scenario,set,metric,request,seconds\n"
        "../s.json,,e2e,3,1.25\n"
        "../s.json,/parallel/pp=2,ttft,,9\n"
        "../s.json,/parallel/tp=2,tpot,,0.015\n"
        "../s.json,/parallel/tp=2,ttft,,0.19\n");
  const std::vector<ComparedCase> cases =
      compare_end_to_end_against(read_end_to_end(dir / "runs.csv"), read_end_to_end(dir / "sim/runs.csv"), "sim");
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_EQ(cases[0].measured.op, "ttft");
  EXPECT_DOUBLE_EQ(cases[0].predicted_seconds, 0.19);
  EXPECT_DOUBLE_EQ(cases[1].predicted_seconds, 0.015);
  EXPECT_EQ(cases[2].measured.op, "e2e #3");
  EXPECT_DOUBLE_EQ(cases[2].predicted_seconds, 1.25);
  EXPECT_EQ(cases[0].algorithm, "s.json /parallel/tp=2");
  EXPECT_EQ(cases[0].measured.ranks, 0) << "neither file says how many ranks ran";

  write(dir / "short.csv", "scenario,set,metric,seconds\ns.json,/parallel/tp=2,ttft,0.19\n");
  try {
    compare_end_to_end_against(read_end_to_end(dir / "runs.csv"), read_end_to_end(dir / "short.csv"), "short.csv");
    ADD_FAILURE() << "a case missing from the other file was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("short.csv has no tpot of s.json /parallel/tp=2"), std::string::npos)
        << e.what();
  }
  write(dir / "twice.csv", "scenario,metric,seconds\ns.json,ttft,1\ns.json,ttft,2\n");
  EXPECT_THROW(compare_end_to_end_against(read_end_to_end(dir / "runs.csv"), read_end_to_end(dir / "twice.csv"),
                                          "twice.csv"),
               std::invalid_argument);
}

TEST(CompareEndToEnd, FiguresOfARunAndOfItsRequests) {
  RunRecord record;
  record.total_ns = 900;
  // Two prompts: tokens at 100, 300, 500 and at 200, 400.
  record.token_times_ns = {100, 200, 300, 400, 500};
  record.token_prompts = {0, 1, 0, 1, 0};
  record.tokens = {1, 2, 3, 4, 5};
  RequestRecord request;
  request.id = 4;
  request.arrival_ns = 1000;
  request.first_token_ns = 1600;
  request.finish_ns = 2600;
  request.new_tokens = 5;
  record.requests = {request};
  const auto figure = [&](const std::string& metric, std::optional<int64_t> id = std::nullopt) {
    EndToEndMeasurement m;
    m.metric = metric;
    m.request = id;
    return end_to_end_figure(record, m);
  };
  EXPECT_DOUBLE_EQ(figure("total"), 900e-9);
  EXPECT_DOUBLE_EQ(figure("ttft"), 150e-9);  // mean of 100 and 200
  EXPECT_DOUBLE_EQ(figure("tpot"), 200e-9);  // (500 - 100) / 2 and (400 - 200) / 1
  EXPECT_DOUBLE_EQ(figure("ttft", 4), 600e-9);
  EXPECT_DOUBLE_EQ(figure("e2e", 4), 1600e-9);
  EXPECT_DOUBLE_EQ(figure("tpot", 4), 250e-9);  // 1000 ns over 4 later tokens
  EXPECT_THROW(figure("e2e", 5), std::invalid_argument);
}

// A real simulated run read back as if measured: its own figures have no error, and figures
// twice the simulated ones are 50% off, which MAPE and the table say.
TEST(CompareEndToEnd, TheSimulatorsOwnRunAgainstItself) {
  TestDir dir;
  const std::string scenario = std::string(UNIFERENCE_SCENARIOS_DIR) + "/quickstart.json";
  const RunRecord record = run_scenario(load_scenario(scenario, {"/workload/new_tokens=3"}), false).record;
  char text[512];
  std::snprintf(text, sizeof text,
                "scenario,set,metric,seconds\n%s,/workload/new_tokens=3,ttft,%.9g\n"
                "%s,/workload/new_tokens=3,total,%.9g\n",
                scenario.c_str(), record.ttft_ns() * 1e-9, scenario.c_str(), 2 * record.total_ns * 1e-9);
  write(dir / "runs.csv", text);
  int runs = 0;
  const std::vector<ComparedCase> cases = compare_end_to_end(
      read_end_to_end(dir / "runs.csv"),
      [&](const std::string& path, const std::vector<std::string>& overrides) {
        ++runs;
        return run_scenario(load_scenario(path, overrides), false).record;
      });
  EXPECT_EQ(runs, 1) << "one simulation per scenario and overrides";
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_NEAR(cases[0].error_percent(), 0.0, 1e-4);
  EXPECT_NEAR(cases[1].error_percent(), -50.0, 1e-4);
  EXPECT_EQ(cases[0].measured.ranks, 4);
  const std::string table = comparison_table(cases, 0);
  EXPECT_NE(table.find("all cases: MAPE 25.00%"), std::string::npos) << table;
  // The report's plots need gnuplot; what is checked above holds without it.
  if (!tool_on_path("gnuplot")) GTEST_SKIP() << "the report's plots need gnuplot, which is not on PATH";
  write_comparison_report(cases, 0, "a run against itself", dir / "report");
  EXPECT_GT(std::filesystem::file_size(dir / "report/error-by-case.png"), 0u);
}

// With --repeats, each case is simulated that many times and every figure is the median of
// its runs: hand-made runs of total 300, 100, 200 (and 400) ns give 200 (and 250) ns.
TEST(CompareEndToEnd, RepeatsTakeTheMedianOfTheRuns) {
  EndToEndMeasurement m;
  m.scenario = "s.json";
  m.metric = "total";
  m.seconds = 200e-9;
  for (const auto& [repeats, expected] : {std::pair<int, double>{3, 200e-9}, {4, 250e-9}}) {
    const std::vector<int64_t> totals = {300, 100, 200, 400};
    int runs = 0;
    const std::vector<ComparedCase> cases = compare_end_to_end(
        {m, m},
        [&](const std::string&, const std::vector<std::string>&) {
          RunRecord record;
          record.total_ns = totals.at(size_t(runs++));
          record.ranks.resize(2);
          return record;
        },
        {}, repeats);
    EXPECT_EQ(runs, repeats) << "the same case twice is simulated once, repeats times";
    ASSERT_EQ(cases.size(), 2u);
    EXPECT_DOUBLE_EQ(cases[0].predicted_seconds, expected);
    EXPECT_DOUBLE_EQ(cases[1].predicted_seconds, expected);
    EXPECT_EQ(cases[0].measured.ranks, 2);
  }
  EXPECT_THROW(compare_end_to_end({m}, [](const std::string&, const std::vector<std::string>&) { return RunRecord{}; }, {}, 0),
               std::invalid_argument);
}

}  // namespace
}  // namespace uniference
