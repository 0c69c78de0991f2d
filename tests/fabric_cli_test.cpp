// The fabric's scenario keys through the uniference binary: bad placements and keys exit
// with code 2 naming their JSON pointer, and colltest runs on the fat-tree within what its
// links allow.
#include "apps/test/test_dir.h"
#include "tests/cli_support.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace uniference {
namespace {

using namespace cli;

class FabricBadKey : public ::testing::TestWithParam<BadKey> {};

TEST_P(FabricBadKey, ExitsWithCode2NamingThePointer) {
  const BadKey& bad = GetParam();
  expect_refused(bad);
  TestDir dir;
  const std::string set = std::string(" --set '") + bad.override_ + "'";
  Result run = run_uniference("run " + scenario(bad.scenario) + set + " --quiet --out " +
                              (dir / "out"));
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_EQ(dir.entries(), std::set<std::string>{}) << "output left behind";
}

INSTANTIATE_TEST_SUITE_P(
    Cases, FabricBadKey,
    ::testing::Values(
        BadKey{"PlacementBeyondTheEndpoints", "fat-tree-rdma.json", "/network/placement=[0,4,8,16]",
               "/network/placement/3", "has 16 endpoints"},
        BadKey{"PlacementTakingAnEndpointTwice", "fat-tree-rdma.json",
               "/network/placement=[0,4,4,12]", "/network/placement/2", "already holds rank 1"},
        BadKey{"PlacementOfTheWrongLength", "fat-tree-rdma.json", "/network/placement=[0,4]",
               "/network/placement", "one endpoint per rank (4), found 2"},
        BadKey{"PlacementThatIsNotAnArray", "fat-tree-rdma.json", "/network/placement=spread",
               "/network/placement", "\"packed\" or an array"},
        BadKey{"PlacementOnAStar", "quickstart.json", "/network/placement=[1,0,2,3]",
               "/network/placement", "placement must be \"packed\""},
        BadKey{"OddK", "fat-tree-rdma.json", "/network/topology_options/k=3",
               "/network/topology_options/k", "even"},
        BadKey{"KTooSmallForTheRanks", "fat-tree-rdma.json",
               "/network/topology_options={\"k\":2}", "/network/placement/1", "has 2 endpoints"},
        BadKey{"OptionOfAnotherTopology", "fat-tree-rdma.json",
               "/network/topology_options/leaves=2", "/network/topology_options/leaves",
               "has no option 'leaves'"},
        BadKey{"IbMtuNotAnIbMtu", "fat-tree-rdma.json", "/network/link/ib_mtu=1500",
               "/network/link/ib_mtu", "one of 256, 512, 1024, 2048 or 4096"},
        BadKey{"VlBufferBelowOnePacket", "fat-tree-rdma.json", "/network/link/vl_buffer=4000",
               "/network/link/vl_buffer", "at least 4122"},
        BadKey{"UnknownRouting", "fat-tree-rdma.json", "/network/switch/routing=random",
               "/network/switch/routing", "\"ecmp\" or \"adaptive\""},
        BadKey{"NegativeSwitchLatency", "fat-tree-rdma.json", "/network/switch/latency=-1ns",
               "/network/switch/latency", "expected"},
        BadKey{"UnknownCongestionControl", "fat-tree-rdma.json",
               "/network/transport/congestion_control=reno",
               "/network/transport/congestion_control", "\"none\", \"ib\" or \"dcqcn\""},
        BadKey{"TcpKeyOnRdma", "fat-tree-rdma.json", "/network/transport/tcp_variant=cubic",
               "/network/transport/tcp_variant", "applies to transport tcp only"},
        BadKey{"TcpOnAFabricAtTheFlowLevel", "placement/packed-two-jobs-tcp.json",
               "/network/transport/level=flow", "/network/topology",
               "the flow level follows TCP through one hub"},
        BadKey{"TcpOnARailOptimisedFabric", "rail-optimised.json", "/network/transport/kind=tcp",
               "/network/topology", "does not carry transport 'tcp'"},
        BadKey{"IbMtuOnAStar", "quickstart.json", "/network/link/ib_mtu=2048",
               "/network/link/ib_mtu", "applies to link model ib only"},
        BadKey{"UnknownLinkPreset", "fat-tree-rdma.json", "/network/link/preset=edr",
               "/network/link/preset", "\"hdr\", \"ndr\""},
        BadKey{"RdmaCongestionControlOnTcp", "quickstart.json",
               "/network/transport/congestion_control=dcqcn",
               "/network/transport/congestion_control", "applies to transport rdma only"}),
    bad_key_name);

TEST(FabricCli, ShippedFabricScenariosValidate) {
  for (const char* name : {"fat-tree-rdma.json", "rail-optimised.json"}) {
    Result result = run_uniference(std::string("validate ") + scenario(name));
    EXPECT_EQ(result.exit_code, 0) << name << ": " << result.output;
  }
}

TEST(FabricCli, RunPrintsASummaryAndWritesResults) {
  TestDir dir;
  Result result =
      run_uniference("run " + scenario("fat-tree-rdma.json") + " --out " + (dir / "out"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("TTFT"), std::string::npos) << result.output;
  EXPECT_NE(read_file(dir / "out/results.json").find("\"fat-tree\""), std::string::npos);
}

// A ring all-reduce moves 2 (n - 1) / n of S through every rank's 200 Gbit/s HDR link: no
// size may finish faster, and busbw = algbw x 2 (n - 1) / n may not pass the link's 25 GB/s.
TEST(FabricCli, ColltestOnTheFatTreeStaysWithinTheLinks) {
  TestDir dir;
  Result result = run_uniference("colltest " + scenario("fat-tree-rdma.json") +
                                 " --op all_reduce --min-bytes 64K --max-bytes 1M --iters 2"
                                 " --csv " + (dir / "ar.csv"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  std::istringstream csv(read_file(dir / "ar.csv"));
  std::string line;
  std::getline(csv, line);
  ASSERT_EQ(line, "op,ranks,bytes,algorithm,time_s,algbw_GBps,busbw_GBps");
  int rows = 0;
  while (std::getline(csv, line)) {
    std::vector<std::string> f;
    std::stringstream fields(line);
    for (std::string field; std::getline(fields, field, ',');) f.push_back(field);
    ASSERT_EQ(f.size(), 7u) << line;
    EXPECT_EQ(f[1], "4");
    const double bytes = std::stod(f[2]), time = std::stod(f[4]), busbw = std::stod(f[6]);
    EXPECT_GT(time, 2.0 * 3 / 4 * bytes * 8 / 200e9) << line;
    EXPECT_LT(busbw, 25.0) << line;
    EXPECT_GT(busbw, 1.0) << line << ": far below an HDR link";
    ++rows;
  }
  EXPECT_EQ(rows, 5);  // 64K, 128K, 256K, 512K, 1M
}

}  // namespace
}  // namespace uniference
