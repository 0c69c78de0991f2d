// The planner's parts that need no simulation: its spec (errors at the spec's pointers), the
// candidates it enumerates (counted by hand), "spread" placements, the Pareto front, and the
// listed points of a sweep that it runs its stages as.
#include "apps/plan.h"
#include "apps/plan_candidates.h"
#include "apps/plan_report.h"
#include "apps/plan_spec.h"
#include "apps/scenario_error.h"
#include "apps/sweep.h"
#include "apps/test/test_dir.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>

namespace uniference {
namespace {

std::string quickstart() { return std::string(UNIFERENCE_SCENARIOS_DIR) + "/quickstart.json"; }

// The ScenarioError a spec gives, as "pointer: detail"; "" when it loads.
std::string spec_error(const TestDir& dir, const std::string& text) {
  const std::string path = (dir.path() / "spec.json").string();
  std::ofstream(path) << text;
  try {
    load_plan_spec(path);
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.source(), path) << "every error names the spec";
    return e.pointer() + ": " + e.detail();
  }
  return "";
}

TEST(PlanSpec, MistakesAreReportedAtTheirPointerInTheSpec) {
  const TestDir dir;
  const std::string base = R"("scenario": ")" + quickstart() + R"(")";
  EXPECT_EQ(spec_error(dir, "{" + base + "}"), "");
  EXPECT_NE(spec_error(dir, "{" + base + R"(, "objectve": "tpot"})").find("/objectve: unknown key (did you mean \"objective\"?)"),
            std::string::npos);
  EXPECT_EQ(spec_error(dir, R"({"devices": {"count": 2}})").rfind("/scenario: missing required key", 0), 0u);
  EXPECT_EQ(spec_error(dir, "{" + base + R"(, "devices": {"count": 0}})").rfind("/devices/count: expected a positive", 0), 0u);
  EXPECT_EQ(spec_error(dir, "{" + base + R"(, "devices": {"memory": "16 apples"}})").rfind("/devices/memory: expected a size", 0), 0u);
  EXPECT_EQ(spec_error(dir, "{" + base + R"(, "objective": "goodput"})").rfind("/objective: objective \"goodput\" counts", 0), 0u);
  EXPECT_EQ(spec_error(dir, "{" + base + R"(, "slo": {"tpot": "fast"}})").rfind("/slo/tpot: expected a positive duration", 0), 0u);
  EXPECT_EQ(spec_error(dir, "{" + base + R"(, "search": {"placements": ["scattered"]}})").rfind("/search/placements/0: expected one of", 0), 0u);
  // The spec's own sections of the scenario are checked with it, and reported where the spec has them.
  EXPECT_EQ(spec_error(dir, "{" + base + R"(, "model": {"preset": "tiny", "layers": 0}})").rfind("/model/layers: ", 0), 0u);
  EXPECT_EQ(spec_error(dir, "{" + base + R"(, "workload": {"prompt_tokens": 16, "new_tokens": -1}})").rfind("/workload/new_tokens: ", 0), 0u);
}

TEST(PlanSpec, AComputeSectionNamesItsTableRelativeToTheSpec) {
  const TestDir dir;
  std::filesystem::create_directories(dir.path() / "tables");
  std::ofstream(dir.path() / "tables" / "host.csv") << "op,class,flops,bytes,ns\naten::mm,matmul,1000,100,50\n";
  const std::string base = R"({"scenario": ")" + quickstart() + R"(", "compute": {"mode": "replay", "table": )";
  EXPECT_EQ(spec_error(dir, base + R"("tables/host.csv"}})"), "");
  const PlanSpec spec = load_plan_spec((dir.path() / "spec.json").string());
  bool found = false;
  for (const auto& [pointer, value] : spec.base_overrides()) {
    if (pointer != "/compute") continue;
    found = true;
    // The base reads it from its own folder: the name leads from there to the spec's table.
    const std::filesystem::path from_base =
        std::filesystem::path(quickstart()).parent_path() / value["table"].get<std::string>();
    EXPECT_TRUE(std::filesystem::equivalent(from_base, dir.path() / "tables" / "host.csv")) << value.dump();
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(spec_error(dir, base + R"("tables/none.csv"}})").rfind("/compute/table: ", 0), 0u);
  EXPECT_EQ(spec_error(dir, R"({"scenario": ")" + quickstart() + R"(", "compute": "fast"})").rfind("/compute: expected an object", 0), 0u);
}

TEST(PlanSpec, EveryShippedSpecLoads) {
  int specs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(UNIFERENCE_SCENARIOS_DIR) + "/plans")) {
    if (entry.path().extension() != ".json") continue;
    ++specs;
    try {
      const PlanSpec spec = load_plan_spec(entry.path().string());
      EXPECT_TRUE(std::filesystem::is_regular_file(spec.scenario)) << entry.path();
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what();
    }
  }
  EXPECT_GE(specs, 9) << "the shipped specs of docs/planner.md";
}

TEST(PlanSpec, SizesWithUnits) {
  uint64_t bytes = 0;
  ASSERT_TRUE(parse_bytes("16GB", &bytes));
  EXPECT_EQ(bytes, 16000000000u);
  ASSERT_TRUE(parse_bytes("24GiB", &bytes));
  EXPECT_EQ(bytes, 24ull << 30);
  ASSERT_TRUE(parse_bytes(512, &bytes));
  EXPECT_EQ(bytes, 512u);
  EXPECT_FALSE(parse_bytes("16", &bytes));
  EXPECT_FALSE(parse_bytes("GB", &bytes));
  EXPECT_FALSE(parse_bytes(-3, &bytes));
}

TEST(PlanCandidates, DegreesAreEveryCountToEightThenPowersOfTwo) {
  EXPECT_EQ(degree_choices(4), (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(degree_choices(12), (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 12}));
  EXPECT_EQ(degree_choices(64), (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 16, 32, 64}));
}

TEST(PlanCandidates, SpreadTakesOneEndpointPerSwitchInTurn) {
  // A k = 4 fat-tree: 16 endpoints, 2 under each edge switch.
  EXPECT_EQ(spread_endpoints(4, 16, 2), (std::vector<uint32_t>{0, 2, 4, 6}));
  // Three groups of two: the fourth rank comes back to the first group.
  EXPECT_EQ(spread_endpoints(5, 6, 2), (std::vector<uint32_t>{0, 2, 4, 1, 3}));
}

TEST(PlanCandidates, EnumeratesEveryLayoutOnceDefaultFirst) {
  CandidateSpace space;
  space.devices = 4;
  space.layers = 6;
  space.strategies = {"tp", "pp", "dp"};
  space.presets = {""};
  space.placements = {""};
  // Counted by hand: the default tp4; tp2, tp2-dp2, tp3; pp2 with dp 1 or 2, each with the
  // even split (3 + 3) and, for unlike devices, the four others of six layers (5 x 2); pp3,
  // pp4; dp1 to dp4.
  EXPECT_EQ(enumerate_candidates(space).size(), 1u + 3 + 2 + 2 + 4);
  space.uneven_splits = true;
  const std::vector<PlanCandidate> all = enumerate_candidates(space);
  EXPECT_EQ(all.size(), 1u + 3 + 10 + 2 + 4);
  ASSERT_FALSE(all.empty());
  EXPECT_TRUE(all[0].is_default);
  EXPECT_EQ(all[0].name, "tp4");
  std::set<std::string> names;
  for (const PlanCandidate& c : all) {
    EXPECT_TRUE(names.insert(c.name).second) << c.name;
    EXPECT_LE(c.devices(), 4) << c.name;
  }
  EXPECT_EQ(names.count("pp2-dp2-s1.5"), 1u);
  // Two presets and two placements: four of each layout, but two of dp1, whose one rank sits
  // alike anywhere.
  space.presets = {"gloo", "nccl"};
  space.placements = {"packed", "spread"};
  space.endpoints = 16;
  space.group = 2;
  EXPECT_EQ(enumerate_candidates(space).size(), 4 * all.size() - 2);
  // Devices listed one by one: every layout uses all of them.
  space.exact_devices = true;
  for (const PlanCandidate& c : enumerate_candidates(space)) EXPECT_EQ(c.devices(), 4) << c.name;
}

PlanEntry entry(const std::string& name, double tokens_per_s, double tpot_ns) {
  PlanEntry e;
  e.candidate.name = name;
  e.candidate.parallel.strategy = "tp";
  e.estimate.ran = true;
  e.estimate.meets_slo = true;
  e.estimate.tokens_per_s = tokens_per_s;
  e.estimate.tpot_ns = tpot_ns;
  return e;
}

TEST(PlanReport, TheParetoFrontHoldsThePlansNoOtherBeatsOnBoth) {
  PlanResult result;
  result.entries = {entry("a", 100, 5e6), entry("b", 200, 8e6), entry("c", 150, 9e6),  // c: b beats it on both
                    entry("d", 50, 4e6), entry("e", 200, 9e6)};                          // e: b is as fast, lower
  EXPECT_EQ(pareto_front(result, PlanObjective::kTpot), (std::vector<size_t>{3, 0, 1}));
}

TEST(PlanReport, APlanMeetingTheTargetsRanksFirst) {
  PlanEntry fast = entry("fast", 100, 1e6), slow = entry("slow", 100, 2e6);
  EXPECT_TRUE(ranks_before(fast, fast.estimate, slow, slow.estimate, PlanObjective::kTpot));
  fast.estimate.meets_slo = false;
  EXPECT_TRUE(ranks_before(slow, slow.estimate, fast, fast.estimate, PlanObjective::kTpot));
  // Fewest devices: the count first, then the latency.
  PlanEntry two = entry("two", 100, 3e6), four = entry("four", 100, 1e6);
  two.candidate.parallel.tp = 2;
  four.candidate.parallel.tp = 4;
  EXPECT_TRUE(ranks_before(two, two.estimate, four, four.estimate, PlanObjective::kDevices));
  EXPECT_TRUE(ranks_before(four, four.estimate, two, two.estimate, PlanObjective::kTpot));
}

TEST(SweepSpec, ListedPointsRunInTheirOrderWithTheirNames) {
  const TestDir dir;
  const std::string path = (dir.path() / "sweep.json").string();
  std::ofstream(path) << R"({"scenario": ")" << quickstart()
                      << R"(", "points": [{"name": "tp4", "set": {"/parallel": {"strategy": "tp", "tp": 4}}},
                         {"name": "pp2-fast", "set": {"/parallel": {"strategy": "pp", "pp": 2}, "/network/link/rate": "10Gbps"}}],
                         "seeds": [1, 2]})";
  const SweepSpec spec = load_sweep_spec(path);
  const std::vector<SweepPoint> points = sweep_points(spec);
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(points[0].name, "0001_tp4_seed-1");
  EXPECT_EQ(points[3].name, "0004_pp2-fast_seed-2");
  EXPECT_EQ(points[3].overrides(),
            (std::vector<std::string>{R"(/network/link/rate="10Gbps")", R"(/parallel={"pp":2,"strategy":"pp"})", "/seed=2"}));
  // The seed has a column of its own.
  EXPECT_EQ(swept_pointers(spec), (std::vector<std::string>{"/parallel", "/network/link/rate"}));

  std::ofstream(path) << R"({"scenario": ")" << quickstart() << R"(", "grid": {"/seed": [1]}, "points": []})";
  EXPECT_THROW(load_sweep_spec(path), ScenarioError);
  std::ofstream(path) << R"({"scenario": ")" << quickstart() << R"(", "points": [{"name": "a/b", "set": {"/seed": 1}}]})";
  try {
    load_sweep_spec(path);
    ADD_FAILURE() << "a name with a slash is not a folder name";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.pointer(), "/points/0/name");
  }
}

}  // namespace
}  // namespace uniference
