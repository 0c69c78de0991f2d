// The emulated testbed of validation/ (network namespaces joined by a bridge, tbf-shaped):
// it leaves nothing behind, and real deployments run across it. Its namespaces have fixed
// names, so CTest runs these tests one at a time (RESOURCE_LOCK testbed), and each test first
// removes those a killed earlier run left. Skipped where namespaces cannot be made (not root,
// no iproute2).
#include "apps/test/deploy_support.h"

#include <gtest/gtest.h>

namespace uniference {
namespace {

using namespace deploy_test;

// Readies a testbed test: "" when the emulated testbed can be built here, else why not (it
// needs root, iproute2's network namespaces, tc, ethtool and ping). A run killed before it
// could tear down leaves its namespaces behind, and the next testbed would refuse to come up
// over them; so where the testbed can be built, the namespaces these tests name (testbed.sh's
// uf-tb<i>, uf-tb-br and uf-tb-probe, which `testbed.sh down` removes, and the probe's own
// uf-deploy-probe) are removed first, and with them their veths, qdiscs and 198.18.0.0/24
// addresses. Nothing else is touched: the testbed never creates anything in the root namespace.
std::string set_up_testbed(const TestDir& dir) {
  if (geteuid() != 0) return "needs root for network namespaces";
  for (const char* tool : {"ip", "tc", "ethtool", "ping"}) {
    if (run(dir, "which", {"sh", "-c", std::string("command -v ") + tool}) != 0) {
      return std::string("needs ") + tool;
    }
  }
  run(dir, "down", {UNIFERENCE_TESTBED_SCRIPT, "down"});
  run(dir, "probe-down", {"sh", "-c", "ip netns del uf-deploy-probe 2>/dev/null || true"});
  if (run(dir, "probe", {"sh", "-c", "ip netns add uf-deploy-probe && ip netns del uf-deploy-probe"}) != 0) {
    return "cannot create a network namespace here";
  }
  return "";
}

// The testbed's namespaces (and with them their veths and qdiscs: nothing is ever created in
// the root namespace) that exist now.
std::string testbed_leftovers(const TestDir& dir) {
  std::string namespaces, links;
  run(dir, "netns", {"sh", "-c", "ip netns list | grep '^uf-tb' || true"}, &namespaces);
  run(dir, "links", {"sh", "-c", "ip -o link | grep -E ' (ufb[0-9]+|veth0)[@:]' || true"}, &links);
  return namespaces + links;
}

TEST(Testbed, LeavesNothingBehindWhenItsCommandFails) {
  TestDir dir;
  if (const std::string why = set_up_testbed(dir); !why.empty()) GTEST_SKIP() << why;
  ASSERT_EQ(testbed_leftovers(dir), "") << "a testbed is up already";
  EXPECT_EQ(run(dir, "testbed", {UNIFERENCE_TESTBED_SCRIPT, "run", "2", "100mbit", "--", "sh", "-c",
                                 "ip netns list | grep -q uf-tb1 && exit 3"}),
            3);
  EXPECT_EQ(testbed_leftovers(dir), "");
}

TEST(Testbed, LeavesNothingBehindWhenStopped) {
  TestDir dir;
  if (const std::string why = set_up_testbed(dir); !why.empty()) GTEST_SKIP() << why;
  ASSERT_EQ(testbed_leftovers(dir), "") << "a testbed is up already";
  Process testbed({UNIFERENCE_TESTBED_SCRIPT, "run", "2", "100mbit", "--", "sh", "-c",
                   "echo up >&2; sleep 60"},
                  {}, dir / "testbed.out", dir / "testbed.err");
  ASSERT_TRUE(testbed.err_contains_within("up", 60s)) << testbed.err();
  EXPECT_NE(testbed_leftovers(dir), "");
  kill(testbed.pid(), SIGTERM);
  EXPECT_NE(testbed.wait(60s), -1);
  EXPECT_EQ(testbed_leftovers(dir), "");
}

// launch --netns: one rank in each namespace of validation/'s emulated star (198.18.0.0/24,
// 1 Gbit/s tbf links), reaching rank 0 at its namespace's address.
TEST(Launch, RunsOneRankPerNetworkNamespace) {
  TestDir dir;
  if (const std::string why = set_up_testbed(dir); !why.empty()) GTEST_SKIP() << why;
  json scenario = read_json(kScenarios + "/quickstart.json");
  scenario.erase("$schema");
  scenario["parallel"] = {{"strategy", "tp"}, {"tp", 2}};
  scenario["workload"]["new_tokens"] = 3;
  write_json(dir / "scenario.json", scenario);
  std::string out, err;
  ASSERT_EQ(run(dir, "sim", {kUniference, "run", dir / "scenario.json", "--out", dir / "sim", "--quiet"},
                &out, &err), 0) << err;
  const int code = run(dir, "testbed",
                       {UNIFERENCE_TESTBED_SCRIPT, "run", "2", "1gbit", "--", kUniference, "launch",
                        "--netns", "uf-tb0,uf-tb1", "--master-addr", "198.18.0.1", dir / "scenario.json",
                        "--out", dir / "deploy", "--quiet", "--timeout", "60"},
                       &out, &err);
  ASSERT_EQ(code, 0) << out << err;
  const json deployed = read_json(dir / "deploy/results.json");
  EXPECT_EQ(deployed.at("ranks").size(), 2u);
  EXPECT_EQ(tokens_per_prompt(deployed), tokens_per_prompt(read_json(dir / "sim/results.json")));
}

// A cable cut mid-run (the hub's end of rank 2's link set down, as a pulled cable or a
// failed switch port): the survivors' next collective times out after --timeout, and each
// names rank 2, whose heartbeats no longer reach the store; launch stops the cut-off rank
// and exits 1, and the testbed leaves nothing behind.
TEST(Testbed, ACutLinkMakesEverySurvivorNameThePeerBehindIt) {
  TestDir dir;
  if (const std::string why = set_up_testbed(dir); !why.empty()) GTEST_SKIP() << why;
  ASSERT_EQ(testbed_leftovers(dir), "") << "a testbed is up already";
  json scenario = read_json(kScenarios + "/quickstart.json");
  scenario.erase("$schema");
  scenario["workload"]["new_tokens"] = 400;  // long enough that the cut lands mid-run
  write_json(dir / "scenario.json", scenario);
  Process testbed({UNIFERENCE_TESTBED_SCRIPT, "run", "4", "1gbit", "--", kUniference, "launch",
                   "--netns", "uf-tb0,uf-tb1,uf-tb2,uf-tb3", "--master-addr", "198.18.0.1",
                   dir / "scenario.json", "--out", dir / "deploy", "--timeout", "10"},
                  {}, dir / "testbed.out", dir / "testbed.err");
  ASSERT_TRUE(testbed.err_contains_within("token 3/", 120s)) << testbed.err();
  ASSERT_EQ(run(dir, "cut", {"ip", "-n", "uf-tb-br", "link", "set", "ufb2", "down"}), 0);
  // The timeout, the census, launch's grace for the cut-off rank, and slack for a loaded host.
  EXPECT_EQ(testbed.wait(120s), 1) << testbed.err();
  const std::string err = testbed.err();
  for (int r : {0, 1, 3}) {
    // Rank r's own report, one line as launch relays it.
    const std::string head = "[rank " + std::to_string(r) + "] uniference-deploy: error: ";
    const size_t at = err.find(head);
    ASSERT_NE(at, std::string::npos) << "rank " << r << " reported nothing:\n" << err;
    const std::string line = err.substr(at, err.find('\n', at) - at);
    EXPECT_NE(line.find("lost peer: rank 2"), std::string::npos) << line;
  }
  EXPECT_EQ(testbed_leftovers(dir), "");
}

}  // namespace
}  // namespace uniference
