// /devices/host_cores through the uniference binary: ranks that compute at the same moments
// share the cores, ranks that take turns do not notice, and bad keys exit with code 2 at
// their pointer.
#include "apps/test/test_dir.h"
#include "tests/cli_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

namespace uniference {
namespace {

using namespace cli;
using json = nlohmann::json;

// Each rank's charged compute (ns) in a run of the quickstart with `sets`.
std::vector<int64_t> compute_ns(const std::string& sets) {
  TestDir dir;
  const Result run = run_uniference("run " + scenario("quickstart.json") + " " + sets + " --quiet --out " +
                                    (dir / "out"));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  std::ifstream in(dir / "out/results.json");
  const json results = json::parse(in);
  std::vector<int64_t> ns;
  for (const json& rank : results.at("ranks")) ns.push_back(rank.at("compute_ns"));
  return ns;
}

// Tensor parallelism: the four ranks compute the same operators at the same moments, so two
// cores give each half its speed, and every rank's compute takes twice as long.
TEST(HostCores, FourTensorParallelRanksOnTwoCoresComputeTwiceAsLong) {
  const std::vector<int64_t> alone = compute_ns("");
  const std::vector<int64_t> shared = compute_ns("--set /devices/host_cores=2");
  ASSERT_EQ(alone.size(), 4u);
  ASSERT_EQ(shared.size(), 4u);
  for (size_t r = 0; r < 4; ++r) EXPECT_NEAR(double(shared[r]), 2.0 * double(alone[r]), 4.0) << "rank " << r;
  // Two hosts of two ranks each on two cores apiece: nobody waits for a core.
  EXPECT_EQ(compute_ns("--set /devices/host_cores=2 --set /devices/ranks_per_host=2"), alone);
}

// A pipeline of one sequence computes one stage at a time: one core is enough for all four.
TEST(HostCores, PipelineStagesTakingTurnsShareOneCoreFreely) {
  const std::string pp = "--set /parallel/strategy=pp --set /parallel/pp=4 --set /parallel/tp=1";
  EXPECT_EQ(compute_ns(pp + " --set /devices/host_cores=1"), compute_ns(pp));
}

class HostCoresBadKey : public ::testing::TestWithParam<BadKey> {};

TEST_P(HostCoresBadKey, ExitsWithCode2NamingThePointer) { expect_refused(GetParam()); }

INSTANTIATE_TEST_SUITE_P(
    Cases, HostCoresBadKey,
    ::testing::Values(BadKey{"NoCores", "quickstart.json", "/devices/host_cores=0", "/devices/host_cores",
                             "a positive integer"},
                      BadKey{"RanksPerHostWithoutCores", "quickstart.json", "/devices/ranks_per_host=2",
                             "/devices/ranks_per_host", "/devices/host_cores does not say how many cores"}),
    bad_key_name);

}  // namespace
}  // namespace uniference
