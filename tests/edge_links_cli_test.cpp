// Edge links through the uniference binary. Topology edge-cloud and its wide-area link
// (/network/wan): split inference over a GEO hop takes the round trip per token and gives the
// tokens a star gives, a LEO pass's handover outages appear in the trace, and bad wide-area
// keys exit with code 2 naming their JSON pointer. Topology wifi-cell: tensor parallelism over
// ns-3's Wi-Fi gives the star's tokens, no sooner than the air can carry its bytes. Topology
// lte-cell: a split over ns-3's LTE gives the star's tokens, each no sooner than the backhaul
// allows. Expected times come from the orbit, the PHY rate and the delays, not from the code.
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
using nlohmann::json;

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

// The tokens `document` generates on a 1 Gbit/s star instead of its own network: the network
// decides when tokens come, never which.
json star_tokens(const TestDir& dir, json document) {
  document["network"] = {{"topology", "star"}, {"link", {{"rate", "1Gbps"}, {"delay", "50us"}}}};
  Result run = run_uniference("run " + write_scenario(dir, "star", document) + " --quiet --out " +
                              (dir / "star-out"));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  return read_json(dir / "star-out/results.json")["tokens"];
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

  EXPECT_EQ(star_tokens(dir, geo), results["tokens"]);
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

TEST(WifiCell, TensorParallelSharesTheAirAndGeneratesTheStarsTokens) {
  TestDir dir;
  Result run = run_uniference("run " + scenario("wifi-tp.json") + " --quiet --out " +
                              (dir / "wifi-out"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const json results = read_json(dir / "wifi-out/results.json");
  // One cell is one medium: one station transmits at a time, so every byte any rank sent
  // took its turn on the air at no more than the PHY rate (HE MCS 7, 86 Mbit/s).
  const double air_seconds = double(results["bytes_sent"].get<uint64_t>()) * 8 / 86e6;
  EXPECT_GT(double(results["total_ns"].get<int64_t>()) * 1e-9, air_seconds);

  EXPECT_EQ(star_tokens(dir, read_json(scenario("wifi-tp.json"))), results["tokens"]);
}

TEST(LteCell, SplitAcrossTheCellCrossesTheBackhaulPerTokenAndGeneratesTheStarsTokens) {
  TestDir dir;
  Result run = run_uniference("run " + scenario("lte-split.json") + " --quiet --out " +
                              (dir / "lte-out"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const json results = read_json(dir / "lte-out/results.json");
  // Each token after the first crosses the server's 10 ms link to the core twice (the
  // server's token out, the device's activations in), and the radio on top.
  const std::vector<int64_t> times = results["token_times_ns"].get<std::vector<int64_t>>();
  ASSERT_EQ(times.size(), 8u);
  for (size_t i = 1; i < times.size(); ++i) {
    EXPECT_GT(times[i] - times[i - 1], 2 * 10'000'000) << "token " << i;
  }

  EXPECT_EQ(star_tokens(dir, read_json(scenario("lte-split.json"))), results["tokens"]);
}

class WanBadKey : public ::testing::TestWithParam<BadKey> {};

TEST_P(WanBadKey, ExitsWithCode2NamingThePointer) { expect_refused(GetParam()); }

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
        BadKey{"ShaperOffTheStars", "edge-cloud-geo.json",
               "/network/link/shaper={\"rate\": \"10Mbps\", \"burst\": 3000, \"limit\": 30000}",
               "/network/link/shaper", "star and star-routed only"},
        BadKey{"EveryRankAUe", "lte-split.json", "/network/topology_options={\"devices\": 2}",
               "/network/topology_options/devices", "devices must be below 2"},
        BadKey{"EveryRankAtTheEdge", "edge-cloud-geo.json",
               "/network/topology_options={\"edge\": 2}", "/network/topology_options/edge",
               "edge must be below 2"}),
    bad_key_name);

}  // namespace
}  // namespace uniference
