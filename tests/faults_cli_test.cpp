// Faults from a scenario, through the uniference binary: the shipped scenarios/faults.json
// recovers and says what each fault cost, a crash ends the run with exit 1, a report and the
// partial outputs, and a fault the network cannot take is refused at its pointer.
#include "apps/test/test_dir.h"
#include "tests/cli_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <string>

namespace uniference {
namespace {

using namespace cli;
using nlohmann::json;

json results_of(const TestDir& dir, const std::string& out) {
  return json::parse(read_file(dir / (out + "/results.json")));
}

// The trace's slices of category "fault", as (name, phase, ts) in file order.
std::vector<std::tuple<std::string, std::string, double>> fault_events(const TestDir& dir, const std::string& out) {
  std::vector<std::tuple<std::string, std::string, double>> events;
  const json trace = json::parse(read_file(dir / (out + "/trace.json")));
  for (const json& e : trace["traceEvents"]) {
    if (e.value("cat", "") == "fault") events.emplace_back(e["name"], e["ph"], e["ts"]);
  }
  return events;
}

TEST(FaultsCli, TheShippedScenarioRecoversAndSaysWhatEachFaultCost) {
  TestDir dir;
  const Result faulted = run_uniference("run " + scenario("faults.json") + " --quiet --out " + (dir / "faulted"));
  ASSERT_EQ(faulted.exit_code, 0) << faulted.output;
  const Result clean =
      run_uniference("run " + scenario("faults.json") + " --quiet --set '/faults=[]' --out " + (dir / "clean"));
  ASSERT_EQ(clean.exit_code, 0) << clean.output;
  const json with = results_of(dir, "faulted"), without = results_of(dir, "clean");
  EXPECT_FALSE(without.contains("faults")) << "a run without faults writes what it always did";

  ASSERT_EQ(with["faults"].size(), 3u);
  const json& cut = with["faults"][0];
  EXPECT_EQ(cut["kind"], "link_down");
  EXPECT_EQ(cut["start_ns"], 10'000'000);
  EXPECT_EQ(cut["end_ns"], 60'000'000);
  EXPECT_GT(cut["packets_lost"].get<int64_t>(), 0);
  EXPECT_GT(with["faults"][1]["packets_lost"].get<int64_t>(), 0) << "the burst at 300 ms lost nothing";
  EXPECT_GT(with["faults"][2]["compute_added_ns"].get<int64_t>(), 0);
  // The cut lost packets, and TCP resends them one minimum retransmission timeout (200 ms)
  // after the last acknowledgement before the cut (under 1 ms before it): the run cannot end
  // before, whereas without faults it is over by then.
  EXPECT_GE(with["total_ns"].get<int64_t>(), 10'000'000 + 200'000'000 - 1'000'000);
  EXPECT_LT(without["total_ns"].get<int64_t>(), 209'000'000);
  EXPECT_EQ(with["tokens"], without["tokens"]) << "faults change the timing, not the tokens";
  EXPECT_NE(faulted.output.find("fault           link_down rank1 <-> hub at 10.000 ms for 50.000 ms: "),
            std::string::npos)
      << faulted.output;

  // The link table puts each fault's losses on its directions: the cut's on both of rank 1's,
  // the burst's on rank 2's way in; nothing else lost a packet, and the clean run none.
  std::map<std::string, int64_t> drops;
  for (const json& link : with["links"]["directions"]) drops[link["name"]] = link["drops"];
  EXPECT_EQ(drops["rank1 -> hub"] + drops["hub -> rank1"], cut["packets_lost"].get<int64_t>());
  EXPECT_EQ(drops["rank2 -> hub"], with["faults"][1]["packets_lost"].get<int64_t>());
  int64_t elsewhere = 0;
  for (const auto& [name, n] : drops) {
    if (name != "rank1 -> hub" && name != "hub -> rank1" && name != "rank2 -> hub") elsewhere += n;
  }
  EXPECT_EQ(elsewhere, 0);
  for (const json& link : without["links"]["directions"]) EXPECT_EQ(link["drops"], 0) << link["name"];

  const auto events = fault_events(dir, "faulted");
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.front(), std::make_tuple(std::string("straggler"), std::string("B"), 0.0));
  EXPECT_NE(std::find(events.begin(), events.end(), std::make_tuple(std::string("link_down"), std::string("B"), 10000.0)),
            events.end());
  EXPECT_NE(std::find(events.begin(), events.end(), std::make_tuple(std::string("link_down"), std::string("E"), 60000.0)),
            events.end());

  // Deterministic: the burst's losses are drawn from the scenario's seed.
  ASSERT_EQ(run_uniference("run " + scenario("faults.json") + " --quiet --out " + (dir / "again")).exit_code, 0);
  EXPECT_EQ(read_file(dir / "again/results.json"), read_file(dir / "faulted/results.json"));
}

TEST(FaultsCli, ACrashEndsWithExit1AReportAndWhatTheRunHadDone) {
  TestDir dir;
  const Result result = run_uniference(
      "run " + scenario("faults.json") +
      " --quiet --set '/faults=[{\"kind\": \"rank_crash\", \"target\": \"rank3\", \"at\": \"20ms\"}]' --out " +
      (dir / "out"));
  ASSERT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("rank 3: crashed at t=20000.000 us"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("fault /faults/0: rank_crash rank3 at t=20000.000 us"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("did not complete within the timeout of 10000000.000 us"), std::string::npos)
      << "the scenario's /collectives/timeout of 10 s ends the wait: " << result.output;
  const json results = results_of(dir, "out");
  EXPECT_NE(results["partial"].get<std::string>().find("rank 3: crashed"), std::string::npos);
  const auto events = fault_events(dir, "out");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0], std::make_tuple(std::string("rank_crash"), std::string("i"), 20000.0));
}

// A cable of the RDMA fat-tree down for 50 us: the queue pairs that lost packets hear nothing
// and resend one retransmission timeout after their last packet. Whatever crossed the cable
// when it went down is late by at least that timeout less the run's fault-free length (the
// timer may start at most that early), and the run cannot end before the cut plus the timeout.
TEST(FaultsCli, TheRdmaFabricResendsAfterItsRetransmissionTimeout) {
  TestDir dir;
  const std::string cut =
      " --set '/faults=[{\"kind\": \"link_down\", \"target\": \"rank0 <-> pod0-edge0\", \"at\": \"100us\", "
      "\"for\": \"50us\"}]'";
  ASSERT_EQ(run_uniference("run " + scenario("fat-tree-rdma.json") + " --quiet --out " + (dir / "clean")).exit_code, 0);
  const Result own = run_uniference("run " + scenario("fat-tree-rdma.json") + " --quiet" + cut +
                                    " --set '/network/ns3_defaults={\"ns3::RdmaMessageTransport::RetransmitTimeout\": \"1ms\"}'"
                                    " --out " + (dir / "own"));
  ASSERT_EQ(own.exit_code, 0) << own.output;
  const Result nccl = run_uniference("run " + scenario("fat-tree-rdma.json") + " --quiet" + cut + " --out " + (dir / "nccl"));
  ASSERT_EQ(nccl.exit_code, 0) << nccl.output;
  const int64_t clean = results_of(dir, "clean")["total_ns"], with_own = results_of(dir, "own")["total_ns"],
                with_nccl = results_of(dir, "nccl")["total_ns"];
  EXPECT_GT(results_of(dir, "own")["faults"][0]["packets_lost"].get<int64_t>(), 0);
  EXPECT_GE(with_own, 100'000 + 1'000'000);
  EXPECT_LE(with_own, clean + 1'000'000 + 100'000) << "one timeout late, not more (plus the cut's 100 us)";
  // NCCL's default: 4.096 us x 2^20.
  EXPECT_GE(with_nccl, 100'000 + 4'294'967'296);
  EXPECT_LE(with_nccl, clean + 4'294'967'296 + 100'000);
  EXPECT_EQ(results_of(dir, "own")["tokens"], results_of(dir, "clean")["tokens"]);
}

class FaultsCliRefused : public ::testing::TestWithParam<BadKey> {};

TEST_P(FaultsCliRefused, AtThePointer) { expect_refused(GetParam()); }

INSTANTIATE_TEST_SUITE_P(
    Cases, FaultsCliRefused,
    ::testing::Values(
        BadKey{"UnknownCable", "faults.json",
               "/faults/0/target=rank1 <-> spine0", "/faults/0/target",
               "no cable direction \"rank1 -> spine0\"; it has \"hub -> rank0\""},
        BadKey{"ARankThatIsNotThere", "faults.json", "/faults/2/target=rank4", "/faults/2/target",
               "ranks rank0 to rank3, not rank4"},
        BadKey{"NotARank", "faults.json", "/faults/2/target=hub", "/faults/2/target",
               "expected a rank"},
        BadKey{"ASwitchThatIsARank", "faults.json",
               "/faults/0={\"kind\": \"switch_down\", \"target\": \"rank1\", \"at\": \"1ms\"}",
               "/faults/0/target", "is a rank's host, not a switch"},
        BadKey{"ACrashThatEnds", "faults.json",
               "/faults/2={\"kind\": \"rank_crash\", \"target\": \"rank1\", \"at\": \"1ms\", \"for\": \"1s\"}",
               "/faults/2/for", "takes no \"for\""},
        BadKey{"ABurstWithoutLoss", "faults.json",
               "/faults/1={\"kind\": \"loss_burst\", \"target\": \"rank1 -> hub\", \"at\": \"1ms\"}",
               "/faults/1/loss", "missing required key"},
        BadKey{"ALossAboveOne", "faults.json", "/faults/1/loss=1.5", "/faults/1/loss",
               "a probability in (0, 1]"},
        BadKey{"AFactorOnACable", "faults.json", "/faults/0/factor=2", "/faults/0/factor",
               "only kind straggler reads this key"},
        BadKey{"LinkFaultsAtTheFlowLevel", "faults.json", "/network/transport/level=flow",
               "/faults/0/kind", "needs packets to lose"},
        BadKey{"AnRdmaCableNotThere", "fat-tree-rdma.json",
               "/faults=[{\"kind\": \"link_down\", \"target\": \"rank0 <-> leaf0\", \"at\": \"1ms\"}]",
               "/faults/0/target", "no cable direction \"rank0 -> leaf0\""},
        BadKey{"ANegativeTime", "faults.json", "/faults/0/at=-1ms", "/faults/0/at", "duration"},
        BadKey{"ATimeoutOfNothing", "faults.json", "/collectives/timeout=0s", "/collectives/timeout",
               "positive duration"}),
    bad_key_name);

}  // namespace
}  // namespace uniference
