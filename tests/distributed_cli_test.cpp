// `uniference run --processes K`: one simulation cut across K processes on ns-3's distributed
// engine (bridge/distributed.h). Each case runs a shipped scenario with shape-only compute in
// one process and across 2 and 4 (oversubscribed on a small machine) and requires the same
// results.json and trace.json, byte for byte: the partitioned run must be the same simulation,
// not an approximation of it. The cases cross the processes with every kind of traffic:
// tensor-parallel all-reduces and all-gathers (fat-tree-rdma), pipeline sends whose token ids
// travel beside their packets (pp), and MoE dispatch on a two-tier superpod with adaptive
// routing, whose routing counts cross inside all-to-alls (moe-ep); and TCP over the switched
// Ethernet star (quickstart), whose endpoints' cables are cut, with tensor-parallel
// collectives and MoE all-to-alls, where every rank's frames meet at the switch at the same
// nanoseconds. Where this build's ns-3 has no mpi module, the run is refused with a message
// that says so.
#include "tests/cli_support.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace uniference::cli {
namespace {

std::string slurp(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class DistributedRun : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!UNIFERENCE_NS3_MPI) GTEST_SKIP() << "this build's ns-3 has no mpi module (Debian's package)";
    dir_ = std::filesystem::temp_directory_path() / ("distributed_run_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  // The scenario run in `processes` processes; its output folder.
  std::filesystem::path run(const std::string& name, const std::string& sets, int processes) {
    const std::filesystem::path out = dir_ / (name + "-" + std::to_string(processes));
    const Result result = run_uniference("run " + scenario(name + ".json") +
                                         " --set /compute/shapes_only=true " + sets + " --quiet --out " +
                                         out.string() + " --processes " + std::to_string(processes));
    EXPECT_EQ(result.exit_code, 0) << processes << " processes:\n" << result.output;
    return out;
  }

  void expect_same_in_two_and_four(const std::string& name, const std::string& sets = "") {
    const std::filesystem::path one = run(name, sets, 1);
    const std::string results = slurp(one / "results.json");
    const std::string trace = slurp(one / "trace.json");
    ASSERT_FALSE(results.empty());
    for (int processes : {2, 4}) {
      const std::filesystem::path split = run(name, sets, processes);
      EXPECT_TRUE(slurp(split / "results.json") == results) << name << ", " << processes << " processes";
      EXPECT_TRUE(slurp(split / "trace.json") == trace) << name << ", " << processes << " processes";
    }
  }

  std::filesystem::path dir_;
};

TEST_F(DistributedRun, TensorParallelOnAFatTreeIsTheOneProcessRun) {
  expect_same_in_two_and_four("fat-tree-rdma");
}

TEST_F(DistributedRun, PipelineSendsCarryTheirTokensAcross) {
  expect_same_in_two_and_four("fat-tree-rdma", "--set /parallel/strategy=pp --set /parallel/pp=4 "
                                               "--set /parallel/tp=1");
}

TEST_F(DistributedRun, MoeDispatchOnATwoTierSuperpodIsTheOneProcessRun) {
  expect_same_in_two_and_four("moe-ep");
}

TEST_F(DistributedRun, TcpOnASwitchedStarIsTheOneProcessRun) {
  expect_same_in_two_and_four("quickstart");
}

TEST_F(DistributedRun, TcpOnALeafSpineIsTheOneProcessRun) {
  // Each rank on a leaf of its own: cut by leaf, every message crosses between processes.
  expect_same_in_two_and_four("quickstart", "--set /network/topology=leaf-spine "
                                            "--set /network/transport/kind=tcp "
                                            "--set '/network/topology_options={\"endpoints_per_leaf\": 1, "
                                            "\"leaves\": 4}'");
}

TEST_F(DistributedRun, AllToAllsOverTcpOnAStarAreTheOneProcessRun) {
  expect_same_in_two_and_four("quickstart", "--set /model/preset=tiny-moe --set /parallel/strategy=ep "
                                            "--set /parallel/ep=4 --set /parallel/tp=1 "
                                            "--set /workload/batch=8");
}

TEST_F(DistributedRun, NodesPinnedByNameChangeWhereTheyRunNotTheResults) {
  // The star's switch and rank 0 with process 1, the fat-tree's first core switch with 1.
  expect_same_in_two_and_four("quickstart", "--set '/network/partition={\"hub\": 1, \"rank0\": 1}'");
  expect_same_in_two_and_four("fat-tree-rdma", "--set '/network/partition={\"core0\": 1}'");
}

TEST_F(DistributedRun, RefusesWhatCannotCrossAtItsPointer) {
  struct Case {
    const char* scenario;
    const char* sets;
    const char* pointer;
  };
  for (const Case& c : {Case{"fat-tree-rdma.json", "", "/compute/shapes_only"},
                        Case{"quickstart.json", "--set /compute/shapes_only=true --set /network/transport/level=flow",
                             "/network/transport/level"},
                        Case{"rail-optimised.json", "--set /compute/shapes_only=true", "/network/topology"},
                        Case{"quickstart.json", "--set /compute/shapes_only=true --set /network/topology=star-routed",
                             "/network/topology"},
                        Case{"quickstart.json", "--set /compute/shapes_only=true --set '/network/partition={\"hub\": 2}'",
                             "/network/partition/hub"},
                        Case{"quickstart.json", "--set /compute/shapes_only=true --set /devices/host_cores=2",
                             "/devices/host_cores"}}) {
    const Result result = run_uniference("run " + scenario(c.scenario) + " " + c.sets +
                                         " --quiet --out " + (dir_ / "refused").string() +
                                         " --processes 2");
    EXPECT_EQ(result.exit_code, 2) << c.scenario << "\n" << result.output;
    EXPECT_NE(result.output.find(c.pointer), std::string::npos) << c.scenario << "\n" << result.output;
    EXPECT_FALSE(std::filesystem::exists(dir_ / "refused" / "results.json")) << c.scenario;
  }
}

#ifdef DISTRIBUTED_DEADLOCK_PROGRAM
TEST_F(DistributedRun, ADeadlockBetweenProcessesIsReportedNotHungOn) {
  // Ranks 0 and 2 wait for each other across the cut; 1 and 3 finish.
  for (int processes : {1, 2}) {
    const Result result = run_command("timeout 120 mpirun --allow-run-as-root --oversubscribe -np " +
                                          std::to_string(processes),
                                      DISTRIBUTED_DEADLOCK_PROGRAM);
    EXPECT_EQ(result.exit_code, 3) << processes << " processes:\n" << result.output;
    EXPECT_NE(result.output.find("rank 0: blocked in recv (rank 2) tag 5"), std::string::npos)
        << result.output;
    EXPECT_NE(result.output.find("rank 2: blocked in recv (rank 0) tag 5"), std::string::npos)
        << result.output;
    EXPECT_EQ(result.output.find("rank 1: blocked"), std::string::npos) << result.output;
  }
}
#endif

TEST(DistributedRunPartition, ANodeTheTopologyHasNotGotIsAnErrorAtItsName) {
  for (const char* name : {"rank4", "spine"}) {
    const Result result = run_uniference("validate " + scenario("quickstart.json") +
                                         " --set '/network/partition={\"" + name + "\": 0}'");
    EXPECT_EQ(result.exit_code, 2) << result.output;
    EXPECT_NE(result.output.find(std::string("/network/partition/") + name), std::string::npos)
        << result.output;
  }
}

TEST(DistributedRunWithoutMpi, IsRefusedSayingWhy) {
  if (UNIFERENCE_NS3_MPI) GTEST_SKIP() << "this build's ns-3 has its mpi module";
  const Result result =
      run_uniference("run " + scenario("fat-tree-rdma.json") + " --quiet --processes 2");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("no mpi module"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace uniference::cli
