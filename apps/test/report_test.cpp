// Reports: results.json values checked against numbers the test computes itself, the
// summary's units, and byte-identical output files.
#include "apps/report.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "apps/atomic_file.h"
#include "apps/test/test_dir.h"

namespace uniference {
namespace {

using nlohmann::json;

Scenario small_scenario() {
  json document = {
      {"name", "report-test"},
      {"seed", 7},
      {"model", {{"preset", "tiny"}}},
      {"parallel", {{"strategy", "tp"}, {"tp", 2}}},
      {"workload", {{"prompt_tokens", 4}, {"new_tokens", 4}}},
      {"network", {{"topology", "star"}, {"link", {{"rate", "1Gbps"}, {"delay", "50us"}}}}}};
  return parse_scenario(document, "report-test.json");
}

// The network small_scenario() runs on, as run_scenario would state it.
NetworkSetup small_network() {
  NetworkSetup network;
  network.topology = "star";
  network.transport = "tcp";
  network.link_rate_bps = 1'000'000'000;
  network.link_delay_ns = 50'000;
  network.link_rate_text = "1Gbps";
  network.link_delay_text = "50us";
  network.mtu = 1500;
  network.tcp_variant = "cubic";
  network.segment_size = 1448;
  return network;
}

RunRecord small_record() {
  RunRecord record;
  record.total_ns = 2100000;
  record.token_times_ns = {1000000, 1250000, 1500000, 1760000};
  record.tokens = {17, 3, 99, 42};
  record.token_prompts = {0, 0, 0, 0};
  // Ranks out of order on purpose: reports sort them.
  record.ranks = {{1, 900000, 1150000, 4096, 2100000}, {0, 1200000, 800000, 8192, 2050000}};
  record.ranks[0].bytes_by_label["layer0.o_proj"]["all_reduce"] = 4096;
  record.ranks[1].bytes_by_label["layer0.o_proj"]["all_reduce"] = 8192;
  record.spans = {{0, Span::Kind::kCompute, "layer0.q_proj", 0, 400000, 0, -1},
                  {0, Span::Kind::kCompute, "layer0.q_proj", 400000, 450000, 0, -1},
                  {0, Span::Kind::kCompute, "compute", 450000, 500000, 0, -1},
                  {0, Span::Kind::kComm, "all_reduce", 500000, 600000, 8192, -1}};
  record.messages = {{0, 1, 8192, 500000, 560000, "all_reduce"},
                     {1, 0, 4096, 500000, 580000, "all_reduce"}};
  return record;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Report, ResultsJsonHasTheRecordsNumbers) {
  const RunRecord record = small_record();
  const json results = results_json(small_scenario(), small_network(), record);

  const std::vector<int64_t>& times = record.token_times_ns;
  const int64_t expected_ttft = times[0];
  const double expected_tpot = double(times[3] - times[0]) / 3.0;  // (1760000-1000000)/3

  EXPECT_EQ(results["format"], "uniference-results");
  EXPECT_EQ(results["format_version"], 6);
  EXPECT_EQ(results["scenario"], "report-test");
  EXPECT_EQ(results["seed"], 7);
  EXPECT_EQ(results["compute_mode"], "modeled");
  EXPECT_EQ(results["total_ns"], 2100000);
  EXPECT_TRUE(results["total_ns"].is_number_integer());
  EXPECT_EQ(results["ttft_ns"], expected_ttft);
  EXPECT_TRUE(results["ttft_ns"].is_number_integer());
  EXPECT_DOUBLE_EQ(results["tpot_ns"].get<double>(), expected_tpot);
  EXPECT_EQ(results["tokens"], json::array({17, 3, 99, 42}));
  EXPECT_EQ(results["token_times_ns"], json::array({1000000, 1250000, 1500000, 1760000}));
  EXPECT_EQ(results["messages"], 2);
  EXPECT_EQ(results["bytes_sent"], 8192 + 4096);
  EXPECT_EQ(results["setup"]["link_rate_bps"], 1000000000);
  EXPECT_EQ(results["setup"]["link_delay_ns"], 50000);
  EXPECT_EQ(results["setup"]["transport"], "tcp");
  EXPECT_EQ(results["setup"]["tcp_variant"], "cubic");
  EXPECT_EQ(results["setup"]["tp"], 2);

  ASSERT_EQ(results["ranks"].size(), 2u);
  EXPECT_EQ(results["ranks"][0],
            json({{"rank", 0},
                  {"compute_ns", 1200000},
                  {"comm_wait_ns", 800000},
                  {"bytes_sent", 8192},
                  {"finish_ns", 2050000},
                  {"memory",
                   {{"weight_bytes", 0},
                    {"kv_cache_bytes", 0},
                    {"activation_bytes", 0},
                    {"total_bytes", 0}}},
                  {"compute_ns_by_label", {{"compute", 50000}, {"layer0.q_proj", 450000}}},
                  {"bytes_sent_by_label", {{"layer0.o_proj", {{"all_reduce", 8192}}}}}}));
  EXPECT_EQ(results["ranks"][1]["rank"], 1);
  EXPECT_EQ(results["bytes_sent_by_operation"], json({{"all_reduce", 8192 + 4096}}));
  EXPECT_EQ(results["prompts"],
            json::array({{{"prompt", 0},
                          {"tokens", {17, 3, 99, 42}},
                          {"token_times_ns", {1000000, 1250000, 1500000, 1760000}}}}));
}

TEST(Report, LinkTotalsSumTheSampledIntervals) {
  RunRecord record = small_record();  // 2.1 ms long
  // Two 1 ms intervals and the last 0.1 ms: busy 0.25 ms, then the whole 1 ms, then 0.05 ms.
  record.links.interval_ns = 1000000;
  record.links.links.push_back({"rank0 -> hub", 1000000000, {31250, 125000, 6250},
                                {250000000, 1000000000, 50000000}, 3, 2, 9000, 1500.5, 7000000});
  EXPECT_EQ(results_json(small_scenario(), small_network(), RunRecord(small_record())).count("links"), 0u)
      << "no sampling, no table";
  const json links = results_json(small_scenario(), small_network(), record)["links"];
  EXPECT_EQ(links["interval_ns"], 1000000);
  ASSERT_EQ(links["directions"].size(), 1u);
  const json& link = links["directions"][0];
  EXPECT_EQ(link["name"], "rank0 -> hub");
  EXPECT_EQ(link["bytes"], 31250 + 125000 + 6250);
  EXPECT_EQ(link["busy_ns"], 250000 + 1000000 + 50000);
  EXPECT_DOUBLE_EQ(link["utilisation"].get<double>(), 1300000.0 / 2100000.0);
  EXPECT_DOUBLE_EQ(link["peak_utilisation"].get<double>(), 1.0);  // the middle interval, whole
  EXPECT_EQ(link["drops"], 3);
  EXPECT_EQ(link["marks"], 2);
  EXPECT_EQ(link["queue_peak_bytes"], 9000);
  EXPECT_DOUBLE_EQ(link["queue_mean_bytes"].get<double>(), 1500.5);
  EXPECT_EQ(link["credit_stall_ns"], 7000);  // picoseconds recorded, nanoseconds written
  // The last interval is 0.1 ms long: 0.05 ms busy there is half, not 5%.
  record.links.links[0].busy_ps = {250000000, 500000000, 80000000};
  EXPECT_DOUBLE_EQ(results_json(small_scenario(), small_network(), record)["links"]["directions"][0]
                       ["peak_utilisation"].get<double>(),
                   0.8);
}

TEST(Report, BatchLatenciesAreMeansOverThePrompts) {
  RunRecord record;
  // Two prompts, their tokens interleaved as the ranks knew them.
  record.token_prompts = {0, 1, 0, 1};
  record.tokens = {5, 6, 7, 8};
  record.token_times_ns = {1000, 2000, 3000, 6000};
  const json results = results_json(small_scenario(), small_network(), record);
  EXPECT_EQ(results["ttft_ns"], (1000 + 2000) / 2);
  EXPECT_DOUBLE_EQ(results["tpot_ns"].get<double>(), ((3000 - 1000) + (6000 - 2000)) / 2.0);
  EXPECT_EQ(results["prompts"][1]["tokens"], json::array({6, 8}));
  EXPECT_EQ(results["prompts"][1]["token_times_ns"], json::array({2000, 6000}));
}

TEST(Report, TheFlatTokenListGoesStepByStepWhateverOrderTheRanksKnewThem) {
  RunRecord record;
  // As two data-parallel replicas know them: each its own prompt's, one replica first; the
  // second prompt is one token longer.
  record.token_prompts = {0, 0, 1, 1, 1};
  record.tokens = {5, 7, 6, 8, 9};
  record.token_times_ns = {1000, 3000, 1000, 3000, 5000};
  const json results = results_json(small_scenario(), small_network(), record);
  EXPECT_EQ(results["tokens"], json::array({5, 6, 7, 8, 9}));
  EXPECT_EQ(results["token_times_ns"], json::array({1000, 1000, 3000, 3000, 5000}));  // paired
}

TEST(Report, MemoryBeyondTheDeviceIsAVerdict) {
  RunRecord record = small_record();
  record.device_memory_bytes = 80'000'000'000;
  for (RankStats& stats : record.ranks) {
    stats.weight_bytes = 70'000'000'000;
    stats.kv_cache_bytes = 5'000'000'000;
    stats.activation_bytes = stats.rank == 1 ? 6'000'000'000 : 1'000'000'000;
  }
  const json results = results_json(small_scenario(), small_network(), record);
  EXPECT_EQ(results["memory"]["device_bytes"], 80'000'000'000ull);
  EXPECT_EQ(results["memory"]["fits"], false);
  EXPECT_EQ(results["memory"]["ranks_over"], json::array({1}));
  EXPECT_EQ(results["ranks"][1]["memory"]["total_bytes"], 81'000'000'000ull);
  const std::string table = summary_table(small_scenario(), small_network(), record);
  EXPECT_NE(table.find("does not fit: 1 of 2 ranks need more than the cpu's 80.000 GB (rank 1: "
                       "81.000 GB)"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("76.000 GB"), std::string::npos) << "rank 0's total in its row\n" << table;

  record.device_memory_bytes = 100'000'000'000;
  EXPECT_EQ(results_json(small_scenario(), small_network(), record)["memory"]["fits"], true);
  EXPECT_EQ(summary_table(small_scenario(), small_network(), record).find("does not fit"), std::string::npos);
}

TEST(Report, NoTokensGiveZeroLatencies) {
  RunRecord record;
  const json results = results_json(small_scenario(), small_network(), record);
  EXPECT_EQ(results["ttft_ns"], 0);
  EXPECT_EQ(results["tpot_ns"], 0.0);
  EXPECT_EQ(results["tokens"], json::array());
  EXPECT_EQ(results["ranks"], json::array());
}

TEST(Report, DurationsInReadableUnits) {
  EXPECT_EQ(format_duration(0), "0 ns");
  EXPECT_EQ(format_duration(999), "999 ns");
  EXPECT_EQ(format_duration(1000), "1.000 µs");
  EXPECT_EQ(format_duration(50000), "50.000 µs");
  EXPECT_EQ(format_duration(999999), "999.999 µs");
  EXPECT_EQ(format_duration(1000000), "1.000 ms");
  EXPECT_EQ(format_duration(1234567), "1.235 ms");  // rounded half up
  EXPECT_EQ(format_duration(1234499), "1.234 ms");
  EXPECT_EQ(format_duration(999999700), "1.000 s");  // rounding carries into the next unit
  EXPECT_EQ(format_duration(2500000000), "2.500 s");
  EXPECT_EQ(format_duration(3600000000000), "3600.000 s");
  EXPECT_EQ(format_duration(-1500), "-1.500 µs");
}

TEST(Report, AnRdmaRunReportsTheFabricsSettingsNotTcps) {
  NetworkSetup network;
  network.topology = "fat-tree";
  network.transport = "rdma";
  network.link_rate_bps = 200'000'000'000;
  network.link_delay_ns = 100;
  network.link_rate_text = "200Gbps";
  network.link_delay_text = "100ns";
  network.ib_mtu = 2048;
  network.congestion_control = "dcqcn";
  network.placement = {0, 4};
  const std::string table = summary_table(small_scenario(), network, small_record());
  EXPECT_NE(table.find("ib mtu 2048, rdma, congestion control dcqcn, ecmp routing, placement "
                       "endpoints 0 4"),
            std::string::npos)
      << table;
  EXPECT_EQ(table.find("tcp"), std::string::npos) << table;
  const json setup = results_json(small_scenario(), network, small_record())["setup"];
  EXPECT_EQ(setup["transport"], "rdma");
  EXPECT_EQ(setup["ib_mtu"], 2048);
  EXPECT_EQ(setup["congestion_control"], "dcqcn");
  EXPECT_EQ(setup["routing"], "ecmp");
  EXPECT_EQ(setup["placement"], json::array({0, 4}));
  EXPECT_FALSE(setup.contains("tcp_variant"));
  EXPECT_FALSE(setup.contains("mtu"));
}

// A deployment ran on a real network: its reports state none of the scenario's simulated one.
TEST(Report, ADeploymentsReportsStateNoSimulatedNetwork) {
  RunRecord record = small_record();
  record.deployed_on = "gloo";
  const json setup = results_json(small_scenario(), record)["setup"];
  for (const char* key : {"topology", "transport", "link_rate_bps", "link_delay_ns", "mtu"}) {
    EXPECT_FALSE(setup.contains(key)) << key;
  }
  EXPECT_EQ(setup["tp"], 2);
  const std::string table = summary_table(small_scenario(), record);
  EXPECT_NE(table.find("deployed on gloo"), std::string::npos) << table;
  EXPECT_EQ(table.find("network:"), std::string::npos) << table;
}

TEST(Report, SummaryTableShowsLatenciesAndRanks) {
  const std::string table = summary_table(small_scenario(), small_network(), small_record());
  EXPECT_NE(table.find("simulated time  2.100 ms\n"), std::string::npos) << table;
  EXPECT_NE(table.find("TTFT            1.000 ms\n"), std::string::npos) << table;
  EXPECT_NE(table.find("TPOT            253.333 µs\n"), std::string::npos) << table;
  EXPECT_NE(table.find("tokens          4\n"), std::string::npos) << table;
  // compute 2100000 of 4050000 busy ns: 51.85...% -> 51.9%
  EXPECT_NE(table.find("51.9% / 48.1%"), std::string::npos) << table;
  EXPECT_NE(table.find("1Gbps links, 50us delay"), std::string::npos) << table;
  // Rank rows in rank order, columns aligned although "µs" is two bytes.
  const size_t row0 = table.find("       0      1.200 ms");
  const size_t row1 = table.find("       1    900.000 µs");
  ASSERT_NE(row0, std::string::npos) << table;
  ASSERT_NE(row1, std::string::npos) << table;
  EXPECT_LT(row0, row1);
  EXPECT_EQ(table.back(), '\n');
}

TEST(Report, WriteOutputsIsDeterministicAndAtomic) {
  TestDir dir;
  const Scenario scenario = small_scenario();
  const RunRecord record = small_record();
  write_outputs(scenario, small_network(), record, dir / "a/nested");
  write_outputs(scenario, small_network(), record, dir / "b");
  for (const char* name : {"results.json", "trace.json"}) {
    const std::string first = read_file(dir / (std::string("a/nested/") + name));
    EXPECT_FALSE(first.empty()) << name;
    EXPECT_EQ(first, read_file(dir / (std::string("b/") + name))) << name;
    json parsed;
    EXPECT_NO_THROW(parsed = json::parse(first)) << name;
  }
  EXPECT_EQ(json::parse(read_file(dir / "a/nested/results.json")),
            results_json(scenario, small_network(), record));
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path() / "b")) {
    names.insert(entry.path().filename().string());
  }
  EXPECT_EQ(names, (std::set<std::string>{"results.json", "trace.json"}));
}

TEST(Report, WriteOutputsHonoursTheOutputSwitches) {
  TestDir dir;
  Scenario scenario = small_scenario();
  scenario.outputs.trace = false;
  write_outputs(scenario, small_record(), dir / "only-results");
  EXPECT_TRUE(std::filesystem::exists(dir / "only-results/results.json"));
  EXPECT_FALSE(std::filesystem::exists(dir / "only-results/trace.json"));
}

TEST(Report, WriteOutputsNamesAnUnusableFolder) {
  TestDir dir;
  write_file_atomically(dir / "file", "x");
  try {
    write_outputs(small_scenario(), small_record(), dir / "file/out");
    FAIL() << "no error";
  } catch (const OutputError& error) {
    EXPECT_NE(std::string(error.what()).find("file/out"), std::string::npos) << error.what();
  }
  EXPECT_EQ(dir.entries(), std::set<std::string>{"file"});
}

TEST(TraceWindow, KeepsTheEarliestEventsUpToTheCap) {
  RunRecord record;
  record.total_ns = 100;
  for (int i = 0; i < 6; ++i) record.spans.push_back(Span{0, Span::Kind::kCompute, "c", 10 * i, 10 * i + 5});
  for (int i = 0; i < 4; ++i) record.messages.push_back(NetMessage{0, 1, 8, 10 * i + 1, 10 * i + 9});
  int64_t cut = 0;
  EXPECT_EQ(trace_window(record, 10, &cut).spans.size(), 6u);
  EXPECT_EQ(cut, -1);
  // Starts in order: 0 1 10 11 20 21 30 31 40 50; five kept, cut at the sixth (21).
  const RunRecord window = trace_window(record, 5, &cut);
  EXPECT_EQ(cut, 21);
  EXPECT_EQ(window.spans.size(), 3u);
  EXPECT_EQ(window.messages.size(), 2u);
}

}  // namespace
}  // namespace uniference
