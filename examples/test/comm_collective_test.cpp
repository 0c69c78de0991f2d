// The comm-collective example run as a user runs it: it must exit 0 and print, per
// repetition, a time the links allow and algbw/busbw that follow from it (nccl-tests'
// definitions). Bounds come from the link physics: 1 Gbit/s, 50 us per link, two links per
// path through the star's hub.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr double kBytes = 1048576;
constexpr double kRate = 1e9;        // bit/s
constexpr double kDelay = 50e-6;     // s, one link
constexpr int kRanks = 4;

struct Row {
  double time_s, algbw, busbw;
};

std::vector<Row> run_example(const std::string& op, int* exit_code) {
  std::string command = std::string(EXAMPLE_BINARY) + " --op=" + op +
                        " --ranks=4 --bytes=1048576 --reps=2 --rate=1Gbps --delay=50us";
  FILE* pipe = popen(command.c_str(), "r");
  std::string output;
  char buffer[4096];
  size_t n;
  while (pipe != nullptr && (n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  int status = pipe == nullptr ? -1 : pclose(pipe);
  *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::vector<Row> rows;
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    int rep;
    Row row;
    double time_us;
    if (fields >> rep >> time_us >> row.algbw >> row.busbw) {
      row.time_s = time_us * 1e-6;
      rows.push_back(row);
    }
  }
  return rows;
}

struct Case {
  const char* op;
  double bus_factor;  // nccl-tests
  double lower_s;     // no schedule can beat this on these links
  double upper_s;     // a generous ceiling: the schedule's own alpha-beta time x 1.25
};

void PrintTo(const Case& c, std::ostream* out) { *out << c.op; }

class CommCollectiveExample : public ::testing::TestWithParam<Case> {};

TEST_P(CommCollectiveExample, PrintsTimesTheLinksAllowAndBandwidthsThatFollow) {
  const Case& c = GetParam();
  int exit_code = -1;
  std::vector<Row> rows = run_example(c.op, &exit_code);
  ASSERT_EQ(exit_code, 0);
  ASSERT_EQ(rows.size(), 2u) << "one row per repetition";
  for (const Row& row : rows) {
    ASSERT_TRUE(std::isfinite(row.time_s) && std::isfinite(row.algbw) && std::isfinite(row.busbw));
    EXPECT_GE(row.time_s, c.lower_s) << c.op;
    EXPECT_LE(row.time_s, c.upper_s) << c.op;
    // Printed to 4 decimals in GB/s.
    EXPECT_NEAR(row.algbw, kBytes / row.time_s / 1e9, 6e-5) << c.op;
    EXPECT_NEAR(row.busbw, row.algbw * c.bus_factor, 1e-4) << c.op;
  }
}

const double kWire = kBytes * 8 / kRate;  // S on one link
const double kHop = 2 * kDelay;           // rank -> hub -> rank

INSTANTIATE_TEST_SUITE_P(
    Ops, CommCollectiveExample,
    ::testing::Values(
        Case{"send_recv", 1.0, kWire + kHop, 1.25 * (kWire + 3 * kHop)},
        Case{"all_reduce", 2.0 * (kRanks - 1) / kRanks,
             2.0 * (kRanks - 1) / kRanks * kWire + 2 * (kRanks - 1) * kHop,
             1.25 * (2.0 * (kRanks - 1) / kRanks * kWire + 2 * (kRanks - 1) * 3 * kHop)},
        Case{"all_gather", double(kRanks - 1) / kRanks,
             double(kRanks - 1) / kRanks * kWire + (kRanks - 1) * kHop,
             1.25 * (double(kRanks - 1) / kRanks * kWire + (kRanks - 1) * 3 * kHop)},
        // The chain forwards the buffer hop by hop: at least S once, at most S per hop.
        Case{"broadcast", 1.0, kWire + kHop, 1.25 * (kRanks - 1) * (kWire + 3 * kHop)}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.op); });

}  // namespace
