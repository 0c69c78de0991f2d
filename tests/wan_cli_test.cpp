// Topology edge-cloud and its wide-area link (/network/wan) through the uniference binary:
// split inference over a GEO hop takes the round trip per token and gives the tokens a star
// gives, a LEO pass's handover outages appear in the trace, and bad wide-area keys exit with
// code 2 naming their JSON pointer. Expected times come from the orbit, not from the code.
#include "apps/test/test_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace uniference {
namespace {

using nlohmann::json;

struct Result {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

Result run_uniference(const std::string& args) {
  const std::string command = std::string(UNIFERENCE_BINARY) + " " + args + " 2>&1";
  Result result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string scenario(const std::string& name) {
  return std::string(UNIFERENCE_SCENARIOS_DIR) + "/" + name;
}

json read_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

// Writes `document` as a scenario file into `dir` and returns its path.
std::string write_scenario(const TestDir& dir, const std::string& name, json document) {
  document.erase("$schema");
  const std::string path = dir / (name + ".json");
  std::ofstream(path) << document.dump(2);
  return path;
}

// One way through a geostationary bent pipe overhead: up 35,786 km and down again.
constexpr double kGeoOneWay = 2 * 35786e3 / 299792458.0;

TEST(EdgeCloud, GeoSplitTakesTheRoundTripPerTokenAndGeneratesTheStarsTokens) {
  TestDir dir;
  json geo = read_json(scenario("edge-cloud-geo.json"));
  geo["network"]["wan"].erase("loss");  // lossless: every step is one round trip
  Result run = run_uniference("run " + write_scenario(dir, "geo", geo) + " --quiet --out " +
                              (dir / "geo-out"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const json results = read_json(dir / "geo-out/results.json");
  EXPECT_EQ(results["setup"]["wan"]["model"], "geo");

  // After the first token, each token is the cloud's token crossing the satellite to the
  // edge and the edge stage's output coming back: two one-way trips, plus compute and
  // serialisation of a few kB, well under 2% of the half second. The first of these steps
  // also opens the cloud -> edge TCP connection (a transport connects on its first
  // message), one more round trip.
  const std::vector<int64_t> times = results["token_times_ns"].get<std::vector<int64_t>>();
  ASSERT_EQ(times.size(), 8u);
  for (size_t i = 1; i < times.size(); ++i) {
    const double step = double(times[i] - times[i - 1]) * 1e-9;
    const double round_trips = i == 1 ? 2 : 1;
    EXPECT_GE(step, round_trips * 2 * kGeoOneWay) << "token " << i;
    EXPECT_LE(step, round_trips * 2 * kGeoOneWay * 1.02) << "token " << i;
  }

  // The network decides when tokens come, never which.
  json star = geo;
  star["network"].erase("wan");
  star["network"]["topology"] = "star";
  Result star_run = run_uniference("run " + write_scenario(dir, "star", star) +
                                   " --quiet --out " + (dir / "star-out"));
  ASSERT_EQ(star_run.exit_code, 0) << star_run.output;
  EXPECT_EQ(read_json(dir / "star-out/results.json")["tokens"], results["tokens"]);
}

TEST(EdgeCloud, LeoHandoverOutagesAppearInTheTrace) {
  TestDir dir;
  json leo = read_json(scenario("edge-cloud-leo.json"));
  leo["workload"]["arrivals"]["duration"] = "35s";
  Result run = run_uniference("run " + write_scenario(dir, "leo", leo) + " --quiet --out " +
                              (dir / "out"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const json trace = read_json(dir / "out/trace.json");
  // Handovers every 15 s (the model's default), each out for the scenario's 50 ms.
  std::vector<std::pair<double, double>> outages;  // begin, end, in microseconds
  for (const json& event : trace["traceEvents"]) {
    if (event.value("name", "") != "outage") continue;
    EXPECT_EQ(event["cat"], "link");
    if (event["ph"] == "B") outages.emplace_back(event["ts"].get<double>(), 0.0);
    if (event["ph"] == "E") outages.back().second = event["ts"].get<double>();
  }
  ASSERT_EQ(outages.size(), 2u) << "a run of about 35 s has handovers at 15 s and 30 s";
  for (size_t k = 0; k < outages.size(); ++k) {
    EXPECT_DOUBLE_EQ(outages[k].first, 15e6 * double(k + 1));
    EXPECT_DOUBLE_EQ(outages[k].second - outages[k].first, 50e3);
  }
}

struct BadKey {
  const char* name;
  const char* scenario;
  const char* override_;  // a --set assignment
  const char* pointer;    // the pointer the error must name
  const char* detail;     // a piece of the message
};

void PrintTo(const BadKey& bad, std::ostream* out) { *out << bad.override_; }

class WanBadKey : public ::testing::TestWithParam<BadKey> {};

TEST_P(WanBadKey, ExitsWithCode2NamingThePointer) {
  const BadKey& bad = GetParam();
  Result result = run_uniference("validate " + scenario(bad.scenario) + " --set '" +
                                 bad.override_ + "'");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find(std::string(": ") + bad.pointer + ": "), std::string::npos)
      << "expected the pointer " << bad.pointer << " in: " << result.output;
  EXPECT_NE(result.output.find(bad.detail), std::string::npos) << result.output;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, WanBadKey,
    ::testing::Values(
        BadKey{"UnknownModel", "edge-cloud-geo.json", "/network/wan/model=\"mars\"",
               "/network/wan/model", "\"leo\""},
        BadKey{"BadAttributeValue", "edge-cloud-geo.json",
               "/network/wan/attributes={\"Elevation\": 120}", "/network/wan/attributes/Elevation",
               "Elevation"},
        BadKey{"UnknownAttribute", "edge-cloud-leo.json",
               "/network/wan/attributes={\"Apogee\": 1}", "/network/wan/attributes/Apogee",
               "Apogee"},
        BadKey{"TraceOnAnotherModel", "edge-cloud-geo.json", "/network/wan/trace=\"t.csv\"",
               "/network/wan/trace", "applies to model 'trace' only"},
        BadKey{"TraceMissing", "edge-cloud-geo.json", "/network/wan/model=\"trace\"",
               "/network/wan/trace", "missing"},
        BadKey{"TraceUnreadable", "edge-cloud-geo.json",
               "/network/wan={\"model\": \"trace\", \"rate\": \"1Mbps\", \"trace\": \"none.csv\"}",
               "/network/wan/trace", "cannot read"},
        BadKey{"LossBeyond100Percent", "edge-cloud-geo.json", "/network/wan/loss={\"p\": 150}",
               "/network/wan/loss/p", "a percentage from 0 to 100"},
        BadKey{"BudgetWithRates", "edge-cloud-thz.json", "/network/wan/rate=\"1Gbps\"",
               "/network/wan/budget", "not both"},
        BadKey{"WanOnAStar", "quickstart.json",
               "/network/wan={\"model\": \"geo\", \"rate\": \"1Mbps\"}", "/network/wan",
               "applies to topology 'edge-cloud' only"},
        BadKey{"EveryRankAtTheEdge", "edge-cloud-geo.json",
               "/network/topology_options={\"edge\": 2}", "/network/topology_options/edge",
               "edge must be below 2"}),
    [](const ::testing::TestParamInfo<BadKey>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace uniference
