#include "apps/compare.h"

#include "apps/test/test_dir.h"
#include "apps/test/tool_on_path.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace uniference {
namespace {

TEST(Compare, MapeAndRSquaredOfAHandMadeDataset) {
  const std::vector<double> measured = {1, 2, 3, 4};
  const std::vector<double> predicted = {1.1, 1.8, 3.3, 4.0};
  // |errors| / measured: 0.1, 0.1, 0.1, 0 -> mean 0.075.
  EXPECT_NEAR(mape(predicted, measured), 7.5, 1e-9);
  // Mean 2.5; total sum of squares 2.25 + 0.25 + 0.25 + 2.25 = 5; residual 0.01 + 0.04 +
  // 0.09 + 0 = 0.14; R² = 1 - 0.14 / 5.
  EXPECT_NEAR(r_squared(predicted, measured), 0.972, 1e-12);
  EXPECT_DOUBLE_EQ(r_squared(measured, measured), 1.0);
  EXPECT_THROW(mape({1}, {1, 2}), std::invalid_argument);
}

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

TEST(Compare, ReadsColltestsCsvAndPlainOnes) {
  TestDir dir;
  write(dir / "colltest.csv",
        "op,ranks,bytes,algorithm,time_s,algbw_GBps,busbw_GBps\n"
        "all_reduce,4,4096,gloo,0.0097892102,0.00041842,0.00062763\n");
  const std::vector<Measurement> from_colltest = read_measurements(dir / "colltest.csv");
  ASSERT_EQ(from_colltest.size(), 1u);
  EXPECT_EQ(from_colltest[0].op, "all_reduce");
  EXPECT_EQ(from_colltest[0].ranks, 4);
  EXPECT_EQ(from_colltest[0].bytes, 4096u);
  EXPECT_DOUBLE_EQ(from_colltest[0].seconds, 0.0097892102);

  write(dir / "plain.csv", "seconds,bytes,op,ranks\r\n0.5,1048576,broadcast,2\r\n\r\n");
  const std::vector<Measurement> plain = read_measurements(dir / "plain.csv");
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(plain[0].op, "broadcast");
  EXPECT_DOUBLE_EQ(plain[0].seconds, 0.5);
}

// The message of the error read_measurements throws for `text`.
std::string error_for(const TestDir& dir, const std::string& text) {
  write(dir / "bad.csv", text);
  try {
    read_measurements(dir / "bad.csv");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "accepted";
}

TEST(Compare, BadMeasurementsNameFileLineAndField) {
  TestDir dir;
  const std::string file = dir / "bad.csv";
  EXPECT_EQ(error_for(dir, "op,ranks,bytes\nall_reduce,2,4096\n"),
            file + ":1: the header has no column seconds (needs op, ranks, bytes and seconds or time_s)");
  EXPECT_EQ(error_for(dir, "op,ranks,bytes,seconds\nall_reduce,2,4096,0.1\nall_reduce,2,4096,fast\n"),
            file + ":3: seconds must be a positive number, found \"fast\"");
  EXPECT_EQ(error_for(dir, "op,ranks,bytes,seconds\nallreduce,2,4096,0.1\n"),
            file + ":2: op \"allreduce\" is not an operation colltest sizes");
  EXPECT_EQ(error_for(dir, "op,ranks,bytes,seconds\nall_reduce,1,4096,0.1\n"),
            file + ":2: ranks must be a whole number from 2 to 1000000");
  // Past what int and uint64 hold, converting would be undefined: refused first.
  EXPECT_EQ(error_for(dir, "op,ranks,bytes,seconds\nall_reduce,1e300,4096,0.1\n"),
            file + ":2: ranks must be a whole number from 2 to 1000000");
  EXPECT_EQ(error_for(dir, "op,ranks,bytes,seconds\nall_reduce,2,1e300,0.1\n"),
            file + ":2: bytes must be at most 2^53 (9.0e15)");
  EXPECT_EQ(error_for(dir, "op,ranks,bytes,seconds\n"), file + ": no measurements after the header");
}

TEST(Compare, OneMeasurementPredictsAnotherCaseByCase) {
  const std::vector<Measurement> first = {{"all_reduce", 2, 1 << 20, 0.100},
                                          {"all_gather", 2, 1 << 20, 0.050},
                                          {"broadcast", 4, 4096, 0.002}};
  // A rerun in another order: 10% slower, 20% faster, the same.
  const std::vector<Measurement> rerun = {{"broadcast", 4, 4096, 0.002},
                                          {"all_reduce", 2, 1 << 20, 0.110},
                                          {"all_gather", 2, 1 << 20, 0.040}};
  const std::vector<ComparedCase> cases = compare_with_measurements(first, rerun, "rerun.csv");
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_NEAR(cases[0].error_percent(), 10.0, 1e-9);
  EXPECT_NEAR(cases[1].error_percent(), -20.0, 1e-9);
  EXPECT_NEAR(cases[2].error_percent(), 0.0, 1e-9);
  const std::string table = comparison_table(cases, 1 << 20, "other");
  // Sizes >= 1 MiB: (10% + 20%) / 2.
  EXPECT_NE(table.find(">= 1 MiB: MAPE 15.00%"), std::string::npos) << table;
  EXPECT_NE(table.find("other"), std::string::npos) << table;
  EXPECT_EQ(table.find("simulated"), std::string::npos) << table;

  try {
    compare_with_measurements(first, {rerun[0], rerun[1]}, "rerun.csv");
    ADD_FAILURE() << "a case missing from the other measurement was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "rerun.csv has no all_gather on 2 ranks at 1048576 bytes");
  }
  EXPECT_THROW(compare_with_measurements(first, {rerun[0], rerun[0], rerun[1]}, "twice.csv"),
               std::invalid_argument);
}

// A measured case whose algorithm column names a collective preset (a deployment's colltest, the
// Python sweep) is simulated by that preset; --preset on the command line overrides every row.
TEST(Compare, ACaseNamingAPresetRunsThatPreset) {
  TestDir dir;
  const CheckedScenario scenario =
      check_scenario(load_scenario(std::string(UNIFERENCE_SCENARIOS_DIR) + "/quickstart.json", {}));
  write(dir / "deployed.csv",
        "op,ranks,bytes,algorithm,time_s\n"
        "all_to_all,2,65536,gloo,0.01\n"
        "all_to_all,2,65536,gloo-receive-first,0.01\n"
        "all_to_all,2,65536,mystery,0.01\n");
  ColltestOptions options;
  options.iters = 1;
  const std::vector<ComparedCase> cases =
      compare_measurements(scenario, read_measurements(dir / "deployed.csv"), options);
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_EQ(cases[0].algorithm, "gloo/gloo");
  EXPECT_EQ(cases[1].algorithm, "gloo-receive-first/gloo");
  // Not a preset: the scenario's own choice (quickstart names none: the default algorithm).
  EXPECT_EQ(cases[2].algorithm, "direct");
  options.preset = "nccl";
  for (const ComparedCase& c : compare_measurements(scenario, read_measurements(dir / "deployed.csv"), options)) {
    EXPECT_EQ(c.algorithm, "direct");  // NCCL's grouped point-to-point
  }
}

// The simulator's own sweep, read back as measurements, compares with no error at all: the
// comparison simulates exactly the measured sizes, and the simulation is deterministic.
TEST(Compare, TheSimulatorsOwnSweepHasNoError) {
  TestDir dir;
  const CheckedScenario scenario =
      check_scenario(load_scenario(std::string(UNIFERENCE_SCENARIOS_DIR) + "/quickstart.json", {}));
  ColltestOptions options;
  options.op = "all_gather";
  options.ranks = 2;
  options.min_bytes = 8192;
  options.max_bytes = 65536;
  options.step_factor = 8;
  options.iters = 2;
  write(dir / "sim.csv", colltest_csv(run_colltest(scenario, options)));
  const std::vector<ComparedCase> cases =
      compare_measurements(scenario, read_measurements(dir / "sim.csv"), options);
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].measured.bytes, 8192u);
  EXPECT_EQ(cases[1].measured.bytes, 65536u);
  for (const ComparedCase& c : cases) EXPECT_NEAR(c.error_percent(), 0.0, 1e-6);

  // The same cases "measured" 1.25 times slower: the simulator must still predict its own
  // times, so every error is 1 / 1.25 - 1 = -20% (an echo of the measured column gives 0).
  std::ostringstream slower;
  slower.precision(17);
  slower << "op,ranks,bytes,seconds\n";
  for (const ComparedCase& c : cases) slower << "all_gather,2," << c.measured.bytes << "," << 1.25 * c.predicted_seconds << "\n";
  write(dir / "slower.csv", slower.str());
  const std::vector<ComparedCase> against_slower =
      compare_measurements(scenario, read_measurements(dir / "slower.csv"), options);
  ASSERT_EQ(against_slower.size(), 2u);
  for (const ComparedCase& c : against_slower) EXPECT_NEAR(c.error_percent(), -20.0, 1e-9) << c.measured.bytes;
  EXPECT_NE(comparison_table(against_slower, 1 << 20).find("all sizes: MAPE 20.00%"), std::string::npos);

  const std::string table = comparison_table(cases, 1 << 20);
  EXPECT_NE(table.find("all sizes: MAPE 0.00%, R² 1.0000 over 2 cases"), std::string::npos) << table;
  EXPECT_NE(table.find(">= 1 MiB: no cases"), std::string::npos) << table;

  // The report's plots need gnuplot; what is checked above holds without it.
  if (!tool_on_path("gnuplot")) GTEST_SKIP() << "the report's plots need gnuplot, which is not on PATH";
  write_comparison_report(cases, 1 << 20, "sweep against itself", dir / "report");
  EXPECT_TRUE(std::filesystem::exists(dir / "report/report.md"));
  EXPECT_GT(std::filesystem::file_size(dir / "report/predicted-vs-measured.png"), 0u);
  EXPECT_GT(std::filesystem::file_size(dir / "report/error-vs-size.png"), 0u);
}

}  // namespace
}  // namespace uniference
