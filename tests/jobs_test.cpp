// Several jobs on one network (/jobs): each job is a world of its own whose results, where it
// shares nothing, are exactly those of the job alone; jobs whose messages share a cable split
// it fairly; a job's tokens do not depend on its neighbours; and bad placements are refused
// at their pointer.
#include "apps/report.h"
#include "apps/run_scenario.h"
#include "apps/scenario.h"
#include "apps/scenario_check.h"
#include "bridge/chrome_trace.h"
#include "bridge/this_lp.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>

namespace uniference::test {
namespace {

using nlohmann::json;

// A leaf-spine of two leaves of four endpoints over RDMA (HDR links), or over TCP (100 GbE),
// running the tiny model with tp 4: `jobs` and the top-level sections are the caller's.
json leaf_spine(json jobs = nullptr, const std::string& transport = "rdma") {
  json doc = json::parse(R"({
    "name": "jobs", "seed": 7,
    "model": {"preset": "tiny"},
    "parallel": {"strategy": "tp", "tp": 4},
    "workload": {"prompt_tokens": 8, "new_tokens": 4},
    "devices": {"profile": "a100", "efficiency": 0.5},
    "network": {
      "topology": "leaf-spine",
      "topology_options": {"endpoints_per_leaf": 4, "leaves": 2},
      "link": {"model": "ib", "preset": "hdr"},
      "transport": {"kind": "rdma"}
    },
    "outputs": {"trace": false, "results": true}
  })");
  if (!jobs.is_null()) doc["jobs"] = std::move(jobs);
  if (transport == "tcp") {
    doc["network"]["link"] = {{"model", "ethernet"}, {"preset", "100gbe"}};
    doc["network"]["transport"] = {{"kind", "tcp"}};
  }
  return doc;
}

ScenarioRun run(const json& doc) {
  ScenarioRun run = run_scenario(parse_scenario(doc, "jobs.json"), false);
  EXPECT_EQ(run.outcome.status, RunOutcome::Status::kCompleted) << run.outcome.report;
  return run;
}

json results_of(const json& doc, const ScenarioRun& run) {
  return results_json(parse_scenario(doc, "jobs.json"), run.network, run.record);
}

// What a job's results and a run's alone must share: everything the job itself did.
void expect_same_job(const json& job, const json& alone) {
  for (const char* key : {"tokens", "token_times_ns", "ttft_ns", "tpot_ns", "total_ns", "bytes_sent",
                          "bytes_sent_by_operation", "messages"}) {
    EXPECT_EQ(job.at(key), alone.at(key)) << key;
  }
  ASSERT_EQ(job.at("ranks").size(), alone.at("ranks").size());
  for (size_t r = 0; r < job.at("ranks").size(); ++r) {
    for (const char* key : {"rank", "compute_ns", "comm_wait_ns", "bytes_sent", "finish_ns"}) {
      EXPECT_EQ(job["ranks"][r].at(key), alone["ranks"][r].at(key)) << "rank " << r << " " << key;
    }
  }
}

// Two jobs, each on a leaf of its own: every message of each stays below its leaf, so neither
// can see the other, and each gets exactly what it gets alone (on its own leaf, in the same
// network).
void expect_two_jobs_on_leaves_of_their_own_alone(const std::string& transport) {
  const json both = leaf_spine(json::parse(R"([
    {"name": "left", "placement": [0, 1, 2, 3]},
    {"name": "right", "placement": [4, 5, 6, 7], "seed": 9}
  ])"), transport);
  const ScenarioRun together = run(both);
  const json out = results_of(both, together);
  ASSERT_EQ(out.at("jobs").size(), 2u);

  json left = leaf_spine(nullptr, transport);
  left["network"]["placement"] = {0, 1, 2, 3};
  json right = leaf_spine(nullptr, transport);
  right["network"]["placement"] = {4, 5, 6, 7};
  right["seed"] = 9;
  const json left_alone = results_of(left, run(left));
  const json right_alone = results_of(right, run(right));
  EXPECT_EQ(out["jobs"][0].at("name"), "left");
  expect_same_job(out["jobs"][0], left_alone);
  expect_same_job(out["jobs"][1], right_alone);
  // Each job's world is its own: four ranks numbered 0 to 3, as alone.
  EXPECT_EQ(out["jobs"][1]["ranks"][0].at("rank"), 0);
  EXPECT_EQ(out.at("ranks").size(), 8u);

  // Every link carried one job's bytes only, all of them, and no two jobs shared one.
  ASSERT_TRUE(out.contains("links"));
  for (const json& link : out["links"].at("directions")) {
    SCOPED_TRACE(link.at("name").get<std::string>());
    EXPECT_EQ(link.at("bytes_by_job").size(), 1u);
    uint64_t sum = 0;
    for (const auto& item : link.at("bytes_by_job").items()) sum += item.value().get<uint64_t>();
    EXPECT_EQ(sum, link.at("bytes").get<uint64_t>());
    EXPECT_EQ(link.at("shared_ns"), 0);
  }

  // The trace has a process per job, holding its ranks' tracks (thread names "rank N").
  const json trace = json::parse(chrome_trace_text(together.record, "jobs"));
  std::map<int, std::string> process_names;
  std::map<int, std::set<int>> pids_of_rank;
  for (const json& event : trace.at("traceEvents")) {
    if (event.at("ph") == "M" && event.at("name") == "process_name") {
      process_names[event.at("pid").get<int>()] = event.at("args").at("name").get<std::string>();
    }
    if (event.at("ph") == "M" && event.at("name") == "thread_name" &&
        event.at("args").at("name") == "rank " + std::to_string(event.at("tid").get<int>())) {
      pids_of_rank[event.at("tid").get<int>()].insert(event.at("pid").get<int>());
    }
  }
  const auto pid_named = [&](const std::string& name) {
    for (const auto& [pid, text] : process_names) {
      if (text == name) return pid;
    }
    return -1;
  };
  const int left_pid = pid_named("job left (ranks 0 to 3)"), right_pid = pid_named("job right (ranks 4 to 7)");
  ASSERT_NE(left_pid, -1);
  ASSERT_NE(right_pid, -1);
  ASSERT_EQ(pids_of_rank.size(), 8u);
  for (const auto& [rank, pids] : pids_of_rank) {
    EXPECT_EQ(pids, std::set<int>{rank < 4 ? left_pid : right_pid}) << "rank " << rank;
  }
}

TEST(Jobs, TwoJobsOnLeavesOfTheirOwnGetExactlyTheirResultsAlone) {
  expect_two_jobs_on_leaves_of_their_own_alone("rdma");
}

TEST(Jobs, OverTcpTwoJobsOnLeavesOfTheirOwnGetExactlyTheirResultsAlone) {
  expect_two_jobs_on_leaves_of_their_own_alone("tcp");
}

// A job's tokens are its model's: the same alone, beside another job and beside a neighbour's
// all-reduces through the same spine (the only one); only their times may change.
TEST(Jobs, AJobsTokensAreTheSameAloneBesideAJobAndBesideTraffic) {
  json alone = leaf_spine();
  alone["network"]["topology_options"]["spines"] = 1;
  alone["parallel"]["tp"] = 2;
  alone["network"]["placement"] = {0, 4};
  const ScenarioRun single = run(alone);
  ASSERT_FALSE(single.record.tokens.empty());

  json beside_job = leaf_spine(json::parse(R"([
    {"name": "a", "parallel": {"strategy": "tp", "tp": 2}, "placement": [0, 4]},
    {"name": "b", "parallel": {"strategy": "tp", "tp": 2}, "placement": [1, 5],
     "workload": {"prompt_tokens": 12, "new_tokens": 6}}
  ])"));
  json beside_traffic = leaf_spine(json::parse(R"([
    {"name": "a", "parallel": {"strategy": "tp", "tp": 2}, "placement": [0, 4]},
    {"name": "neighbour", "placement": [1, 2, 5, 6],
     "traffic": {"pattern": "all_reduce", "bytes": 4194304, "period": "200us"}}
  ])"));
  beside_job["network"]["topology_options"]["spines"] = 1;
  beside_traffic["network"]["topology_options"]["spines"] = 1;
  const json with_job = results_of(beside_job, run(beside_job));
  const ScenarioRun traffic_run = run(beside_traffic);
  const json with_traffic = results_of(beside_traffic, traffic_run);
  const json single_out = results_of(alone, single);
  EXPECT_EQ(with_job["jobs"][0].at("tokens"), single_out.at("tokens"));
  EXPECT_EQ(with_traffic["jobs"][0].at("tokens"), single_out.at("tokens"));
  // The neighbour ran rounds of 4 MiB all-reduces (a ring: 2 (n - 1) / n of the buffer from
  // each rank per round) and stopped once the model had finished.
  const json& neighbour = with_traffic["jobs"][1];
  const uint64_t round_bytes = 4 * 2 * 3 * (4194304 / 4);  // 4 ranks x 2 (n - 1) blocks of B / n
  EXPECT_GE(neighbour.at("bytes_sent").get<uint64_t>(), round_bytes);
  EXPECT_EQ(neighbour.at("bytes_sent").get<uint64_t>() % round_bytes, 0u) << "whole rounds only";
  EXPECT_LE(neighbour.at("total_ns").get<int64_t>(),
            with_traffic["jobs"][0].at("total_ns").get<int64_t>() + 200'000 +
                int64_t(4 * 4194304 * 8 / 200e9 * 1e9) * 4);
  // Its all-reduces cross the spine with the model's: the model is slower beside it.
  EXPECT_GT(with_traffic["jobs"][0].at("total_ns").get<int64_t>(), single_out.at("total_ns").get<int64_t>());
  // leaf0 -> spine0 carried both jobs' bytes, for a while at the same time.
  bool shared = false;
  for (const json& link : with_traffic["links"].at("directions")) {
    if (link.at("name") != "leaf0 -> spine0") continue;
    EXPECT_TRUE(link.at("bytes_by_job").contains("a"));
    EXPECT_TRUE(link.at("bytes_by_job").contains("neighbour"));
    EXPECT_GT(link.at("shared_ns").get<int64_t>(), 0);
    shared = true;
  }
  EXPECT_TRUE(shared);
}

// Over TCP on a star, each cable's packets are its rank's job's: a rank's data and the
// acknowledgements of its job's peers, told apart by their IPv4 source.
TEST(Jobs, EachLinksBytesBelongToTheJobWhoseRanksSentThem) {
  json doc = json::parse(R"({
    "name": "star-jobs", "model": {"preset": "tiny"}, "parallel": {"strategy": "tp", "tp": 2},
    "workload": {"prompt_tokens": 8, "new_tokens": 3},
    "network": {"topology": "star", "link": {"rate": "10Gbps", "delay": "5us"}},
    "jobs": [{"name": "a"}, {"name": "b"}],
    "outputs": {"trace": false, "results": true}
  })");
  const json out = results_of(doc, run(doc));
  size_t links = 0;
  for (const json& link : out["links"].at("directions")) {
    const std::string name = link.at("name");
    SCOPED_TRACE(name);
    // "rank2 -> hub" and "hub -> rank2": ranks 0 and 1 are job a, 2 and 3 job b.
    const int rank = name[name.find("rank") + 4] - '0';
    const std::string job = rank < 2 ? "a" : "b";
    ASSERT_EQ(link.at("bytes_by_job").size(), 1u);
    EXPECT_EQ(link.at("bytes_by_job").at(job), link.at("bytes"));
    ++links;
  }
  EXPECT_EQ(links, 8u);
}

// Two jobs of two ranks each across the two leaves of a one-spine leaf-spine: every message of
// both crosses leaf0 -> spine0. Sent at once, two messages of M bytes share that cable: the
// fair share of each is 2 M / rate, where alone it takes M / rate.
struct SharedCable {
  double alone_ns;            // M / rate, the payload's wire time
  int64_t one_ns;             // one job's message, alone
  std::vector<int64_t> two_ns;  // each job's, both at once
};

SharedCable messages_sharing_one_cable(const std::string& transport) {
  json doc = leaf_spine(nullptr, transport);
  doc["network"]["topology_options"] = {{"endpoints_per_leaf", 2}, {"leaves", 2}, {"spines", 1}};
  doc["parallel"]["tp"] = 2;
  const CheckedScenario checked = check_scenario(parse_scenario(doc, "jobs.json"));
  // Over TCP every segment carries its TCP/IP headers with timestamps (52 bytes) and Ethernet's
  // header, FCS, preamble and gap (38) on the wire; the fabric's packet headers are a few
  // percent, left in the tolerance.
  const double segment = double(checked.network.segment_size);
  const double wire_per_byte = transport == "tcp" ? (segment + 52 + 38) / segment : 1.0;
  const double rate_bps = double(checked.network.link_rate.GetBitRate()) / wire_per_byte;
  const int64_t bytes = 8 << 20;  // 8 MiB: the cable's latency and headers are a few percent

  const auto message_times = [&](int jobs) {
    NetworkConfig network = checked.network;
    network.placement = {0, 2, 1, 3};  // job 0 on endpoints 0 and 2, job 1 on 1 and 3
    network.placement.resize(size_t(2 * jobs));
    SimCluster cluster(network);
    std::vector<int64_t> times(size_t(jobs), 0);
    for (int j = 0; j < jobs; ++j) {
      for (int r = 0; r < 2; ++r) {
        cluster.add_rank(modeled_meter(), [&times, j](Comm& world) {
          at::Tensor t = at::zeros({bytes / 4});
          if (world.rank() == 0) {
            world.send(t, 1);
          } else {
            world.recv(t, 0);
            times[size_t(j)] = this_lp::clock_ns();
          }
        });
      }
    }
    if (jobs == 2) cluster.set_jobs({{0, 2, 1}, {2, 2, 1}});
    const RunOutcome outcome = cluster.run();
    EXPECT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
    return times;
  };
  return {double(bytes) * 8 / rate_bps * 1e9, message_times(1)[0], message_times(2)};
}

// The fabric's switches arbitrate between the two senders' packets in turn: each gets half.
TEST(Jobs, JobsSharingACableEachGetAFairShareOfIt) {
  const SharedCable cable = messages_sharing_one_cable("rdma");
  EXPECT_NEAR(double(cable.one_ns), cable.alone_ns, 0.1 * cable.alone_ns);
  for (int64_t t : cable.two_ns) EXPECT_NEAR(double(t), 2 * cable.alone_ns, 0.1 * 2 * cable.alone_ns);
}

// Over TCP the two connections split the cable as their congestion controls (Cubic) and the
// leaf's drop-tail buffer let them, which over a millisecond is not evenly: the cable stays
// full, so the later message ends at the fair share of both, and the earlier no sooner than
// alone.
TEST(Jobs, OverTcpJobsSharingACableFillItAndTheLaterEndsAtTheFairShare) {
  const SharedCable cable = messages_sharing_one_cable("tcp");
  EXPECT_NEAR(double(cable.one_ns), cable.alone_ns, 0.1 * cable.alone_ns);
  const auto [earlier, later] = std::minmax(cable.two_ns[0], cable.two_ns[1]);
  EXPECT_NEAR(double(later), 2 * cable.alone_ns, 0.1 * 2 * cable.alone_ns);
  EXPECT_GE(double(earlier), 0.95 * cable.alone_ns);
}

// The placement study's scenarios (docs/placement-study.md) load and check: 24 ranks on their
// endpoints, jobs a and b of 8 each, the neighbour where there is one, over RDMA and over TCP.
TEST(Jobs, ThePlacementStudysScenariosCheck) {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(UNIFERENCE_SCENARIOS_DIR) + "/placement")) {
    SCOPED_TRACE(entry.path().string());
    const Scenario scenario = load_scenario(entry.path().string());
    const CheckedScenario checked = check_scenario(scenario);
    const bool neighbour = entry.path().stem().string().find("neighbour") != std::string::npos;
    ASSERT_EQ(checked.jobs.size(), neighbour ? 3u : 2u);
    EXPECT_EQ(checked.jobs[0].ranks, 8);
    EXPECT_EQ(checked.jobs[1].ranks, 8);
    EXPECT_EQ(checked.network.placement.size(), neighbour ? 24u : 16u);
    const bool tcp = entry.path().stem().string().find("-tcp") != std::string::npos;
    EXPECT_EQ(checked.network.transport, tcp ? "tcp" : "rdma");
    ++files;
  }
  EXPECT_EQ(files, 8);  // packed and spread, with and without the neighbour, over RDMA and TCP
}

// "spread" puts a rank under each leaf in turn, the lowest free endpoint there, around what an
// array took; "packed" the lowest free endpoints. Leaves of 4: endpoints 0-3, 4-7.
TEST(Jobs, SpreadPlacesARankOnEachLeafInTurn) {
  json doc = leaf_spine(json::parse(R"([
    {"name": "fixed", "parallel": {"strategy": "tp", "tp": 2}, "placement": [0, 5]},
    {"name": "spread", "placement": "spread"},
    {"name": "packed", "parallel": {"strategy": "tp", "tp": 2}}
  ])"));
  const CheckedScenario checked = check_scenario(parse_scenario(doc, "jobs.json"));
  ASSERT_EQ(checked.jobs.size(), 3u);
  EXPECT_EQ(checked.jobs[1].endpoints, (std::vector<uint32_t>{1, 4, 2, 6}));
  EXPECT_EQ(checked.jobs[2].endpoints, (std::vector<uint32_t>{3, 7}));
  // With more ranks than leaves, spread goes round again.
  doc["jobs"] = json::parse(R"([
    {"name": "wide", "placement": "spread", "traffic": {"pattern": "all_reduce", "bytes": 1024, "period": "1ms", "ranks": 6}},
    {"name": "m", "parallel": {"strategy": "tp", "tp": 2}}
  ])");
  const CheckedScenario wide = check_scenario(parse_scenario(doc, "jobs.json"));
  EXPECT_EQ(wide.jobs[0].endpoints, (std::vector<uint32_t>{0, 4, 1, 5, 2, 6}));
  EXPECT_EQ(wide.jobs[1].endpoints, (std::vector<uint32_t>{3, 7}));
}

// ---- Bad input, each at its pointer ------------------------------------------------------

std::string error_pointer(const json& doc) {
  try {
    run_scenario(parse_scenario(doc, "jobs.json"), false);
  } catch (const ScenarioError& e) {
    return e.pointer();
  }
  return "(no error)";
}

TEST(JobsInput, OverlappingPlacementsAreRefusedAtTheSecondJobsRank) {
  EXPECT_EQ(error_pointer(leaf_spine(json::parse(R"([
    {"name": "a", "placement": [0, 1, 2, 3]},
    {"name": "b", "placement": [4, 5, 3, 6]}])"))), "/jobs/1/placement/2");
}

TEST(JobsInput, APlacementPastTheNetworksEndpointsIsRefusedAtItsRank) {
  EXPECT_EQ(error_pointer(leaf_spine(json::parse(R"([
    {"name": "a", "placement": [0, 1, 2, 3]},
    {"name": "b", "placement": [4, 5, 6, 8]}])"))), "/jobs/1/placement/3");
}

TEST(JobsInput, DegreesThatDoNotMatchThePlacementAreRefusedAtThePlacement) {
  EXPECT_EQ(error_pointer(leaf_spine(json::parse(R"([
    {"name": "a", "placement": [0, 1, 2, 3]},
    {"name": "b", "parallel": {"strategy": "tp", "tp": 2}, "placement": [4, 5, 6]}])"))),
            "/jobs/1/placement");
}

TEST(JobsInput, AJobsOwnSectionIsCheckedUnderItsPointer) {
  EXPECT_EQ(error_pointer(leaf_spine(json::parse(R"([
    {"name": "a", "parallel": {"strategy": "tp", "tp": 0}}])"))), "/jobs/0/parallel/tp");
  EXPECT_EQ(error_pointer(leaf_spine(json::parse(R"([
    {"name": "a"}, {"name": "a"}])"))), "/jobs/1/name");
  EXPECT_EQ(error_pointer(leaf_spine(json::parse(R"([
    {"name": "a", "model": {"preset": "tiny"},
     "traffic": {"pattern": "all_reduce", "bytes": 1024, "period": "1ms", "ranks": 2}}])"))),
            "/jobs/0/model");
  EXPECT_EQ(error_pointer(leaf_spine(json::parse(R"([
    {"name": "t", "traffic": {"pattern": "all_reduce", "bytes": 1024, "period": "1ms", "ranks": 2}}])"))),
            "/jobs");
  EXPECT_EQ(error_pointer(leaf_spine(json::parse(R"([
    {"name": "a", "parallel": {"strategy": "tp", "tp": 2}},
    {"name": "t", "traffic": {"pattern": "all_to_all", "bytes": 1028, "period": "1ms", "ranks": 2}}])"))),
            "/jobs/1/traffic/bytes");
}

}  // namespace
}  // namespace uniference::test
