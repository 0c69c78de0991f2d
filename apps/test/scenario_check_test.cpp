// The registry-backed half of scenario checking: every name against its registry, every
// ns-3 Attribute against ns-3's TypeId database, the workload against the model's context.
#include "apps/scenario_check.h"
#include "apps/reference.h"
#include "apps/run_scenario.h"
#include "apps/scenario_keys.h"
#include "apps/test/shipped_scenario.h"

#include "bridge/network_registry.h"
#include "bridge/wan_models.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

namespace uniference {
namespace {

using nlohmann::json;

using test::shipped;

json quickstart() { return shipped("quickstart.json"); }

json with(json doc, const std::string& pointer, const json& value) {
  doc[json::json_pointer(pointer)] = value;
  return doc;
}

ScenarioError check_error(const json& doc, const std::string& pointer) {
  try {
    check_scenario(parse_scenario(doc, "q.json"));
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.pointer(), pointer) << e.what();
    return e;
  }
  ADD_FAILURE() << "no error at " << pointer;
  return ScenarioError("", "", "");
}

TEST(ScenarioCheck, QuickstartIsValid) {
  const CheckedScenario c = check_scenario(parse_scenario(quickstart(), "q.json"));
  EXPECT_EQ(c.ranks, 4);
  EXPECT_EQ(c.network.link_rate.GetBitRate(), 1'000'000'000u);
  EXPECT_EQ(c.network.link_delay.GetNanoSeconds(), 50'000);
  EXPECT_EQ(c.network.tcp_variant.GetName(), "ns3::TcpCubic");
}

TEST(ScenarioCheck, NamesAreCheckedAgainstTheirRegistries) {
  ScenarioError e = check_error(with(quickstart(), "/model/preset", "405b"), "/model/preset");
  EXPECT_EQ(e.detail(), "expected a model preset: one of \"tiny\", \"1b\", \"8b\", \"70b\", \"tiny-moe\", "
            "\"mixtral-8x7b\", \"qwen3-30b-a3b\" or \"deepseek-v3\", "
                        "found \"405b\"");
  check_error(with(quickstart(), "/parallel/strategy", "zero"), "/parallel/strategy");
  check_error(with(quickstart(), "/network/topology", "ring"), "/network/topology");
  check_error(with(quickstart(), "/network/transport/kind", "udp"), "/network/transport/kind");
  check_error(with(quickstart(), "/network/link/model", "leo"), "/network/link/model");
  check_error(with(quickstart(), "/devices/profile", "tpu"), "/devices/profile");
  e = check_error(with(quickstart(), "/network/transport/tcp_variant", "Cubic"),
                  "/network/transport/tcp_variant");
  EXPECT_NE(e.detail().find("did you mean \"cubic\"?"), std::string::npos) << e.what();
  check_error(with(quickstart(), "/parallel/tp", 3), "/parallel/tp");
}

TEST(ScenarioCheck, APartitionAppliesToNetworksARunCanCut) {
  const CheckedScenario c =
      check_scenario(parse_scenario(with(quickstart(), "/network/partition", {{"hub", 1}, {"rank3", 0}}), "q.json"));
  EXPECT_EQ(c.network.partition, (std::map<std::string, uint32_t>{{"hub", 1}, {"rank3", 0}}));
  check_error(with(with(quickstart(), "/network/partition", {{"hub", 1}}), "/network/topology", "star-routed"),
              "/network/partition");
  try {
    parse_scenario(with(quickstart(), "/network/partition", {{"hub", "one"}}), "q.json");
    ADD_FAILURE() << "a process that is not a number was taken";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.pointer(), "/network/partition/hub") << e.what();
  }
}

// A scenario of the given parallel settings, batch 4, on the quickstart's network.
json parallel(const json& settings) {
  json doc = with(quickstart(), "/parallel", settings);
  return with(doc, "/workload/batch", 4);
}

TEST(ScenarioCheck, TheRanksAreTheProductOfTheDegrees) {
  const CheckedScenario c = check_scenario(parse_scenario(
      parallel({{"strategy", "tp-pp"}, {"tp", 2}, {"pp", 3}, {"dp", 2}}), "q.json"));
  EXPECT_EQ(c.ranks, 12);
  EXPECT_EQ(c.degrees.pp, 3);
  EXPECT_EQ(check_scenario(parse_scenario(parallel({{"strategy", "voltage"}, {"sp", 4}}), "q.json"))
                .ranks,
            4);
}

TEST(ScenarioCheck, ParallelSettingsAreCheckedAgainstTheStrategyAndModel) {
  // A degree the strategy does not use is named, with the strategy that uses it.
  ScenarioError e = check_error(parallel({{"strategy", "tp"}, {"tp", 2}, {"pp", 2}}), "/parallel/pp");
  EXPECT_NE(e.detail().find("tp-pp"), std::string::npos) << e.detail();
  check_error(parallel({{"strategy", "voltage"}, {"sp", 2}, {"tp", 2}}), "/parallel/tp");
  check_error(parallel({{"strategy", "dp"}, {"dp", 2}, {"sp", 2}}), "/parallel/sp");
  // The tiny model has 6 layers.
  check_error(parallel({{"strategy", "pp"}, {"pp", 7}}), "/parallel/pp");
  check_error(parallel({{"strategy", "pp"}, {"pp", 2}, {"stages", {3, 2}}}), "/parallel/stages");
  check_error(parallel({{"strategy", "pp"}, {"pp", 2}, {"stages", {1, 2, 3}}}), "/parallel/stages");
  check_error(parallel({{"strategy", "tp-pp"}, {"tp", 3}, {"pp", 2}}), "/parallel/tp");
  // Five replicas for four prompts.
  check_error(parallel({{"strategy", "dp"}, {"dp", 5}}), "/parallel/dp");
  // 64 micro-batches of a batch of 4 cut each 16-token prompt into 16 chunks: fine; 128 not.
  check_scenario(parse_scenario(parallel({{"strategy", "pp"}, {"pp", 2}, {"micro_batches", 64}}), "q.json"));
  check_error(parallel({{"strategy", "pp"}, {"pp", 2}, {"micro_batches", 128}}), "/parallel/micro_batches");
}

TEST(ScenarioCheck, WithoutALinkModelTheTopologysOwnIsUsed) {
  EXPECT_EQ(check_scenario(parse_scenario(quickstart(), "q.json")).network.link_model, "ethernet");
  const json routed = with(quickstart(), "/network/topology", "star-routed");
  EXPECT_EQ(check_scenario(parse_scenario(routed, "q.json")).network.link_model,
            "point-to-point");
  // A link model the topology is not built from is refused, naming both.
  ScenarioError e =
      check_error(with(quickstart(), "/network/link/model", "point-to-point"), "/network/topology");
  EXPECT_EQ(e.detail(), "topology 'star' is not built from link model 'point-to-point'");
}

TEST(ScenarioCheck, AShaperIsForTcpLinksOnly) {
  const json shaper = {{"rate", "100Mbps"}, {"burst", 12500}, {"limit", 75000}};
  const json shaped = with(quickstart(), "/network/link/shaper", shaper);
  const ShaperConfig config = check_scenario(parse_scenario(shaped, "q.json")).network.shaper;
  EXPECT_EQ(config.rate.GetBitRate(), 100000000u);
  EXPECT_EQ(config.burst, 12500u);
  EXPECT_EQ(config.limit, 75000u);
  EXPECT_EQ(check_scenario(parse_scenario(quickstart(), "q.json")).network.shaper.rate.GetBitRate(), 0u);
  ScenarioError e = check_error(with(shaped, "/network/transport/kind", "rdma"), "/network/link/shaper");
  EXPECT_NE(e.detail().find("transport tcp only"), std::string::npos) << e.detail();
}

TEST(ScenarioCheck, TcpVariantsAreNs3Classes) {
  // The ns-3 class of each name, spelled out here rather than read from the registry.
  const std::map<std::string, std::string> expected = {
      {"newreno", "ns3::TcpNewReno"}, {"cubic", "ns3::TcpCubic"},
      {"bbr", "ns3::TcpBbr"},         {"linuxreno", "ns3::TcpLinuxReno"},
      {"dctcp", "ns3::TcpDctcp"},     {"highspeed", "ns3::TcpHighSpeed"}};
  for (const auto& [name, type] : expected) {
    EXPECT_EQ(tcp_variants().at(name).type_id().GetName(), type);
  }
}

TEST(ScenarioCheck, PromptLongerThanTheContextIsAScenarioError) {
  // The presets have a context of 2048 positions.
  check_error(with(quickstart(), "/workload/prompt_tokens", 2049), "/workload/prompt_tokens");
  json fits = with(quickstart(), "/workload/prompt_tokens", 2040);
  EXPECT_NO_THROW(check_scenario(parse_scenario(with(fits, "/workload/new_tokens", 9), "q.json")));
  check_error(with(fits, "/workload/new_tokens", 10), "/workload/new_tokens");
}

TEST(ScenarioCheck, Ns3DefaultsAreCheckedAgainstNs3) {
  const std::string at = "/network/ns3_defaults/ns3::TcpSocket::InitialCwnd";
  json doc = quickstart();
  doc["network"]["ns3_defaults"] = {{"ns3::TcpSocket::InitialCwnd", 1}};
  const CheckedScenario c = check_scenario(parse_scenario(doc, "q.json"));
  ASSERT_EQ(c.network.ns3_defaults.size(), 1u);
  EXPECT_EQ(c.network.ns3_defaults[0].second, "1");

  doc["network"]["ns3_defaults"] = {{"ns3::TcpSocket::InitialCwndd", 1}};
  check_error(doc, "/network/ns3_defaults/ns3::TcpSocket::InitialCwndd");
  doc["network"]["ns3_defaults"] = {{"ns3::NoSuchType::Foo", 1}};
  check_error(doc, "/network/ns3_defaults/ns3::NoSuchType::Foo");
  doc["network"]["ns3_defaults"] = {{"ns3::TcpSocket::InitialCwnd", "many"}};
  check_error(doc, at);
  // Set both by a scenario key and here: refused, naming both.
  doc["network"]["ns3_defaults"] = {{"ns3::TcpSocket::SegmentSize", 1000}};
  ScenarioError e = check_error(doc, "/network/ns3_defaults/ns3::TcpSocket::SegmentSize");
  EXPECT_NE(e.detail().find("/network/transport/segment_size"), std::string::npos) << e.what();
}

TEST(ScenarioCheck, CollectivesNameRegisteredAlgorithmsAndAttributes) {
  json doc = quickstart();
  doc["collectives"] = {{"broadcast", {{"algorithm", "ring"}}}};
  const CheckedScenario c = check_scenario(parse_scenario(doc, "q.json"));
  EXPECT_EQ(c.network.collectives.at(OpType::kBroadcast).algorithm, "ring");
  doc["collectives"] = {{"all_reduse", {{"algorithm", "ring"}}}};
  check_error(doc, "/collectives/all_reduse");
  doc["collectives"] = {{"all_reduce", {{"algorithm", "butterfly"}}}};
  check_error(doc, "/collectives/all_reduce/algorithm");
  doc["collectives"] = {{"all_to_all", {{"algorithm", "ring"}}}};
  check_error(doc, "/collectives/all_to_all/algorithm");
  doc["collectives"] = {{"preset", "gloo"}, {"broadcast", {{"algorithm", "ring"}}}};
  const CheckedScenario preset = check_scenario(parse_scenario(doc, "q.json"));
  EXPECT_EQ(preset.network.collective_preset, "gloo");
  EXPECT_EQ(preset.network.collectives.at(OpType::kBroadcast).algorithm, "ring");
  doc["collectives"] = {{"preset", "mpich"}};
  check_error(doc, "/collectives/preset");
  doc["collectives"] = {{"all_reduce", {{"algorithm", "ring"}, {"attributes", {{"Nope", 1}}}}}};
  check_error(doc, "/collectives/all_reduce/attributes/Nope");
}

json serving() { return shipped("serving.json"); }

TEST(ScenarioCheck, ServingNeedsAStrategyThatServesAndACacheForTheLongestRequest) {
  const CheckedScenario checked = check_scenario(parse_scenario(serving(), "s.json"));
  EXPECT_EQ(checked.cache.batch, 8);
  EXPECT_EQ(checked.cache.length, 48 + 48 - 1);
  EXPECT_EQ(checked.scheduler.kv_cache_tokens, 8 * 95);
  const ScenarioError e = check_error(
      with(with(serving(), "/parallel", {{"strategy", "voltage"}, {"sp", 2}}), "/workload/new_tokens", 4),
      "/parallel/strategy");
  EXPECT_NE(e.detail().find("tp, pp, tp-pp"), std::string::npos) << e.detail();
  check_error(with(serving(), "/workload/scheduler/kv_cache_tokens", 94),
              "/workload/scheduler/kv_cache_tokens");
  check_error(with(serving(), "/parallel", {{"strategy", "pp"}, {"pp", 2}, {"micro_batches", 2}}),
              "/parallel/micro_batches");
  check_error(with(serving(), "/workload/new_tokens/max", 2048), "/workload/new_tokens");
}

TEST(ScenarioCheck, DevicesPerRankDtypesAndProfileFiles) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "uniference-devices";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "mine.json")
      << R"({"name": "mine", "peak_flops": {"fp32": 2e12, "bf16": 8e12}, "memory_bandwidth": 5e11})";
  std::ofstream(dir / "broken.json") << R"({"name": "broken", "peak_flops": {}})";
  const std::string file = (dir / "s.json").string();
  json doc = with(quickstart(), "/devices/ranks",
                  {{{"profile", "a100"}}, {{"profile", "mine.json"}, {"slowdown", 2}}, json::object(),
                   json::object()});
  doc = with(doc, "/devices/dtype", "bf16");
  const CheckedScenario checked = check_scenario(parse_scenario(doc, file));
  ASSERT_EQ(checked.rank_devices.size(), 4u);
  EXPECT_EQ(checked.rank_devices[0].peak_flops, 312e12);
  EXPECT_EQ(checked.rank_devices[1].peak_flops, 8e12);
  EXPECT_EQ(checked.rank_devices[1].slowdown, 2);
  EXPECT_EQ(checked.rank_devices[2].name, "cpu");
  EXPECT_EQ(checked.rank_devices[2].bytes_per_element, 2);

  try {
    check_scenario(parse_scenario(with(doc, "/devices/dtype", "fp16"), file));
    ADD_FAILURE() << "fp16 on a profile without an fp16 peak was accepted";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.pointer(), "/devices/dtype");
  }
  try {
    parse_scenario(with(doc, "/devices/ranks/1/profile", "broken.json"), file);
    ADD_FAILURE() << "a broken profile file was accepted";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.pointer(), "/devices/ranks/1/profile");
    EXPECT_NE(e.detail().find("/peak_flops"), std::string::npos) << e.detail();
  }
  check_error(with(quickstart(), "/devices/ranks", {json::object(), json::object(), json::object()}),
              "/devices/ranks");
  std::filesystem::remove_all(dir);
}

TEST(ScenarioCheck, EachRankIsChargedOnItsOwnDevice) {
  // Tensor parallel ranks run the same operators: twice the slowdown, twice the compute.
  json doc = with(quickstart(), "/devices/ranks",
                  {json::object(), {{"slowdown", 2}}, json::object(), json::object()});
  doc = with(doc, "/outputs/trace", false);
  const ScenarioRun run = run_scenario(parse_scenario(doc, "q.json"), false);
  ASSERT_EQ(run.outcome.status, RunOutcome::Status::kCompleted) << run.outcome.report;
  const int64_t base = run.record.ranks[0].compute_ns, slow = run.record.ranks[1].compute_ns;
  EXPECT_NEAR(double(slow), 2.0 * double(base), 2.0 * 64);  // rounding: 1 ns per segment
  EXPECT_EQ(run.record.ranks[2].compute_ns, base);
}

}  // namespace
}  // namespace uniference

namespace uniference {
namespace {

json moe_ep() { return shipped("moe-ep.json"); }

TEST(ScenarioCheck, ExpertParallelismIsCheckedAgainstTheModelAndStrategy) {
  const CheckedScenario c = check_scenario(parse_scenario(moe_ep(), "m.json"));
  EXPECT_EQ(c.ranks, 4);
  EXPECT_EQ(c.dispatch->name, "decomposed");
  // The preset's fabric, with the written topology option beside it.
  EXPECT_EQ(c.network.topology, "two-tier");
  EXPECT_EQ(c.network.link_rate.GetBitRate(), 3'136'000'000'000u);
  EXPECT_EQ(c.network.rdma.switch_latency.GetNanoSeconds(), 700);
  EXPECT_EQ(c.network.rdma.intra_rate.GetBitRate(), 3'136'000'000'000u);
  EXPECT_EQ(c.network.topology_options.at("gpus_per_server"), 2u);
  EXPECT_EQ(c.network.topology_options.at("tier_switches"), 8u);

  ScenarioError e = check_error(with(moe_ep(), "/parallel/ep", 3), "/parallel/ep");
  EXPECT_EQ(e.detail(), "ep=3 does not divide the 8 experts of model 'tiny-moe'");
  e = check_error(with(moe_ep(), "/workload/batch", 6), "/parallel/ep");
  EXPECT_NE(e.detail().find("must be a multiple of ep x dp (4)"), std::string::npos) << e.detail();
  check_error(with(moe_ep(), "/parallel/dispatch", "fastest"), "/parallel/dispatch");
  check_error(with(moe_ep(), "/model/preset", "tiny"), "/parallel/ep");
  // Tensor parallelism of a mixture of experts is not built; a dense strategy refuses ep.
  json tp = with(with(moe_ep(), "/parallel", json{{"strategy", "tp"}, {"tp", 2}}), "/workload/batch", 1);
  e = check_error(tp, "/parallel/tp");
  EXPECT_NE(e.detail().find("spread its experts with strategy ep"), std::string::npos) << e.detail();
  check_error(with(quickstart(), "/parallel/ep", 2), "/parallel/ep");
  check_error(with(moe_ep(), "/collectives/all_to_all", json{{"algorithm", "hierarchical"}}),
              "/collectives/all_to_all/algorithm");
  e = check_error(with(quickstart(), "/parallel/dispatch", "bsp"), "/parallel/dispatch");
  EXPECT_NE(e.detail().find("strategy tp has no experts"), std::string::npos) << e.detail();
}

TEST(ScenarioCheck, NetworkPresetsAndIntraServerLinks) {
  check_error(with(moe_ep(), "/network/preset", "dgx"), "/network/preset");
  // A key written beside the preset wins, merged key by key.
  const CheckedScenario c =
      check_scenario(parse_scenario(with(moe_ep(), "/network/link/rate", "1600Gbps"), "m.json"));
  EXPECT_EQ(c.network.link_rate.GetBitRate(), 1'600'000'000'000u);
  EXPECT_EQ(c.network.link_delay.GetNanoSeconds(), 100);
  const CheckedScenario own = check_scenario(parse_scenario(
      with(moe_ep(), "/network/intra_server_link", json{{"rate", "1280Gbps"}}), "m.json"));
  EXPECT_EQ(own.network.rdma.intra_rate.GetBitRate(), 1'280'000'000'000u);
  EXPECT_EQ(own.network.rdma.intra_delay.GetNanoSeconds(), 100);
  ScenarioError e = check_error(with(quickstart(), "/network/intra_server_link", json{{"rate", "1Tbps"}}),
                                "/network/intra_server_link");
  EXPECT_NE(e.detail().find("rail-optimised and two-tier"), std::string::npos) << e.detail();
  check_error(with(moe_ep(), "/network/intra_server_link/delay", "soon"),
              "/network/intra_server_link/delay");
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A key declared for the life of a test, taken back however the test ends.
struct DeclaredForTest {
  explicit DeclaredForTest(ScenarioKey key) : pointer(key.pointer) {
    add_scenario_key(std::move(key));
  }
  ~DeclaredForTest() { remove_added_scenario_key(pointer); }
  std::string pointer;
};

// One declaration reaches all three places a key is known: the parser accepts it, and the
// reference generates its schema entry and its docs row from it; nothing is edited by hand.
TEST(ScenarioKeys, AToyKeyDeclaredOnceReachesParserSchemaAndDocs) {
  const std::string pointer = "/outputs/toy_flush_every";
  const json document = with(quickstart(), pointer, 3);
  try {
    parse_scenario(document, "q.json");
    ADD_FAILURE() << pointer << " accepted before it was declared";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.pointer(), pointer);
  }

  // A copy of the two generated files of the source tree, regenerated with the toy key.
  const std::string source_root = std::string(UNIFERENCE_SCENARIOS_DIR) + "/..";
  const std::filesystem::path root =
      std::filesystem::temp_directory_path() / ("toy-key-" + std::to_string(::getpid()));
  std::filesystem::create_directories(root / "scenarios");
  std::filesystem::create_directories(root / "docs");
  std::filesystem::copy_file(source_root + "/scenarios/schema.json",
                             root / "scenarios/schema.json");
  std::filesystem::copy_file(source_root + "/docs/scenarios.md", root / "docs/scenarios.md");
  EXPECT_EQ(update_reference(root.string(), false), "");
  {
    DeclaredForTest toy(ScenarioKey(pointer, "positive integer",
                                    "Toy: flush the [trace](#tracejson) every this many spans.",
                                    R"({"type": "integer", "minimum": 1, "default": 4096})"));
    EXPECT_NO_THROW(parse_scenario(document, "q.json"));

    const std::string differ = update_reference(root.string(), true);
    EXPECT_NE(differ.find("schema.json"), std::string::npos) << differ;
    EXPECT_NE(differ.find("scenarios.md"), std::string::npos) << differ;
    const json schema = json::parse(read_text((root / "scenarios/schema.json").string()));
    EXPECT_EQ(schema["properties"]["outputs"]["properties"]["toy_flush_every"],
              json::parse(R"({"description": "Toy: flush the trace every this many spans.",
                              "type": "integer", "minimum": 1, "default": 4096})"));
    const std::string docs = read_text((root / "docs/scenarios.md").string());
    const std::string row =
        "| `/outputs/flow_monitor` |";  // the row before: the toy key comes last in /outputs
    const std::string toy_row =
        "| `/outputs/toy_flush_every` | positive integer | `4096` | Toy: flush the "
        "[trace](#tracejson) every this many spans. |\n";
    const size_t at = docs.find(toy_row);
    ASSERT_NE(at, std::string::npos);
    EXPECT_LT(docs.find(row), at);
    EXPECT_EQ(docs.find("<!-- end generated: scenario_keys -->"), at + toy_row.size());
  }
  // Taken back, the key is refused again and the files regenerate to the source tree's.
  EXPECT_THROW(parse_scenario(document, "q.json"), ScenarioError);
  update_reference(root.string(), true);
  EXPECT_EQ(read_text((root / "scenarios/schema.json").string()),
            read_text(source_root + "/scenarios/schema.json"));
  EXPECT_EQ(read_text((root / "docs/scenarios.md").string()),
            read_text(source_root + "/docs/scenarios.md"));
  std::filesystem::remove_all(root);
}

// The keys only some topologies take are refused on the others, naming the topologies whose
// registry entries take them, as the entries say.
TEST(ScenarioCheck, KeysOnlySomeTopologiesTakeNameTheTopologiesThatDo) {
  const json shaper = {{"rate", "100Mbps"}, {"burst", 12500}, {"limit", 75000}};
  ScenarioError e = check_error(
      with(with(quickstart(), "/network/topology", "wifi-cell"), "/network/link/shaper", shaper),
      "/network/link/shaper");
  EXPECT_EQ(e.detail(), "applies to topologies star and star-routed only; this scenario's is "
                        "'wifi-cell'");
  for (const Topology& topology : topologies().entries()) {
    const bool named = e.detail().find(" " + topology.name + " ") != std::string::npos;
    EXPECT_EQ(named, topology.takes_shaper) << topology.name;
  }
  e = check_error(with(quickstart(), "/network/wan", json{{"model", "geo"}, {"rate", "10Mbps"}}),
                  "/network/wan");
  EXPECT_EQ(e.detail(), "applies to topology 'edge-cloud' only; this scenario's is 'star'");
  EXPECT_TRUE(topologies().at("edge-cloud").has_wide_area_link);
  EXPECT_TRUE(topologies().at("rail-optimised").has_intra_server_links);
  EXPECT_TRUE(topologies().at("two-tier").has_intra_server_links);
  EXPECT_TRUE(wan_models().at("trace").reads_file);
  EXPECT_FALSE(wan_models().at("geo").reads_file);
}

}  // namespace
}  // namespace uniference
