// The distributed-fat-tree example run as its user runs it: one all-reduce on a k=8 RDMA
// fat-tree (128 endpoints), simulated by ns-3's default engine in one process and by its
// distributed engine under mpirun in 2 and 4 processes (oversubscribed on a small machine).
//  - every endpoint's completion time, the bytes on the wire and the fabric's events are the
//    same in all three, to the nanosecond and the byte;
//  - the cut is by pod: of the k^3/4 aggregation-to-core cables, a process's cores keep only
//    the cables of its own pods, so (K-1)/K of them are cut with K processes;
//  - no endpoint completes before the all-reduce's bandwidth bound, 2(n-1)/n S / B.
// Skipped, saying why, where ns-3 has no mpi module (Debian's package) or mpirun is absent.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "example_run.h"

namespace {

using uniference::examples::ExampleRun;
using uniference::examples::run_example;

constexpr int kK = 8;
constexpr int kN = kK * kK * kK / 4;
constexpr double kBytes = 1 << 20;
constexpr double kPayloadRate = 400e9 / 8 * 4096 / 4122;  // 4096-byte payloads, 26 header bytes

const std::string kArgs = "--k=8 --bytes=1048576 --rate=400Gbps --delay=500ns";

/// \return the run's '#' line that starts with `prefix`, without it
std::string comment(const ExampleRun& run, const std::string& prefix) {
  const size_t at = run.output.find("# " + prefix);
  if (at == std::string::npos) return "";
  return run.output.substr(at, run.output.find('\n', at) - at);
}

ExampleRun run(int processes, const std::string& algorithm) {
  const std::string args = kArgs + " --algorithm=" + algorithm;
  if (processes == 0) return run_example(EXAMPLE_BINARY, args + " --sequential");
  return run_example(std::string(MPIRUN) + " --allow-run-as-root --oversubscribe -np " +
                         std::to_string(processes) + " " + EXAMPLE_BINARY,
                     args);
}

class DistributedFatTreeExample : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (std::string(EXAMPLE_BINARY).empty()) {
      GTEST_SKIP() << "this ns-3 has no mpi module (Debian's package has none); "
                      "scripts/build-ns3.sh builds one that has";
    }
    if (std::string(MPIRUN).empty()) GTEST_SKIP() << "no mpirun (openmpi-bin)";
  }
};

TEST_P(DistributedFatTreeExample, TwoAndFourProcessesGiveTheOneProcessRun) {
  const ExampleRun one = run(0, GetParam());
  ASSERT_EQ(one.exit_code, 0) << one.output;
  ASSERT_EQ(one.rows.size(), size_t(kN)) << one.output;
  for (const auto& row : one.rows) {
    ASSERT_EQ(row.size(), 2u) << one.output;
    EXPECT_GE(std::stod(row[1]) * 1e-9, 2.0 * (kN - 1) / kN * kBytes / kPayloadRate)
        << "endpoint " << row[0];
  }
  for (int processes : {2, 4}) {
    const ExampleRun split = run(processes, GetParam());
    ASSERT_EQ(split.exit_code, 0) << split.output;
    EXPECT_EQ(split.rows, one.rows) << processes << " processes";
    EXPECT_EQ(comment(split, "last completion"), comment(one, "last completion"))
        << processes << " processes";
    const int cut = kN * (processes - 1) / processes;  // k^3/4 aggregation-to-core cables
    EXPECT_NE(comment(split, "processes").find("processes: " + std::to_string(processes) +
                                               "; cables cut: " + std::to_string(cut) + ";"),
              std::string::npos)
        << comment(split, "processes");
  }
}

INSTANTIATE_TEST_SUITE_P(Algorithms, DistributedFatTreeExample,
                         ::testing::Values("ring", "halving_doubling"));

}  // namespace
