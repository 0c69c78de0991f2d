// The deploy binary and `uniference launch`, for real: Gloo processes over loopback.
//
// The tokens a deployment generates are compared with two independent runs of the same
// shard code: the simulated run of the same scenario, and a single-device run (the
// scenario with every degree 1), so a strategy that computed something else over real
// sockets than over the simulator fails here.
#include "apps/test/deploy_support.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <memory>

namespace uniference {
namespace {

using namespace deploy_test;

// Per rank, the communication calls a trace shows the rank waiting in: operation, bytes and
// peer ("all_reduce 16384 -1"), sorted (waits of no time share a timestamp, so a trace's
// order among them says nothing). Flights (on lanes of their own) are left out.
std::map<std::string, std::vector<std::string>> calls_per_rank(const json& trace) {
  std::map<int, std::string> lanes;  // tid -> "rank N"
  for (const json& event : trace.at("traceEvents")) {
    if (event.at("ph") == "M" && event.at("name") == "thread_name" && event.at("pid") == 1) {
      lanes[event.at("tid").get<int>()] = event.at("args").at("name").get<std::string>();
    }
  }
  std::map<std::string, std::vector<std::string>> calls;
  for (const json& event : trace.at("traceEvents")) {
    // A wait of no time is an instant ("i") in the trace.
    const std::string phase = event.at("ph");
    if (event.value("cat", "") != "comm" || (phase != "B" && phase != "i")) continue;
    const json& args = event.at("args");
    if (args.contains("flight")) continue;
    calls[lanes.at(event.at("tid").get<int>())].push_back(
        event.at("name").get<std::string>() + " " + std::to_string(args.at("bytes").get<uint64_t>()) +
        " " + std::to_string(args.value("peer", -1)));
  }
  for (auto& [rank, list] : calls) std::sort(list.begin(), list.end());
  return calls;
}

struct StrategyCase {
  std::string name;        // test name
  std::string scenario;    // shipped scenario it varies
  json parallel;           // its /parallel
  int ranks;
  std::string exchanges = "";  // launch's --exchanges, if any
};

std::ostream& operator<<(std::ostream& out, const StrategyCase& c) { return out << c.name; }

class DeployedTokens : public ::testing::TestWithParam<StrategyCase> {};

TEST_P(DeployedTokens, EqualTheSimulatedAndTheSingleDeviceRuns) {
  const StrategyCase& c = GetParam();
  TestDir dir;
  json scenario = read_json(kScenarios + "/" + c.scenario);
  scenario.erase("$schema");
  scenario["parallel"] = c.parallel;
  scenario["workload"]["new_tokens"] = 4;
  scenario["workload"]["prompt_tokens"] =
      std::min<int64_t>(scenario["workload"]["prompt_tokens"].get<int64_t>(), 32);
  write_json(dir / "scenario.json", scenario);
  json single = scenario;
  single["parallel"] = {{"strategy", "tp"}, {"tp", 1}};
  write_json(dir / "single.json", single);

  std::string out, err;
  ASSERT_EQ(run(dir, "sim", {kUniference, "run", dir / "scenario.json", "--out", dir / "sim", "--quiet"},
                &out, &err), 0) << err;
  ASSERT_EQ(run(dir, "single", {kUniference, "run", dir / "single.json", "--out", dir / "single", "--quiet"},
                &out, &err), 0) << err;
  std::vector<std::string> launch = {kUniference, "launch", "-n", std::to_string(c.ranks), dir / "scenario.json",
                                     "--out", dir / "deploy", "--quiet", "--timeout", "60"};
  if (!c.exchanges.empty()) launch.insert(launch.end(), {"--exchanges", c.exchanges});
  ASSERT_EQ(run(dir, "deploy", launch, &out, &err), 0) << out << err;

  const json deployed = read_json(dir / "deploy/results.json");
  EXPECT_EQ(deployed.at("backend"), "gloo");
  EXPECT_EQ(deployed.at("collectives"), c.exchanges == "stock" ? "gloo" : "gloo-receive-first");
  EXPECT_EQ(deployed.at("ranks").size(), size_t(c.ranks));
  const auto tokens = tokens_per_prompt(deployed);
  EXPECT_EQ(tokens, tokens_per_prompt(read_json(dir / "sim/results.json")));
  EXPECT_EQ(tokens, tokens_per_prompt(read_json(dir / "single/results.json")));
  for (const auto& prompt : tokens) EXPECT_EQ(prompt.size(), 4u);
  // Every call of the deployment pairs with one of the simulation: same rank, operation,
  // size and peer.
  EXPECT_EQ(calls_per_rank(read_json(dir / "deploy/trace.json")),
            calls_per_rank(read_json(dir / "sim/trace.json")));
  // Launch prefixes each rank's output; rank 0 printed the summary in real time.
  EXPECT_NE(out.find("[rank 0] "), std::string::npos) << out;
  EXPECT_NE(out.find("wall time"), std::string::npos) << out;
  // Every rank wrote its own trace too.
  for (int r = 0; r < c.ranks; ++r) {
    EXPECT_TRUE(std::filesystem::exists(dir / ("deploy/rank" + std::to_string(r) + "/trace.json")));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Strategies, DeployedTokens,
    ::testing::Values(
        StrategyCase{"tp2", "quickstart.json", {{"strategy", "tp"}, {"tp", 2}}, 2},
        StrategyCase{"tp4", "quickstart.json", {{"strategy", "tp"}, {"tp", 4}}, 4},
        StrategyCase{"pp2", "pp.json", {{"strategy", "pp"}, {"pp", 2}, {"micro_batches", 2}}, 2},
        StrategyCase{"pp4", "pp.json", {{"strategy", "pp"}, {"pp", 4}, {"micro_batches", 2}}, 4},
        StrategyCase{"tp_pp4", "tp-pp.json", {{"strategy", "tp-pp"}, {"tp", 2}, {"pp", 2}}, 4},
        StrategyCase{"voltage2", "voltage.json", {{"strategy", "voltage"}, {"sp", 2}}, 2},
        StrategyCase{"voltage4", "voltage.json", {{"strategy", "voltage"}, {"sp", 4}}, 4},
        StrategyCase{"kilovolts2", "kilovolts.json", {{"strategy", "kilovolts"}, {"sp", 2}}, 2},
        StrategyCase{"kilovolts4", "kilovolts.json", {{"strategy", "kilovolts"}, {"sp", 4}}, 4},
        StrategyCase{"dp2", "dp.json", {{"strategy", "dp"}, {"dp", 2}}, 2},
        StrategyCase{"tp2_dp2", "dp.json", {{"strategy", "tp"}, {"tp", 2}, {"dp", 2}}, 4},
        StrategyCase{"ep2_decomposed", "moe-ep.json",
                     {{"strategy", "ep"}, {"ep", 2}, {"dispatch", "decomposed"}}, 2},
        StrategyCase{"ep4_bsp", "moe-ep.json", {{"strategy", "ep"}, {"ep", 4}, {"dispatch", "bsp"}}, 4},
        // Gloo's own all-to-all and 2-rank all-gather, as torch.distributed runs them.
        StrategyCase{"ep2_stock", "moe-ep.json", {{"strategy", "ep"}, {"ep", 2}, {"dispatch", "bsp"}}, 2,
                     "stock"},
        StrategyCase{"voltage2_stock", "voltage.json", {{"strategy", "voltage"}, {"sp", 2}}, 2, "stock"}),
    [](const ::testing::TestParamInfo<StrategyCase>& info) { return info.param.name; });

// Serving deployed: the driver's plans, the ragged steps and greedy_next's all-gather over
// real Gloo give every request the tokens the simulation gives it.
TEST(DeployedServing, TwoRanksServeEachRequestTheSimulatedTokens) {
  TestDir dir;
  json scenario = read_json(kScenarios + "/serving.json");
  scenario.erase("$schema");
  scenario["parallel"] = {{"strategy", "tp"}, {"tp", 2}};
  scenario["compute"] = {{"mode", "modeled"}};  // real tensors, real tokens
  scenario["workload"]["arrivals"] = {{"rate", 200}, {"requests", 5}};
  scenario["workload"]["prompt_tokens"] = {{"distribution", "uniform"}, {"min", 4}, {"max", 12}};
  scenario["workload"]["new_tokens"] = {{"distribution", "uniform"}, {"min", 2}, {"max", 4}};
  write_json(dir / "scenario.json", scenario);

  std::string out, err;
  ASSERT_EQ(run(dir, "sim", {kUniference, "run", dir / "scenario.json", "--out", dir / "sim", "--quiet"},
                &out, &err), 0) << err;
  ASSERT_EQ(run(dir, "deploy", {kUniference, "launch", "-n", "2", dir / "scenario.json", "--out",
                                dir / "deploy", "--quiet", "--timeout", "60"},
                &out, &err), 0) << out << err;
  const auto tokens_by_request = [](const json& results) {
    std::map<int64_t, std::vector<int64_t>> tokens;
    for (const json& r : results.at("serving").at("per_request")) {
      tokens[r.at("id").get<int64_t>()] = r.at("tokens").get<std::vector<int64_t>>();
    }
    return tokens;
  };
  const json deployed = read_json(dir / "deploy/results.json");
  EXPECT_EQ(deployed.at("backend"), "gloo");
  const auto tokens = tokens_by_request(deployed);
  EXPECT_EQ(tokens.size(), 5u);
  EXPECT_EQ(tokens, tokens_by_request(read_json(dir / "sim/results.json")));
  EXPECT_TRUE(std::filesystem::exists(dir / "deploy/requests.csv"));
  EXPECT_NE(out.find("throughput"), std::string::npos) << out;
}

// One job of a scenario of several, deployed by name: its own world of two Gloo processes,
// the tokens its simulation among the others gives it. Without a name, or with one the
// scenario has not got, the deployment is refused at /jobs.
TEST(DeployedJob, OneJobOfSeveralDeploysAsItsOwnWorld) {
  TestDir dir;
  json scenario = read_json(kScenarios + "/quickstart.json");
  scenario.erase("$schema");
  scenario["workload"]["new_tokens"] = 4;
  scenario["jobs"] = json::parse(R"([
    {"name": "a", "parallel": {"strategy": "tp", "tp": 2}},
    {"name": "b", "parallel": {"strategy": "tp", "tp": 2}, "workload": {"prompt_tokens": 8, "new_tokens": 3}}
  ])");
  write_json(dir / "scenario.json", scenario);

  std::string out, err;
  ASSERT_EQ(run(dir, "sim", {kUniference, "run", dir / "scenario.json", "--out", dir / "sim", "--quiet"},
                &out, &err), 0) << err;
  ASSERT_EQ(run(dir, "deploy", {kUniference, "launch", "-n", "2", dir / "scenario.json", "--job", "b",
                                "--out", dir / "deploy", "--quiet", "--timeout", "60"},
                &out, &err), 0) << out << err;
  const json simulated = read_json(dir / "sim/results.json");
  const json deployed = read_json(dir / "deploy/results.json");
  ASSERT_EQ(simulated.at("jobs").size(), 2u);
  EXPECT_EQ(deployed.at("tokens"), simulated["jobs"][1].at("tokens"));
  EXPECT_EQ(deployed.at("tokens").size(), 3u);

  EXPECT_EQ(run(dir, "unnamed", {kDeploy, dir / "scenario.json", "--quiet"}, &out, &err), 2);
  EXPECT_NE(err.find("/jobs: holds several jobs (a, b); deploy one with --job NAME"), std::string::npos) << err;
  EXPECT_EQ(run(dir, "unknown", {kDeploy, dir / "scenario.json", "--job", "c", "--quiet"}, &out, &err), 2);
  EXPECT_NE(err.find("has no job \"c\"; its jobs: a, b"), std::string::npos) << err;
}

TEST(DeployBinary, LinksNoNs3) {
  FILE* pipe = popen(("ldd " + kDeploy).c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string libraries;
  char line[512];
  while (fgets(line, sizeof line, pipe)) libraries += line;
  ASSERT_EQ(pclose(pipe), 0) << libraries;
  EXPECT_NE(libraries.find("libtorch"), std::string::npos) << libraries;  // ldd did list them
  EXPECT_EQ(libraries.find("libns3"), std::string::npos) << libraries;
}

TEST(DeployBinary, AWorldSizeTheScenarioDoesNotHaveExits2NamingTheKey) {
  TestDir dir;
  std::string err;
  const ReservedPort port;
  const int code = run(dir, "rank", {kDeploy, kScenarios + "/quickstart.json", "--quiet"}, nullptr, &err,
                       {{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_PORT", port.text()}});
  EXPECT_EQ(code, 2) << err;
  EXPECT_NE(err.find("/parallel"), std::string::npos) << err;
  EXPECT_NE(err.find("WORLD_SIZE is 2"), std::string::npos) << err;
  EXPECT_NE(err.find("tp 4"), std::string::npos) << err;
}

TEST(DeployBinary, AMasterAddressThatDoesNotResolveExits1) {
  TestDir dir;
  std::string err;
  const int code = run(dir, "rank",
                       {kDeploy, kScenarios + "/quickstart.json", "--quiet", "--set", "/parallel/tp=2",
                        "--rendezvous-timeout", "5"},
                       nullptr, &err,
                       {{"RANK", "1"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "no-such-host.invalid"}},
                       60s);
  EXPECT_EQ(code, 1) << err;
  EXPECT_NE(err.find("rank 1"), std::string::npos) << err;
  EXPECT_NE(err.find("no-such-host.invalid"), std::string::npos) << err;
}

TEST(DeployBinary, APortInUseExits1) {
  TestDir dir;
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_ANY);
  socklen_t length = sizeof address;
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(listen(fd, 1), 0);
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  const std::string port = std::to_string(ntohs(address.sin_port));
  std::string err;
  const int code = run(dir, "rank",
                       {kDeploy, kScenarios + "/quickstart.json", "--quiet", "--set", "/parallel/tp=1",
                        "--rendezvous-timeout", "5"},
                       nullptr, &err, {{"RANK", "0"}, {"WORLD_SIZE", "1"}, {"MASTER_PORT", port}}, 60s);
  close(fd);
  EXPECT_EQ(code, 1) << err;
  EXPECT_NE(err.find("port " + port + " is in use"), std::string::npos) << err;
}

// A reserved port is the tests' and the launcher's rendezvous port: nothing else on the host
// may take it while it is held, yet the rank serving the store (c10d's TCPStore) binds it.
TEST(ReservedPort, NoOtherSocketTakesItButTheRendezvousStoreServesOnIt) {
  const ReservedPort port;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(uint16_t(port.port()));
  // An ordinary bind, as any other program's, is refused: the port is not free.
  const int other = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(other, 0);
  const int bound = bind(other, reinterpret_cast<sockaddr*>(&address), sizeof address);
  const int error = errno;
  close(other);
  EXPECT_EQ(bound, -1) << "another socket took reserved port " << port.port();
  EXPECT_EQ(error, EADDRINUSE);

  // One rank that serves the store on the port and runs to the end.
  TestDir dir;
  std::string err;
  const int code = run(dir, "rank",
                       {kDeploy, kScenarios + "/quickstart.json", "--quiet", "--set", "/parallel/tp=1",
                        "--set", "/workload/new_tokens=2", "--rendezvous-timeout", "20", "--out",
                        dir / "out"},
                       nullptr, &err, {{"RANK", "0"}, {"WORLD_SIZE", "1"}, {"MASTER_PORT", port.text()}},
                       120s);
  EXPECT_EQ(code, 0) << err;
}

// `world` ranks of the quickstart deployed torchrun-style on `port` (which the caller keeps
// reserved while they run), with a 10 s operation timeout and `extra` flags; rank r's output
// goes to dir/rank<r>.{out,err}.
std::vector<std::unique_ptr<Process>> start_ranks(const TestDir& dir, const ReservedPort& reserved,
                                                  int world, const std::vector<std::string>& extra) {
  const std::string port = reserved.text();
  std::vector<std::string> argv = {kDeploy, kScenarios + "/quickstart.json", "--timeout", "10",
                                   "--out", dir / "out"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  std::vector<std::unique_ptr<Process>> ranks;
  for (int r = 0; r < world; ++r) {
    const std::string name = "rank" + std::to_string(r);
    ranks.push_back(std::make_unique<Process>(
        argv, std::vector<std::pair<std::string, std::string>>{
                  {"RANK", std::to_string(r)}, {"WORLD_SIZE", std::to_string(world)}, {"MASTER_PORT", port}},
        dir / (name + ".out"), dir / (name + ".err")));
  }
  return ranks;
}

TEST(DeployBinary, KillingOneRankMakesEveryOtherExitNamingIt) {
  TestDir dir;
  // Long enough that the kill lands mid-run: decode goes on for many tokens.
  const ReservedPort port;
  const auto ranks = start_ranks(dir, port, 4, {"--set", "/workload/new_tokens=400"});
  // Rank 0 reports tokens as they come: once the third is out, the run is under way.
  ASSERT_TRUE(ranks[0]->err_contains_within("token 3/", 120s)) << ranks[0]->err();
  kill(ranks[2]->pid(), SIGKILL);
  for (int r : {0, 1, 3}) {
    // The test's own bound: the operation timeout, the census, and slack for a loaded host.
    EXPECT_EQ(ranks[size_t(r)]->wait(60s), 1) << "rank " << r << ": " << ranks[size_t(r)]->err();
    const std::string err = ranks[size_t(r)]->err();
    EXPECT_NE(err.find("lost peer: rank 2"), std::string::npos) << "rank " << r << ": " << err;
  }
}

// Rank 0 also serves the rendezvous store: losing it, the others cannot consult the store and
// say so.
TEST(DeployBinary, KillingRankZeroMakesTheOtherExitNamingIt) {
  TestDir dir;
  const ReservedPort port;
  const auto ranks =
      start_ranks(dir, port, 2, {"--set", "/parallel/tp=2", "--set", "/workload/new_tokens=400"});
  ASSERT_TRUE(ranks[0]->err_contains_within("token 3/", 120s)) << ranks[0]->err();
  kill(ranks[0]->pid(), SIGKILL);
  EXPECT_EQ(ranks[1]->wait(60s), 1) << ranks[1]->err();
  EXPECT_NE(ranks[1]->err().find("lost peer: rank 0"), std::string::npos) << ranks[1]->err();
}

TEST(Launch, ExitsWithTheCodeOfAFailingRank) {
  TestDir dir;
  std::string out, err;
  // quickstart needs 4 ranks: each of the 2 exits 2 naming the key.
  const int code = run(dir, "launch", {kUniference, "launch", "-n", "2", kScenarios + "/quickstart.json",
                                       "--out", dir / "out"}, &out, &err);
  EXPECT_EQ(code, 2) << err;
  EXPECT_NE(err.find("[rank 1] "), std::string::npos) << err;
  EXPECT_NE(err.find("WORLD_SIZE is 2"), std::string::npos) << err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out/results.json"));
}

// `uniference colltest quickstart.json --backend gloo --ranks 2 OPTIONS... --csv dir/sweep.csv`.
int run_real_colltest(const TestDir& dir, const std::vector<std::string>& options, std::string* out,
                      std::string* err) {
  std::vector<std::string> argv = {kUniference, "colltest", kScenarios + "/quickstart.json", "--backend",
                                   "gloo", "--ranks", "2", "--csv", dir / "sweep.csv"};
  argv.insert(argv.end(), options.begin(), options.end());
  return run(dir, "colltest", argv, out, err);
}

TEST(RealColltest, SweepsOnGlooProcessesInTheSimulatorsRows) {
  TestDir dir;
  std::string out, err;
  const int code = run_real_colltest(
      dir, {"--op", "all_reduce", "--min-bytes", "4K", "--max-bytes", "16K", "--iters", "2"}, &out, &err);
  ASSERT_EQ(code, 0) << out << err;
  std::ifstream csv(dir / "sweep.csv");
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, "op,ranks,bytes,algorithm,time_s,algbw_GBps,busbw_GBps");
  std::vector<uint64_t> sizes;
  while (std::getline(csv, line)) {
    std::stringstream fields(line);
    std::string op, ranks, bytes, algorithm, time, algbw, busbw;
    std::getline(fields, op, ','), std::getline(fields, ranks, ','), std::getline(fields, bytes, ',');
    std::getline(fields, algorithm, ','), std::getline(fields, time, ',');
    std::getline(fields, algbw, ','), std::getline(fields, busbw, ',');
    EXPECT_EQ(op, "all_reduce");
    EXPECT_EQ(ranks, "2");
    EXPECT_EQ(algorithm, "gloo-receive-first");  // the preset that simulates the default deployment
    sizes.push_back(std::stoull(bytes));
    const double seconds = std::stod(time);
    EXPECT_GT(seconds, 0);
    // nccl-tests' definitions: algbw = S / t, busbw = algbw x 2 (n - 1) / n.
    EXPECT_NEAR(std::stod(algbw), double(sizes.back()) / seconds / 1e9, 1e-6 * std::stod(algbw));
    EXPECT_NEAR(std::stod(busbw), std::stod(algbw) * 2 * (2 - 1) / 2, 1e-6 * std::stod(algbw));
  }
  EXPECT_EQ(sizes, (std::vector<uint64_t>{4096, 8192, 16384}));
  EXPECT_NE(out.find("[rank 0] "), std::string::npos) << out;
}

TEST(RealColltest, StockExchangesNameThePresetThatSimulatesThem) {
  TestDir dir;
  std::string out, err;
  const int code = run_real_colltest(
      dir, {"--exchanges", "stock", "--op", "all_to_all", "--min-bytes", "4K", "--max-bytes", "4K", "--iters", "1"},
      &out, &err);
  ASSERT_EQ(code, 0) << out << err;
  std::ifstream csv(dir / "sweep.csv");
  std::string header, line;
  std::getline(csv, header);
  std::getline(csv, line);
  EXPECT_EQ(line.rfind("all_to_all,2,4096,gloo,", 0), 0u) << line;
}

TEST(DeployBinary, ExchangesTakeTwoNamesAndOnlyOnGloo) {
  TestDir dir;
  std::string err;
  EXPECT_EQ(run(dir, "bad", {kDeploy, kScenarios + "/quickstart.json", "--exchanges", "sideways"}, nullptr, &err), 2);
  EXPECT_NE(err.find("--exchanges must be stock or receive-first, found 'sideways'"), std::string::npos) << err;
  EXPECT_EQ(run(dir, "nccl", {kDeploy, kScenarios + "/quickstart.json", "--backend", "nccl", "--exchanges", "stock"},
                nullptr, &err), 2);
  EXPECT_NE(err.find("--exchanges is for the gloo backend"), std::string::npos) << err;
  EXPECT_EQ(run(dir, "sim", {kUniference, "colltest", kScenarios + "/quickstart.json", "--exchanges", "stock"},
                nullptr, &err), 2);
  EXPECT_NE(err.find("need --backend"), std::string::npos) << err;
}

TEST(ProfileNetwork, PingPongsTwoRanksAndWritesTheProfile) {
  TestDir dir;
  std::string out, err;
  ASSERT_EQ(run(dir, "profile", {kUniference, "profile-network", "--max-bytes", "2K", "--iters", "2",
                                 "--out", dir / "profile.json"},
                &out, &err),
            0)
      << out << err;
  const json profile = read_json(dir / "profile.json");
  EXPECT_EQ(profile.at("format"), "uniference-network-profile");
  EXPECT_EQ(profile.at("backend"), "gloo");
  std::vector<uint64_t> sizes;
  for (const json& sample : profile.at("samples")) {
    sizes.push_back(sample.at("bytes"));
    EXPECT_GT(sample.at("seconds").get<double>(), 0);
  }
  EXPECT_EQ(sizes, (std::vector<uint64_t>{8, 32, 128, 512, 2048}));
  EXPECT_TRUE(std::isfinite(profile.at("alpha_s").get<double>()));
  EXPECT_NE(out.find("star links: --set /network/link/rate="), std::string::npos) << out;
}

}  // namespace
}  // namespace uniference
