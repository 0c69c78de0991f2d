// The scenario format: the shipped quickstart, every kind of bad input (each must name the
// exact JSON pointer), defaults, and agreement with scenarios/schema.json.
#include "apps/scenario.h"
#include "apps/scenario_keys.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace uniference {
namespace {

using nlohmann::json;

const std::string kScenariosDir = UNIFERENCE_SCENARIOS_DIR;

json read_json(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  return json::parse(in);
}

json quickstart() { return read_json(kScenariosDir + "/quickstart.json"); }

// Only the keys the format requires.
json minimal() {
  return {{"model", {{"preset", "tiny"}}},
          {"parallel", {{"strategy", "tp"}, {"tp", 2}}},
          {"workload", {{"prompt_tokens", 4}, {"new_tokens", 2}}},
          {"network", {{"topology", "star"}, {"link", {{"rate", "10Gbps"}, {"delay", "1us"}}}}}};
}

// Parses `document` expecting a ScenarioError at `pointer`; returns it for more checks.
ScenarioError expect_error(const json& document, const std::string& pointer) {
  try {
    parse_scenario(document, "quickstart.json");
  } catch (const ScenarioError& error) {
    EXPECT_EQ(error.pointer(), pointer) << error.what();
    EXPECT_NE(std::string(error.what()).find(": " + pointer + ": "), std::string::npos)
        << error.what();
    return error;
  }
  ADD_FAILURE() << "no ScenarioError for " << pointer;
  return ScenarioError("", "", "");
}

json with(json document, const std::string& pointer, const json& value) {
  document[json::json_pointer(pointer)] = value;
  return document;
}

json without(json document, const std::string& pointer) {
  json::json_pointer target(pointer);
  document[target.parent_pointer()].erase(target.back());
  return document;
}

ScenarioError expect_text_error(const std::string& text) {
  try {
    parse_scenario_text(text, "bad.json");
  } catch (const ScenarioError& error) {
    return error;
  }
  ADD_FAILURE() << "no ScenarioError for " << text;
  return ScenarioError("", "", "");
}

TEST(Scenario, QuickstartParsesToItsValues) {
  const Scenario s = load_scenario(kScenariosDir + "/quickstart.json");
  EXPECT_EQ(s.name, "quickstart");
  EXPECT_EQ(s.seed, 42u);
  EXPECT_EQ(s.model.preset, "tiny");
  EXPECT_EQ(s.parallel.strategy, "tp");
  EXPECT_EQ(s.parallel.tp, 4);
  EXPECT_EQ(s.workload.prompt_tokens, 16);
  EXPECT_EQ(s.workload.new_tokens, 8);
  EXPECT_EQ(s.devices.profile, "cpu");
  EXPECT_EQ(s.devices.slowdown, 1.0);
  EXPECT_EQ(s.devices.efficiency, 1.0);
  EXPECT_EQ(s.devices.wake_latency.mean_ns, 0);
  EXPECT_EQ(s.compute_mode, ComputeMode::kModeled);
  EXPECT_EQ(s.network.topology, "star");
  EXPECT_EQ(s.network.link.rate_text, "1Gbps");
  EXPECT_EQ(s.network.link.rate_bps, 1000000000u);
  EXPECT_EQ(s.network.link.delay_text, "50us");
  EXPECT_EQ(s.network.link.delay_ns, 50000);
  EXPECT_EQ(s.network.link.mtu, 1500u);
  EXPECT_EQ(s.network.transport.tcp_variant, "cubic");
  EXPECT_EQ(s.network.transport.segment_size, 1448u);
  EXPECT_EQ(s.network.transport.snd_buf, 131072u);
  EXPECT_EQ(s.network.transport.rcv_buf, 131072u);
  EXPECT_TRUE(s.outputs.trace);
  EXPECT_TRUE(s.outputs.results);
}

TEST(Scenario, DefaultsForOptionalKeys) {
  const Scenario s = parse_scenario(minimal(), "sweeps/tp2-small.json");
  EXPECT_EQ(s.name, "tp2-small");  // the file stem
  EXPECT_EQ(s.source, "sweeps/tp2-small.json");
  EXPECT_EQ(s.seed, 1u);
  EXPECT_EQ(s.devices.profile, "cpu");
  EXPECT_EQ(s.devices.slowdown, 1.0);
  EXPECT_EQ(s.devices.efficiency, 1.0);
  EXPECT_EQ(s.compute_mode, ComputeMode::kModeled);
  EXPECT_EQ(s.network.link.mtu, 1500u);
  EXPECT_EQ(s.network.transport.tcp_variant, "cubic");
  EXPECT_EQ(s.network.transport.segment_size, 1448u);
  EXPECT_EQ(s.network.transport.snd_buf, 131072u);
  EXPECT_EQ(s.network.transport.rcv_buf, 131072u);
  EXPECT_TRUE(s.outputs.trace);
  EXPECT_TRUE(s.outputs.results);
}

TEST(Scenario, DefaultSegmentSizeFillsTheMtu) {
  const Scenario jumbo = parse_scenario(with(minimal(), "/network/link/mtu", 9000), "j.json");
  EXPECT_EQ(jumbo.network.transport.segment_size, 9000u - 52u);
  const Scenario small = parse_scenario(with(minimal(), "/network/link/mtu", 576), "s.json");
  EXPECT_EQ(small.network.transport.segment_size, 576u - 52u);
}

TEST(Scenario, WrongTypeNamesPathExpectedAndFound) {
  ScenarioError e =
      expect_error(with(quickstart(), "/workload/new_tokens", "eight"), "/workload/new_tokens");
  EXPECT_STREQ(
      e.what(),
      "quickstart.json: /workload/new_tokens: expected a positive integer, found \"eight\"");
  EXPECT_EQ(e.source(), "quickstart.json");

  expect_error(with(quickstart(), "/workload/prompt_tokens", 0), "/workload/prompt_tokens");
  expect_error(with(quickstart(), "/devices/wake_latency", "-5us"), "/devices/wake_latency");
  expect_error(with(quickstart(), "/devices/wake_latency", 57), "/devices/wake_latency");
  EXPECT_EQ(parse_scenario(with(quickstart(), "/devices/wake_latency", "57us"), "q.json")
                .devices.wake_latency.mean_ns,
            57000);
  expect_error(with(quickstart(), "/workload/prompt_tokens", 16.0), "/workload/prompt_tokens");
  expect_error(with(quickstart(), "/parallel/tp", -4), "/parallel/tp");
  expect_error(with(quickstart(), "/seed", -1), "/seed");
  expect_error(with(quickstart(), "/seed", "42"), "/seed");
  expect_error(with(quickstart(), "/seed", 1.5), "/seed");
  expect_error(with(quickstart(), "/name", ""), "/name");
  expect_error(with(quickstart(), "/name", "../elsewhere"), "/name");
  expect_error(with(quickstart(), "/name", ".."), "/name");
  expect_error(with(quickstart(), "/name", "a\\b"), "/name");
  expect_error(with(quickstart(), "/name", "tab\there"), "/name");
  EXPECT_EQ(parse_scenario(with(quickstart(), "/name", "TP 4 on a 1 Gbit star"), "q.json").name,
            "TP 4 on a 1 Gbit star");
  expect_error(with(quickstart(), "/model", "tiny"), "/model");
  expect_error(with(quickstart(), "/devices/slowdown", 0), "/devices/slowdown");
  expect_error(with(quickstart(), "/devices/slowdown", "fast"), "/devices/slowdown");
  expect_error(with(quickstart(), "/devices/efficiency", 1.5), "/devices/efficiency");
  expect_error(with(quickstart(), "/devices/efficiency", 0), "/devices/efficiency");
  expect_error(with(quickstart(), "/devices/profile", 3), "/devices/profile");
  expect_error(with(quickstart(), "/outputs/trace", "yes"), "/outputs/trace");
  expect_error(with(quickstart(), "/network/transport", json::array()), "/network/transport");
  expect_error(with(quickstart(), "/network/transport/snd_buf", 0), "/network/transport/snd_buf");
  expect_error(with(quickstart(), "/network/link/mtu", 500), "/network/link/mtu");
  expect_error(with(quickstart(), "/network/link/mtu", 9001), "/network/link/mtu");

  e = expect_error(with(quickstart(), "/network", json::array({1, 2})), "/network");
  EXPECT_EQ(e.detail(), "expected an object, found an array");
}

TEST(Scenario, ChoicesAreChecked) {
  // Names of registered things are checked by scenario_check (scenario_check_test.cpp).
  expect_error(with(quickstart(), "/compute/mode", "replayed"), "/compute/mode");
  expect_error(with(quickstart(), "/compute/mode", "replay"), "/compute/table");
  expect_error(with(quickstart(), "/compute/table", "t.csv"), "/compute/table");
  expect_error(with(with(quickstart(), "/compute/mode", "replay"), "/compute/table", "missing.csv"),
               "/compute/table");
  expect_error(with(quickstart(), "/model/preset", ""), "/model/preset");
  expect_error(with(quickstart(), "/network/topology", 7), "/network/topology");
}

TEST(Scenario, UnknownKeysAreErrors) {
  ScenarioError e =
      expect_error(with(quickstart(), "/network/lnk", json::object()), "/network/lnk");
  EXPECT_EQ(e.detail(),
            "unknown key (did you mean \"link\"?); known keys here: preset, topology, "
            "topology_options, placement, partition, link, switch, transport, ns3_defaults, wan, "
            "intra_server_link");
  expect_error(with(quickstart(), "/modle", json::object()), "/modle");
  expect_error(with(quickstart(), "/network/link/latency", "1ms"), "/network/link/latency");
  expect_error(with(quickstart(), "/outputs/pcapng", true), "/outputs/pcapng");
  // RFC 6901 escapes keep the pointer unambiguous.
  expect_error(with(quickstart(), "/a~1b~0c", 1), "/a~1b~0c");
}

TEST(Scenario, ParallelDegreesDefaultToOneAndStagesAreLayerCounts) {
  json doc = quickstart();
  doc["parallel"] = {{"strategy", "pp"}, {"pp", 2}, {"stages", {4, 2}}, {"micro_batches", 3}};
  doc["workload"]["batch"] = 3;
  const Scenario s = parse_scenario(doc, "q.json");
  EXPECT_EQ(s.parallel.tp, 1);
  EXPECT_EQ(s.parallel.dp, 1);
  EXPECT_EQ(s.parallel.sp, 1);
  EXPECT_EQ(s.parallel.pp, 2);
  EXPECT_EQ(s.parallel.stages, (std::vector<int64_t>{4, 2}));
  EXPECT_EQ(s.parallel.micro_batches, 3);
  EXPECT_EQ(s.workload.batch, 3);
  EXPECT_EQ(parse_scenario(quickstart(), "q.json").workload.batch, 1);
  expect_error(with(doc, "/parallel/stages", json::array()), "/parallel/stages");
  expect_error(with(doc, "/parallel/stages/1", 0), "/parallel/stages/1");
  expect_error(with(doc, "/parallel/dp", 0), "/parallel/dp");
  expect_error(with(doc, "/workload/batch", "2"), "/workload/batch");
  expect_error(with(with(doc, "/parallel/tp", 100000), "/parallel/dp", 100000), "/parallel");
}

TEST(Scenario, MissingRequiredKeysAreErrors) {
  ScenarioError e =
      expect_error(without(quickstart(), "/workload/new_tokens"), "/workload/new_tokens");
  EXPECT_EQ(e.detail(), "missing required key; expected a positive integer");
  expect_error(without(quickstart(), "/model"), "/model");
  expect_error(without(quickstart(), "/model/preset"), "/model/preset");
  expect_error(without(quickstart(), "/parallel/strategy"), "/parallel/strategy");
  expect_error(without(quickstart(), "/workload"), "/workload");
  expect_error(without(quickstart(), "/network"), "/network");
  expect_error(without(quickstart(), "/network/topology"), "/network/topology");
  expect_error(without(quickstart(), "/network/link"), "/network/link");
  expect_error(without(quickstart(), "/network/link/rate"), "/network/link/rate");
  expect_error(without(quickstart(), "/network/link/delay"), "/network/link/delay");
}

TEST(Scenario, BadRatesAreErrors) {
  for (const char* rate :
       {"1 Gbps", "1Gbit", "fast", "1gbps", "Gbps", "", "-1Gbps", "1e9bps", "1.Gbps", " 1Gbps"}) {
    ScenarioError e =
        expect_error(with(quickstart(), "/network/link/rate", rate), "/network/link/rate");
    EXPECT_NE(e.detail().find("expected a data rate such as"), std::string::npos) << e.what();
  }
  ScenarioError e =
      expect_error(with(quickstart(), "/network/link/rate", "0Gbps"), "/network/link/rate");
  EXPECT_EQ(e.detail(), "expected a positive data rate, found \"0Gbps\"");
  e = expect_error(with(quickstart(), "/network/link/rate", "1.5bps"), "/network/link/rate");
  EXPECT_EQ(e.detail(), "expected a whole number of bits per second, found \"1.5bps\"");
  expect_error(with(quickstart(), "/network/link/rate", "99999999999Tbps"), "/network/link/rate");
  expect_error(with(quickstart(), "/network/link/rate", 1000000000), "/network/link/rate");
}

TEST(Scenario, BadDelaysAreErrors) {
  for (const char* delay : {"50", "50 us", "50sec", "50µs", "fifty us", "-5us", "1min"}) {
    ScenarioError e =
        expect_error(with(quickstart(), "/network/link/delay", delay), "/network/link/delay");
    EXPECT_NE(e.detail().find("expected a duration with a unit such as"), std::string::npos)
        << e.what();
  }
  ScenarioError e =
      expect_error(with(quickstart(), "/network/link/delay", "0ms"), "/network/link/delay");
  EXPECT_EQ(e.detail(), "expected a positive duration, found \"0ms\"");
  expect_error(with(quickstart(), "/network/link/delay", "0.5ns"), "/network/link/delay");
  expect_error(with(quickstart(), "/network/link/delay", 50), "/network/link/delay");
}

TEST(Scenario, SegmentSizeMustFitTheMtu) {
  ScenarioError e = expect_error(with(quickstart(), "/network/transport/segment_size", 1460),
                                 "/network/transport/segment_size");
  EXPECT_NE(e.detail().find("expected at most 1448"), std::string::npos) << e.what();
  EXPECT_NE(e.detail().find("/network/link/mtu 1500"), std::string::npos) << e.what();
  EXPECT_NE(e.detail().find("found 1460"), std::string::npos) << e.what();

  json jumbo = with(quickstart(), "/network/link/mtu", 9000);
  EXPECT_EQ(parse_scenario(with(jumbo, "/network/transport/segment_size", 8948), "q.json")
                .network.transport.segment_size,
            8948u);
  expect_error(with(jumbo, "/network/transport/segment_size", 8949),
               "/network/transport/segment_size");
}

TEST(Scenario, NamesAreKeptAsWrittenForTheRegistries) {
  const Scenario s =
      parse_scenario(with(quickstart(), "/network/transport/tcp_variant", "bbr"), "q.json");
  EXPECT_EQ(s.network.transport.tcp_variant, "bbr");
  EXPECT_EQ(s.network.transport.kind, "tcp");
  EXPECT_EQ(s.network.link.model, "");  // not written: the topology's own, once checked
}

TEST(Scenario, Ns3DefaultsAndCollectivesAreReadInKeyOrder) {
  json doc = quickstart();
  doc["network"]["ns3_defaults"] = {{"ns3::TcpSocket::InitialCwnd", 1},
                                    {"ns3::TcpSocket::DelAckCount", "1"}};
  doc["collectives"] = {{"all_reduce", {{"algorithm", "ring"}, {"attributes", {{"A", true}}}}}};
  const Scenario s = parse_scenario(doc, "q.json");
  ASSERT_EQ(s.network.ns3_defaults.size(), 2u);
  EXPECT_EQ(s.network.ns3_defaults[0].name, "ns3::TcpSocket::DelAckCount");
  EXPECT_EQ(s.network.ns3_defaults[1].value, "1");
  ASSERT_EQ(s.collectives.size(), 1u);
  EXPECT_EQ(s.collectives[0].operation, "all_reduce");
  EXPECT_EQ(s.collectives[0].attributes.at(0), (std::pair<std::string, std::string>{"A", "true"}));
  doc["network"]["ns3_defaults"]["ns3::TcpSocket::InitialCwnd"] = json::array();
  expect_error(doc, "/network/ns3_defaults/ns3::TcpSocket::InitialCwnd");
}

TEST(Scenario, OverridesByPointerAreCheckedLikeTheFile) {
  json doc = quickstart();
  apply_override(doc, "/network/link/rate=10Gbps", "q.json");
  apply_override(doc, "/workload/new_tokens=3", "q.json");
  const Scenario s = parse_scenario(doc, "q.json");
  EXPECT_EQ(s.network.link.rate_bps, 10'000'000'000u);
  EXPECT_EQ(s.workload.new_tokens, 3);
  apply_override(doc, "/workload/new_tokens=three", "q.json");
  expect_error(doc, "/workload/new_tokens");
  EXPECT_THROW(apply_override(doc, "workload=1", "q.json"), ScenarioError);
}

TEST(Scenario, InvalidJsonSyntaxHasLineAndColumn) {
  ScenarioError e = expect_text_error("{\n  \"seed\": 42,\n  \"model\": ,\n}\n");
  EXPECT_EQ(e.line(), 3u);
  EXPECT_EQ(e.column(), 12u);  // the ','
  EXPECT_EQ(e.pointer(), "");
  EXPECT_EQ(std::string(e.what()).rfind("bad.json:3:12: invalid JSON: ", 0), 0u) << e.what();

  e = expect_text_error("");
  EXPECT_EQ(e.line(), 1u);
  EXPECT_EQ(e.column(), 1u);

  e = expect_text_error("{\"seed\": 1}\n{");
  EXPECT_EQ(e.line(), 2u);

  e = expect_text_error("{\"seed\": 1,}");
  EXPECT_EQ(e.line(), 1u);
  EXPECT_NE(std::string(e.what()).find("invalid JSON"), std::string::npos) << e.what();
}

TEST(Scenario, ANumberBeyondADoubleIsASyntaxErrorAtIt) {
  // Found by the scenario reader's fuzzer (tests/fuzz): nlohmann throws out_of_range here,
  // not parse_error.
  const ScenarioError e = expect_text_error("{\n  \"seed\": 2e9999\n}\n");
  EXPECT_EQ(e.line(), 2u);
  EXPECT_EQ(e.column(), 11u);  // the number's first digit
  EXPECT_EQ(std::string(e.what()), "bad.json:2:11: invalid JSON: the number 2e9999 is too large");
}

TEST(Scenario, DuplicateKeysAreErrors) {
  ScenarioError e = expect_text_error("{\"seed\": 1, \"seed\": 2}");
  EXPECT_EQ(e.pointer(), "/seed");
  e = expect_text_error(
      "{\"network\": {\"link\": {\"rate\": \"1Gbps\", \"delay\": \"1us\", \"rate\": \"2Gbps\"}}}");
  EXPECT_EQ(e.pointer(), "/network/link/rate");
  // Equal keys in different objects are not duplicates.
  json document = minimal();
  document["devices"] = {{"profile", "cpu"}};
  document["compute"] = {{"mode", "modeled"}};
  EXPECT_NO_THROW(parse_scenario_text(document.dump(), "ok.json"));
}

TEST(Scenario, TopLevelMustBeAnObject) {
  ScenarioError e = expect_text_error("[1, 2]");
  EXPECT_EQ(e.pointer(), "");
  EXPECT_STREQ(e.what(), "bad.json: expected a JSON object at the top level, found an array");
}

TEST(Scenario, UnreadableFileNamesThePath) {
  try {
    load_scenario(kScenariosDir + "/no-such-scenario.json");
    FAIL() << "no error";
  } catch (const ScenarioError& error) {
    EXPECT_NE(std::string(error.what()).find("no-such-scenario.json"), std::string::npos);
    EXPECT_NE(error.detail().find("cannot read"), std::string::npos);
  }
  EXPECT_THROW(load_scenario(kScenariosDir), ScenarioError);
}

// ---- Serving workloads --------------------------------------------------------------------

json serving() { return read_json(kScenariosDir + "/serving.json"); }

TEST(ServingScenario, ShippedServingScenarioParsesToItsValues) {
  const Scenario s = parse_scenario(serving(), "serving.json");
  EXPECT_TRUE(s.workload.is_serving());
  EXPECT_EQ(s.workload.serving.arrivals.rate_per_s, 25);
  EXPECT_EQ(s.workload.serving.arrivals.count, 30);
  EXPECT_EQ(s.workload.serving.prompt.distribution, "uniform");
  EXPECT_EQ(s.workload.prompt_tokens, 48);  // the longest the distribution gives
  EXPECT_EQ(s.workload.new_tokens, 48);
  EXPECT_EQ(s.workload.serving.scheduler.name, "continuous");
  EXPECT_EQ(s.workload.serving.slo_ttft_ns, 50'000'000);
  EXPECT_EQ(s.workload.kv_cache_tokens(), 8 * (48 + 48 - 1));
  EXPECT_EQ(parse_scenario(quickstart(), "q.json").workload.kind, "single");
  EXPECT_EQ(parse_scenario(with(quickstart(), "/workload/batch", 3), "q.json").workload.kind, "batch");
}

TEST(ServingScenario, BadServingKeysNameTheirPointer) {
  expect_error(with(serving(), "/workload/batch", 2), "/workload/batch");
  expect_error(with(quickstart(), "/workload/arrivals", json::object()), "/workload/arrivals");
  expect_error(with(serving(), "/workload/arrivals/duration", "10s"), "/workload/arrivals");
  expect_error(with(serving(), "/workload/arrivals/rate", 0), "/workload/arrivals/rate");
  expect_error(without(serving(), "/workload/arrivals"), "/workload/arrivals");
  expect_error(with(serving(), "/workload/prompt_tokens/distribution", "gaussian"),
               "/workload/prompt_tokens/distribution");
  expect_error(with(serving(), "/workload/prompt_tokens/median", 3), "/workload/prompt_tokens/median");
  expect_error(with(serving(), "/workload/prompt_tokens/max", 4), "/workload/prompt_tokens/max");
  expect_error(with(serving(), "/workload/new_tokens/sigma", -1), "/workload/new_tokens/sigma");
  expect_error(with(serving(), "/workload/scheduler/name", "fifo"), "/workload/scheduler/name");
  expect_error(with(serving(), "/workload/slo/ttft", "soon"), "/workload/slo/ttft");
}

TEST(ServingScenario, TraceLengthsComeFromACsvColumnBesideTheScenario) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "uniference-trace-lengths";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "lengths.csv") << "id,prompt_tokens,new_tokens\n0,12,3\n1,7,9\n";
  std::ofstream(dir / "bad.csv") << "prompt_tokens\n5\nfive\n";
  json doc = with(serving(), "/workload/prompt_tokens",
                  {{"distribution", "trace"}, {"file", "lengths.csv"}});
  const Scenario s = parse_scenario(doc, (dir / "s.json").string());
  EXPECT_EQ(s.workload.serving.prompt.trace, (std::vector<int64_t>{12, 7}));
  EXPECT_EQ(s.workload.prompt_tokens, 12);
  try {
    parse_scenario(with(doc, "/workload/prompt_tokens/file", "bad.csv"), (dir / "s.json").string());
    ADD_FAILURE() << "a bad row was accepted";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.pointer(), "/workload/prompt_tokens/file");
    EXPECT_NE(e.detail().find("bad.csv:3"), std::string::npos) << e.detail();
  }
  try {
    parse_scenario(with(doc, "/workload/prompt_tokens/column", "tokens"), (dir / "s.json").string());
    ADD_FAILURE() << "a missing column was accepted";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.pointer(), "/workload/prompt_tokens/column");
  }
  std::filesystem::remove_all(dir);
}

TEST(Scenario, ShaperIsATokenBucketOnEveryLink) {
  const json shaper = {{"rate", "100Mbps"}, {"burst", 12500}, {"limit", 75000}};
  const Scenario s = parse_scenario(with(quickstart(), "/network/link/shaper", shaper), "q.json");
  ASSERT_TRUE(s.network.link.shaper);
  EXPECT_EQ(s.network.link.shaper->rate_bps, 100000000u);
  EXPECT_EQ(s.network.link.shaper->burst, 12500u);
  EXPECT_EQ(s.network.link.shaper->limit, 75000u);
  EXPECT_FALSE(parse_scenario(quickstart(), "q.json").network.link.shaper);

  expect_error(with(quickstart(), "/network/link/shaper", without(shaper, "/burst")),
               "/network/link/shaper/burst");
  expect_error(with(quickstart(), "/network/link/shaper/rate", "fast"), "/network/link/shaper/rate");
  // One 1500-byte IP packet and its 14-byte Ethernet header must fit the bucket and the queue.
  const ScenarioError small =
      expect_error(with(with(quickstart(), "/network/link/shaper", shaper), "/network/link/shaper/burst", 1513),
                   "/network/link/shaper/burst");
  EXPECT_NE(small.detail().find("at least 1514"), std::string::npos) << small.detail();
  json jumbo = with(with(quickstart(), "/network/link/shaper", shaper), "/network/link/mtu", 9000);
  expect_error(with(jumbo, "/network/link/shaper/limit", 9000), "/network/link/shaper/limit");
}

TEST(Scenario, LinkProfileFileGivesTheMeasuredRateAndDelay) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "uniference-link-profile";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "net.json") << R"({"format": "uniference-network-profile", "format_version": 1,
      "star_link": {"rate_bps": 101234567.6, "delay_s": 1.65e-5}})";
  std::ofstream(dir / "other.json") << R"({"format": "something-else"})";
  const std::string source = (dir / "s.json").string();
  json doc = with(quickstart(), "/network/link", {{"profile", "net.json"}});
  const Scenario s = parse_scenario(doc, source);
  EXPECT_EQ(s.network.link.rate_bps, 101234568u);
  EXPECT_EQ(s.network.link.delay_ns, 16500);
  // Keys beside the profile win, as beside a preset.
  const Scenario faster = parse_scenario(with(doc, "/network/link/rate", "1Gbps"), source);
  EXPECT_EQ(faster.network.link.rate_bps, 1000000000u);
  EXPECT_EQ(faster.network.link.delay_ns, 16500);

  const auto error_at_profile = [&](const json& document) {
    try {
      parse_scenario(document, source);
    } catch (const ScenarioError& e) {
      EXPECT_EQ(e.pointer(), "/network/link/profile") << e.what();
      return std::string(e.detail());
    }
    ADD_FAILURE() << "accepted";
    return std::string();
  };
  EXPECT_NE(error_at_profile(with(doc, "/network/link/profile", "missing.json")).find("missing.json"),
            std::string::npos);
  EXPECT_NE(error_at_profile(with(doc, "/network/link/profile", "other.json")).find("uniference-network-profile"),
            std::string::npos);
  EXPECT_NE(error_at_profile(with(doc, "/network/link/preset", "hdr")).find("not both"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(Scenario, WakeLatencyFileGivesTheMeasuredDelays) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "uniference-wake-latency";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "wake.json") << R"({"format": "uniference-wake-latency", "format_version": 1,
      "threads": "main", "samples_ns": [3120, 41, 6400000]})";
  std::ofstream(dir / "negative.json") << R"({"format": "uniference-wake-latency", "format_version": 1,
      "samples_ns": [3120, -41]})";
  std::ofstream(dir / "empty.json") << R"({"format": "uniference-wake-latency", "format_version": 1,
      "samples_ns": []})";
  std::ofstream(dir / "other.json") << R"({"format": "uniference-network-profile", "format_version": 1})";
  const std::string source = (dir / "s.json").string();
  const Scenario s = parse_scenario(with(quickstart(), "/devices/wake_latency", "wake.json"), source);
  EXPECT_EQ(s.devices.wake_latency.samples_ns, (std::vector<int64_t>{3120, 41, 6400000}));
  EXPECT_EQ(s.devices.wake_latency.mean_ns, 0);
  // The message handling latency reads the same two forms.
  const Scenario handling = parse_scenario(
      with(with(quickstart(), "/devices/handling_latency", "wake.json"), "/devices/wake_latency", "30us"), source);
  EXPECT_EQ(handling.devices.handling_latency.samples_ns, (std::vector<int64_t>{3120, 41, 6400000}));
  EXPECT_EQ(handling.devices.wake_latency.mean_ns, 30000);
  EXPECT_EQ(parse_scenario(with(quickstart(), "/devices/handling_latency", "31us"), source)
                .devices.handling_latency.mean_ns,
            31000);
  expect_error(with(quickstart(), "/devices/handling_latency", "soon"), "/devices/handling_latency");

  const auto error_at_wake = [&](const char* file) {
    try {
      parse_scenario(with(quickstart(), "/devices/wake_latency", file), source);
    } catch (const ScenarioError& e) {
      EXPECT_EQ(e.pointer(), "/devices/wake_latency") << e.what();
      return std::string(e.detail());
    }
    ADD_FAILURE() << file << " accepted";
    return std::string();
  };
  EXPECT_NE(error_at_wake("missing.json").find("missing.json"), std::string::npos);
  EXPECT_NE(error_at_wake("other.json").find("uniference-wake-latency"), std::string::npos);
  EXPECT_NE(error_at_wake("negative.json").find("/samples_ns/1 is -41"), std::string::npos);
  EXPECT_NE(error_at_wake("empty.json").find("non-empty"), std::string::npos);
  std::filesystem::remove_all(dir);
}

// ---- Agreement with scenarios/schema.json ------------------------------------------------

// A document with an object at `pointer`: the serving scenario for the keys only kind
// serving reads, the quickstart for the rest.
json document_for(const std::string& pointer) {
  if (pointer.rfind("/network/link/shaper", 0) == 0) {
    return with(quickstart(), "/network/link/shaper",
                {{"rate", "100Mbps"}, {"burst", 12500}, {"limit", 75000}});
  }
  if (pointer.rfind("/network/wan/budget", 0) == 0) {
    return read_json(kScenariosDir + "/edge-cloud-thz.json");
  }
  if (pointer.rfind("/network/wan", 0) == 0) return read_json(kScenariosDir + "/edge-cloud-geo.json");
  if (pointer.rfind("/workload/disaggregation", 0) == 0) {
    return with(read_json(kScenariosDir + "/serving.json"), "/workload/disaggregation",
                {{"prefill", 1}, {"decode", 1}});
  }
  for (const char* serving_only : {"/workload/arrivals", "/workload/scheduler", "/workload/slo"}) {
    if (pointer.rfind(serving_only, 0) == 0) return read_json(kScenariosDir + "/serving.json");
  }
  return quickstart();
}

// Every key the table calls required is required by the parser: without it, the error is at
// its pointer. (Which keys the parser accepts is the table itself: scenario_keys_under.)
TEST(ScenarioKeys, RequiredKeysAreRequiredByTheParser) {
  int checked = 0;
  for (const ScenarioKey& key : scenario_keys()) {
    if (!key.is_required || key.pointer.find('<') != std::string::npos) continue;
    const std::string parent = key.pointer.substr(0, key.pointer.rfind('/'));
    const json document = document_for(parent);
    if (!parent.empty() && !document.contains(json::json_pointer(parent))) continue;
    SCOPED_TRACE(key.pointer);
    expect_error(without(document, key.pointer), key.pointer);
    ++checked;
  }
  // model, parallel, workload, network and their required keys, arrivals/rate, the shaper's,
  // the wide-area link's model, the disaggregation's pools, the budget's, the fade's, p.
  EXPECT_GE(checked, 15);
}

// The parser's objects are the table's: a key the table does not declare is refused, naming
// its pointer and the keys the table declares there, in table order.
TEST(ScenarioKeys, UnknownKeysListTheTablesKeys) {
  const ScenarioError e = expect_error(with(quickstart(), "/outputs/zz_not_a_key", 1),
                                       "/outputs/zz_not_a_key");
  std::string known;
  for (const std::string& key : scenario_keys_under("/outputs")) {
    known += (known.empty() ? "" : ", ") + key;
  }
  EXPECT_EQ(e.detail(), "unknown key; known keys here: " + known);
  EXPECT_EQ(known, "trace, results, link_samples, trace_max_events, pcap, flow_monitor, report");
}

TEST(ScenarioSchema, EnumsAndDefaultsMatchTheParser) {
  const json schema = read_json(kScenariosDir + "/schema.json");
  const json& props = schema["properties"];
  for (const json& preset : props["model"]["properties"]["preset"]["enum"]) {
    EXPECT_NO_THROW(parse_scenario(with(minimal(), "/model/preset", preset), "m.json")) << preset;
  }
  const json& transport = props["network"]["properties"]["transport"]["properties"];
  for (const json& mode : props["compute"]["properties"]["mode"]["enum"]) {
    if (mode == "replay") continue;  // needs a table file: its own tests
    EXPECT_NO_THROW(parse_scenario(with(minimal(), "/compute/mode", mode), "m.json")) << mode;
  }

  const Scenario d = parse_scenario(minimal(), "m.json");
  EXPECT_EQ(props["seed"]["default"], d.seed);
  const json& devices = props["devices"]["properties"];
  EXPECT_EQ(devices["profile"]["default"], d.devices.profile);
  EXPECT_EQ(devices["slowdown"]["default"], d.devices.slowdown);
  EXPECT_EQ(devices["efficiency"]["default"], d.devices.efficiency);
  EXPECT_EQ(props["compute"]["properties"]["mode"]["default"], compute_mode_name(d.compute_mode));
  const json& link = props["network"]["properties"]["link"]["properties"];
  EXPECT_EQ(link["mtu"]["default"], d.network.link.mtu);
  EXPECT_EQ(transport["tcp_variant"]["default"], d.network.transport.tcp_variant);
  EXPECT_EQ(transport["segment_size"]["default"], d.network.transport.segment_size);
  EXPECT_EQ(transport["snd_buf"]["default"], d.network.transport.snd_buf);
  EXPECT_EQ(transport["rcv_buf"]["default"], d.network.transport.rcv_buf);
  const json& outputs = props["outputs"]["properties"];
  EXPECT_EQ(outputs["trace"]["default"], d.outputs.trace);
  EXPECT_EQ(outputs["results"]["default"], d.outputs.results);
}

}  // namespace
}  // namespace uniference
