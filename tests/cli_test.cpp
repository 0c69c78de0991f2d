// The uniference binary end to end: determinism of modeled runs, and bad scenarios
// that exit with code 2, name the JSON path, and leave no output behind.
#include "apps/test/process.h"
#include "apps/test/test_dir.h"
#include "apps/test/tool_on_path.h"
#include "tests/cli_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <set>
#include <string>
#include <thread>

namespace uniference {
namespace {

using namespace cli;

std::string quickstart() { return std::string(UNIFERENCE_SCENARIOS_DIR) + "/quickstart.json"; }

// The quickstart scenario with one edit applied to its text.
std::string edited_quickstart(const std::string& from, const std::string& to) {
  std::string text = read_file(quickstart());
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

TEST(Cli, ModeledRunsWriteByteIdenticalTracesAndResults) {
  TestDir dir;
  Result first = run_uniference("run " + quickstart() + " --quiet --out " + (dir / "a"));
  Result second = run_uniference("run " + quickstart() + " --quiet --out " + (dir / "b"));
  ASSERT_EQ(first.exit_code, 0) << first.output;
  ASSERT_EQ(second.exit_code, 0) << second.output;
  for (const char* file : {"results.json", "trace.json"}) {
    std::string a = read_file(dir / (std::string("a/") + file));
    std::string b = read_file(dir / (std::string("b/") + file));
    EXPECT_FALSE(a.empty()) << file;
    EXPECT_TRUE(a == b) << file << " differs between two runs of the same scenario";
  }
  EXPECT_NE(first.output.find("TTFT"), std::string::npos) << first.output;
}

TEST(Cli, MeasuredComputeChargesWallTime) {
  TestDir dir;
  write(dir / "measured.json",
        edited_quickstart("\"mode\": \"modeled\"", "\"mode\": \"measured\""));
  Result result =
      run_uniference("run " + (dir / "measured.json") + " --quiet --out " + (dir / "out"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  auto results = nlohmann::json::parse(read_file(dir / "out/results.json"));
  EXPECT_EQ(results["compute_mode"], "measured");
  // Eight greedy tokens of real libtorch work cannot take less than a microsecond.
  EXPECT_GT(results["ranks"][0]["compute_ns"].get<int64_t>(), 1000);
  EXPECT_EQ(results["tokens"].size(), 8u);
}

// Whether the run's progress lines ("..., 37/2000 tokens, ...") report at least `tokens`
// within `limit`.
bool tokens_reported_within(const Process& run, size_t tokens, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    const std::string err = run.err();
    const size_t at = err.rfind("/2000 tokens");
    if (at != std::string::npos) {
      size_t start = at;
      while (start > 0 && std::isdigit(static_cast<unsigned char>(err[start - 1]))) --start;
      if (start < at && std::stoul(err.substr(start, at - start)) >= tokens) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

TEST(Cli, ARunStoppedBySigintOrSigtermWritesWhatItHasMarkedPartial) {
  for (const int signal : {SIGINT, SIGTERM}) {
    SCOPED_TRACE(signal == SIGINT ? "SIGINT" : "SIGTERM");
    TestDir dir;
    // 2,000 tokens take minutes here: the signal comes in the middle.
    // UNIFERENCE_PROGRESS=1: the progress lines in a file too, to see the run under way.
    Process run({UNIFERENCE_BINARY, "run", quickstart(), "--set", "/workload/new_tokens=2000", "--out",
                 dir / "out"},
                {{"UNIFERENCE_PROGRESS", "1"}}, dir / "stdout", dir / "stderr");
    ASSERT_TRUE(tokens_reported_within(run, 5, std::chrono::seconds(120))) << run.err();
    ::kill(run.pid(), signal);
    EXPECT_EQ(run.wait(std::chrono::seconds(60)), 128 + signal) << run.err();
    const std::string name = signal == SIGINT ? "SIGINT" : "SIGTERM";
    EXPECT_NE(run.err().find("interrupted by " + name), std::string::npos) << run.err();
    const auto results = nlohmann::json::parse(read_file(dir / "out/results.json"));
    ASSERT_TRUE(results.contains("partial")) << results.dump().substr(0, 300);
    EXPECT_NE(results["partial"].get<std::string>().find("interrupted by " + name), std::string::npos);
    // The tokens it had generated, each with its time, and no more.
    const size_t tokens = results["tokens"].size();
    EXPECT_GE(tokens, 5u);
    EXPECT_LT(tokens, 2000u);
    EXPECT_EQ(results["prompts"][0]["token_times_ns"].size(), tokens);
    EXPECT_NO_THROW(nlohmann::json::parse(read_file(dir / "out/trace.json")));
    // Only whole files under their final names.
    std::set<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir / "out")) files.insert(entry.path().filename());
    EXPECT_EQ(files, (std::set<std::string>{"results.json", "trace.json"}));
  }
}

TEST(Cli, ProfileDeviceWritesAProfileAScenarioTakes) {
  TestDir dir;
  Result result = run_uniference("profile-device --name here --out " + (dir / "here.json"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto profile = nlohmann::json::parse(read_file(dir / "here.json"));
  EXPECT_EQ(profile["name"], "here");
  EXPECT_GT(profile["peak_flops"]["fp32"].get<double>(), 0);
  EXPECT_GT(profile["memory_bandwidth"].get<double>(), 0);
  // The machine's memory, read here from /proc/meminfo (the tool asks sysconf).
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  double kib = 0;
  while (meminfo >> key && key != "MemTotal:") meminfo.ignore(256, '\n');
  meminfo >> kib;
  EXPECT_EQ(profile["memory_bytes"].get<double>(), kib * 1024);
  // A scenario names the file in /devices/profile.
  result = run_uniference("validate " + quickstart() + " --set /devices/profile=" + (dir / "here.json"));
  EXPECT_EQ(result.exit_code, 0) << result.output;
}

TEST(Cli, ProfileTimesTheModelsOperatorsAtTheirShapesAndReplayRunsOnIt) {
  TestDir dir;
  Result result = run_uniference("profile --out " + (dir / "tiny.csv") +
                                 " --max-prompt 16 --max-batch 1 --repeats 1");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  // The tiny preset's projections, computed here from its shape (dim 256; 4 of 8 heads of
  // 32 for keys and values: 128; feed-forward 768; vocabulary 32,000): a linear of t rows
  // from 256 inputs to n outputs is 2 t 256 n FLOPs, for prompts of t = 1, 2, 4, 8, 16; the
  // head only ever sees one row (a prefill's logits are its last position's).
  std::set<uint64_t> want = {2 * 256 * 32000};
  for (uint64_t t : {1, 2, 4, 8, 16}) {
    for (uint64_t n : {256, 128, 768}) want.insert(2 * t * 256 * n);
  }
  std::set<uint64_t> linear;
  std::istringstream csv(read_file(dir / "tiny.csv"));
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, "op,class,flops,bytes,ns");
  while (std::getline(csv, line)) {
    std::istringstream fields(line);
    std::string op, kind, flops, bytes, ns;
    std::getline(fields, op, ',');
    std::getline(fields, kind, ',');
    std::getline(fields, flops, ',');
    std::getline(fields, bytes, ',');
    std::getline(fields, ns, ',');
    EXPECT_GT(std::stoll(ns), 0) << line;
    if (op == "aten::linear") linear.insert(std::stoull(flops));
  }
  for (uint64_t flops : want) EXPECT_EQ(linear.count(flops), 1u) << flops << " FLOPs";
  // The simulator replays the table: the quickstart's compute charged from it.
  result = run_uniference("run " + quickstart() + " --quiet --out " + (dir / "replay") +
                          " --set '/compute={\"mode\": \"replay\", \"table\": \"" + (dir / "tiny.csv") + "\"}'");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(nlohmann::json::parse(read_file(dir / "replay/results.json"))["compute_mode"], "replay");
}

TEST(Cli, ADpRunsFlatTokensEqualTheSingleDeviceRuns) {
  // Four replicas know their prompts' tokens in their own order; results.json lists them as
  // one device decoding the whole batch does, so the two flat lists must be equal.
  TestDir dir;
  const std::string dp = std::string(UNIFERENCE_SCENARIOS_DIR) + "/dp.json";
  Result replicas = run_uniference("run " + dp + " --quiet --out " + (dir / "dp"));
  ASSERT_EQ(replicas.exit_code, 0) << replicas.output;
  Result one = run_uniference("run " + dp + " --quiet --set '/parallel={\"strategy\": \"tp\", \"tp\": 1}' --out " +
                              (dir / "one"));
  ASSERT_EQ(one.exit_code, 0) << one.output;
  const auto a = nlohmann::json::parse(read_file(dir / "dp/results.json"));
  const auto b = nlohmann::json::parse(read_file(dir / "one/results.json"));
  EXPECT_EQ(a["tokens"].size(), 8u * 8u);  // 8 prompts, 8 new tokens each
  EXPECT_EQ(a["tokens"], b["tokens"]);
  EXPECT_EQ(a["prompts"][5]["tokens"], b["prompts"][5]["tokens"]);
}

int64_t total_ns_with(const std::string& set, const TestDir& dir, const std::string& out) {
  Result result = run_uniference("run " + quickstart() + " --quiet --set '" + set + "' --out " +
                                 (dir / out));
  EXPECT_EQ(result.exit_code, 0) << result.output;
  return nlohmann::json::parse(read_file(dir / (out + "/results.json")))["total_ns"].get<int64_t>();
}

TEST(Cli, Ns3DefaultsReachNs3InitialWindowOfOneIsSlower) {
  // Every TP all-reduce of the quickstart is a few KiB: with an initial window of one segment
  // each new connection needs extra round trips that ten segments do not.
  TestDir dir;
  const std::string cwnd = "/network/ns3_defaults/ns3::TcpSocket::InitialCwnd=";
  const int64_t one = total_ns_with(cwnd + "1", dir, "one");
  const int64_t ten = total_ns_with(cwnd + "10", dir, "ten");
  EXPECT_GT(one, ten + 100'000) << "cwnd 1: " << one << " ns, cwnd 10: " << ten << " ns";
}

TEST(Cli, UnknownNs3AttributeExitsWith2NamingItsPath) {
  TestDir dir;
  Result result = run_uniference("run " + quickstart() +
                                 " --quiet --set '/network/ns3_defaults/ns3::TcpSocket::Bogus=1'"
                                 " --out " + (dir / "out"));
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("/network/ns3_defaults/ns3::TcpSocket::Bogus"), std::string::npos)
      << result.output;
  EXPECT_TRUE(dir.entries().empty());
}

TEST(Cli, AnOutputThatCannotBeWrittenExitsWith1) {
  TestDir dir;
  write(dir / "file", "a file where the output folder's parent should be");
  Result result = run_uniference("run " + quickstart() + " --quiet --out " + (dir / "file/out"));
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("error"), std::string::npos) << result.output;
}

struct BadScenario {
  const char* name;  // the test's name
  const char* what;
  const char* from;
  const char* to;
  const char* pointer;
};

void PrintTo(const BadScenario& bad, std::ostream* out) { *out << bad.what; }

class CliBadScenario : public ::testing::TestWithParam<BadScenario> {};

TEST_P(CliBadScenario, ExitsWithCode2NamingThePathAndWritesNothing) {
  const BadScenario& bad = GetParam();
  TestDir dir;
  write(dir / "bad.json", edited_quickstart(bad.from, bad.to));
  Result result = run_uniference("run " + (dir / "bad.json") + " --quiet --out " + (dir / "out"));
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find(bad.pointer), std::string::npos)
      << bad.what << ": expected the path " << bad.pointer << " in: " << result.output;
  EXPECT_EQ(dir.entries(), std::set<std::string>{"bad.json"}) << "output left behind";

  Result validated = run_uniference("validate " + (dir / "bad.json"));
  EXPECT_EQ(validated.exit_code, 2) << validated.output;
  EXPECT_NE(validated.output.find(bad.pointer), std::string::npos) << validated.output;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CliBadScenario,
    ::testing::Values(BadScenario{"WrongType", "wrong type", "\"new_tokens\": 8", "\"new_tokens\": \"eight\"",
                                  "/workload/new_tokens"},
                      BadScenario{"UnknownKey", "unknown key", "\"delay\": \"50us\"", "\"dealy\": \"50us\"",
                                  "/network/link/dealy"},
                      BadScenario{"MissingField", "missing field", "\"prompt_tokens\": 16, ", "",
                                  "/workload/prompt_tokens"},
                      BadScenario{"TpNotDividingTheModel",
                                  "tp that does not divide the model", "\"tp\": 4", "\"tp\": 3",
                                  "/parallel/tp"},
                      BadScenario{"PromptLongerThanContext", "a prompt longer than the model's context",
                                  "\"prompt_tokens\": 16", "\"prompt_tokens\": 4096",
                                  "/workload/prompt_tokens"},
                      BadScenario{"UnknownDeviceProfile", "unknown device profile", "\"profile\": \"cpu\"",
                                  "\"profile\": \"abacus\"", "/devices/profile"}),
    [](const ::testing::TestParamInfo<BadScenario>& info) { return info.param.name; });

TEST(Cli, ValidateAcceptsTheQuickstartAndRunsNothing) {
  TestDir dir;
  Result result = run_uniference("validate " + quickstart());
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("valid"), std::string::npos) << result.output;
  EXPECT_EQ(result.output.find("TTFT"), std::string::npos) << result.output;
}

// The quickstart's star: each of its 4 ranks on one cable to the switch, both directions.
TEST(Cli, ValidateLinksListsTheStarsCablesByName) {
  const Result result = run_uniference("validate " + scenario("quickstart.json") + " --links");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  std::vector<std::string> expected;
  for (int r = 0; r < 4; ++r) expected.push_back("hub -> rank" + std::to_string(r));
  for (int r = 0; r < 4; ++r) expected.push_back("rank" + std::to_string(r) + " -> hub");
  std::string text;
  for (const std::string& line : expected) text += line + "\n";
  EXPECT_EQ(result.output, text);
}

// A k-ary fat-tree has k^3/4 endpoint cables, as many edge-aggregation cables (k pods of
// (k/2)^2) and as many aggregation-core cables; the shipped one has k = 4 and ranks placed on
// endpoints 0, 4, 8 and 12, the first endpoint of each pod.
TEST(Cli, ValidateLinksNamesTheFatTreesSwitchesByTier) {
  const Result result = run_uniference("validate " + scenario("fat-tree-rdma.json") + " --links");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  std::istringstream lines(result.output);
  std::set<std::string> cables;
  for (std::string line; std::getline(lines, line);) cables.insert(line);
  const int k = 4;
  EXPECT_EQ(cables.size(), size_t(2 * 3 * k * k * k / 4));
  for (const char* cable : {"rank0 -> pod0-edge0", "rank1 -> pod1-edge0", "rank3 -> pod3-edge0",
                            "pod0-edge0 -> pod0-agg1", "pod2-agg0 -> core1", "core3 -> pod3-agg1",
                            "pod0-edge1 -> endpoint3"}) {
    EXPECT_EQ(cables.count(cable), 1u) << cable << " in:\n" << result.output;
  }
}

TEST(Cli, HelpDocumentsEveryOption) {
  Result result = run_uniference("--help");
  EXPECT_EQ(result.exit_code, 0);
  for (const char* option :
       {"run SCENARIO.json", "validate SCENARIO.json", "--out", "--quiet", "--help", "deadlock",
        "colltest SCENARIO.json", "--preset", "--min-bytes", "--csv", "--plot"}) {
    EXPECT_NE(result.output.find(option), std::string::npos) << option;
  }
}

// Every command's own --help (and -h): exit 0, its synopsis first, no other command's.
struct CommandHelp {
  const char* name;
  const char* synopsis;  // the start of its usage line, as docs and users know it
};

const CommandHelp kCommandHelps[] = {
    {"run", "usage: uniference run SCENARIO.json [--out DIR] [--set POINTER=VALUE]... [--quiet]"},
    {"validate", "usage: uniference validate SCENARIO.json [--links] [--set POINTER=VALUE]..."},
    {"reference", "usage: uniference reference --check|--write SOURCE_ROOT"},
    {"colltest", "usage: uniference colltest SCENARIO.json [--op OP]"},
    {"crosscheck", "usage: uniference crosscheck SCENARIO.json [--set POINTER=VALUE]... [--quiet]"},
    {"compare", "usage: uniference compare MEASURED.csv --scenario SCENARIO.json"},
    {"profile-network", "usage: uniference profile-network [--backend gloo|nccl]"},
    {"profile-device", "usage: uniference profile-device [--name NAME]"},
    {"profile", "usage: uniference profile --out FILE.csv [--model M]"},
    {"launch", "usage: uniference launch (-n N | --netns NS1,NS2,...) SCENARIO.json"},
};

TEST(Cli, EveryCommandsHelpShowsItsOwnSynopsisAndExits0) {
  for (const CommandHelp& help : kCommandHelps) {
    for (const char* flag : {"--help", "-h"}) {
      Result result = run_uniference(std::string(help.name) + " " + flag);
      EXPECT_EQ(result.exit_code, 0) << help.name << " " << flag << "\n" << result.output;
      EXPECT_EQ(result.output.rfind(help.synopsis, 0), 0u)
          << help.name << " " << flag << "\n" << result.output;
      for (const CommandHelp& other : kCommandHelps) {
        if (&other == &help) continue;
        EXPECT_EQ(result.output.find("uniference " + std::string(other.name) + " "),
                  std::string::npos)
            << help.name << "'s help shows " << other.name << "'s\n" << result.output;
      }
    }
  }
}

// A shared option a command's help lists is one it takes: given with a bad value or beside a
// missing file, the command complains about something else, never about the option.
TEST(Cli, EveryCommandsHelpListsOnlyOptionsItTakes) {
  const std::pair<const char*, const char*> shared[] = {
      {"  --out DIR ", "--out x"}, {"  --set POINTER=VALUE ", "--set /a=1"}, {"  --quiet ", "--quiet"}};
  for (const CommandHelp& help : kCommandHelps) {
    const std::string text = run_uniference(std::string(help.name) + " --help").output;
    const std::string options = text.substr(text.find("\noptions:\n"));
    for (const auto& [listed, given] : shared) {
      if (options.find(listed) == std::string::npos) continue;
      const Result result = run_uniference(std::string(help.name) + " " + given);
      EXPECT_EQ(result.output.find("unknown"), std::string::npos)
          << help.name << " lists " << given << " but refuses it:\n" << result.output;
    }
  }
  // profile takes --out FILE of its own, not the shared folder; it lists none of the three.
  const std::string profile = run_uniference("profile --help").output;
  EXPECT_EQ(profile.substr(profile.find("\noptions:\n")).find("--quiet"), std::string::npos) << profile;
}

TEST(Cli, TopHelpShowsEveryCommandsSynopsis) {
  Result result = run_uniference("--help");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  for (const CommandHelp& help : kCommandHelps) {
    // The first form of each command: "usage: " on the first, aligned after it on the rest.
    const std::string synopsis = std::string(help.synopsis).substr(std::string("usage: ").size());
    EXPECT_NE(result.output.find(synopsis), std::string::npos) << help.name << "\n" << result.output;
  }
  EXPECT_NE(result.output.find("registered names"), std::string::npos) << result.output;
}

// --help after a command's arguments is still help; as the value of an option it is only a
// value.
TEST(Cli, HelpAnywhereAmongTheFlagsIsHelp) {
  Result result = run_uniference("run " + quickstart() + " --help");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output.rfind("usage: uniference run ", 0), 0u) << result.output;
  result = run_uniference("validate --set --help");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("validate needs a scenario file"), std::string::npos)
      << "--set took --help as its value\n" << result.output;
}

TEST(Cli, UnknownCommandIsAUsageError) {
  Result result = run_uniference("simulate " + quickstart());
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("unknown command 'simulate'"), std::string::npos) << result.output;
}

TEST(Cli, ADeadlockedProgramExitsWithTheDeadlockCode) {
  Result result = run_command(DEADLOCK_PROGRAM, "");
  EXPECT_EQ(result.exit_code, 3) << result.output;
  EXPECT_NE(result.output.find("rank 0: blocked in recv (rank 1) tag 9"), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("rank 1: blocked in recv (rank 0) tag 9"), std::string::npos)
      << result.output;
}

TEST(Cli, UnknownOptionIsAUsageError) {
  Result result = run_uniference("run " + quickstart() + " --fast");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("--fast"), std::string::npos) << result.output;
}

// colltest: nccl-tests' CSV columns, one row per size, busbw = algbw x (n - 1) / n for an
// all-gather, and no size faster than the links allow: each rank's link must bring in
// (n - 1) / n of S at 1 Gbit/s.
TEST(Cli, ColltestWritesNcclTestsColumnsWithinTheLinkLimit) {
  TestDir dir;
  Result result = run_uniference("colltest " + quickstart() +
                                 " --op all_gather --ranks 4 --min-bytes 64K --max-bytes 256K"
                                 " --iters 2 --csv " + (dir / "ag.csv"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("busbw"), std::string::npos) << result.output;
  std::istringstream csv(read_file(dir / "ag.csv"));
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, "op,ranks,bytes,algorithm,time_s,algbw_GBps,busbw_GBps");
  std::vector<uint64_t> sizes;
  while (std::getline(csv, line)) {
    std::vector<std::string> f;
    std::stringstream fields(line);
    for (std::string field; std::getline(fields, field, ',');) f.push_back(field);
    ASSERT_EQ(f.size(), 7u) << line;
    EXPECT_EQ(f[0], "all_gather");
    EXPECT_EQ(f[1], "4");
    EXPECT_EQ(f[3], "ring");  // the quickstart names no algorithm: the default
    const double bytes = std::stod(f[2]), time = std::stod(f[4]);
    const double algbw = std::stod(f[5]), busbw = std::stod(f[6]);
    EXPECT_NEAR(algbw, bytes / time / 1e9, 1e-6 * algbw) << line;
    EXPECT_NEAR(busbw, algbw * 3 / 4, 1e-6 * busbw) << line;
    EXPECT_GT(time, 0.75 * bytes * 8 / 1e9) << line;
    sizes.push_back(uint64_t(bytes));
  }
  EXPECT_EQ(sizes, (std::vector<uint64_t>{65536, 131072, 262144}));
}

TEST(Cli, ColltestPlotsThroughGnuplot) {
  if (!tool_on_path("gnuplot")) GTEST_SKIP() << "--plot needs gnuplot, which is not on PATH";
  TestDir dir;
  Result result = run_uniference("colltest " + quickstart() +
                                 " --op broadcast --ranks 2 --min-bytes 4K --max-bytes 16K"
                                 " --iters 1 --plot " + (dir / "bcast.png"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(read_file(dir / "bcast.png").substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST(Cli, ColltestBadOptionsExitWith2) {
  Result op = run_uniference("colltest " + quickstart() + " --op all_reduse");
  EXPECT_EQ(op.exit_code, 2);
  EXPECT_NE(op.output.find("unknown --op all_reduse; known: all_reduce"), std::string::npos)
      << op.output;
  Result algorithm = run_uniference("colltest " + quickstart() + " --algorithm butterfly");
  EXPECT_EQ(algorithm.exit_code, 2);
  EXPECT_NE(algorithm.output.find("unknown --algorithm butterfly for all_reduce"),
            std::string::npos)
      << algorithm.output;
  Result preset = run_uniference("colltest " + quickstart() + " --preset mpich");
  EXPECT_EQ(preset.exit_code, 2);
  EXPECT_NE(preset.output.find("unknown collective preset 'mpich'"), std::string::npos)
      << preset.output;
  Result size = run_uniference("colltest " + quickstart() + " --max-bytes 1X");
  EXPECT_EQ(size.exit_code, 2);
  EXPECT_NE(size.output.find("expected a byte count"), std::string::npos) << size.output;
}

}  // namespace
}  // namespace uniference
