// `uniference report` and /outputs/report on shipped scenarios: the page is made, is the same
// from the run and from the folder, and its plots draw in a real browser (Debian's chromium,
// headless; skipped, saying so, where it is not installed).
#include "apps/test/test_dir.h"
#include "apps/test/tool_on_path.h"
#include "tests/cli_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <regex>
#include <set>
#include <string>

namespace uniference {
namespace {

using namespace cli;
using json = nlohmann::json;

// The plots a page should hold, from what the folder has: per-rank bars and compute by
// operation and by layer always; communication wait where the trace has waits; four latency
// CDFs for serving; the link heat map where the trace has link counters; the outage map
// where it has outage tracks; a delay and a rate plot per time-varying link.
size_t plots_expected(const std::string& dir) {
  const json results = json::parse(read_file(dir + "/results.json"));
  size_t plots = 3;
  if (results.contains("serving")) plots += 4;
  const std::string trace = read_file(dir + "/trace.json");
  if (trace.find("\"cat\":\"comm\"") != std::string::npos) ++plots;
  if (trace.find("\"cat\":\"link\",\"ph\":\"C\"") != std::string::npos) ++plots;
  if (trace.find("\"outages: ") != std::string::npos) ++plots;
  std::set<std::string> varying;
  const json events = json::parse(trace)["traceEvents"];
  for (const json& event : events) {
    const std::string name = event.value("name", "");
    if (event.value("cat", "") == "link-condition" && name.rfind("delay: ", 0) == 0) varying.insert(name);
  }
  return plots + 2 * varying.size();
}

// data-NAME="N" of the page's body, or -1.
long body_number(const std::string& html, const std::string& name) {
  std::smatch match;
  if (!std::regex_search(html, match, std::regex("<body[^>]* data-" + name + "=\"([0-9]+)\""))) return -1;
  return std::stol(match[1]);
}

class ReportOfShippedScenario : public ::testing::TestWithParam<const char*> {};

TEST_P(ReportOfShippedScenario, DrawsEveryPlotInHeadlessChromium) {
  const TestDir dir;
  const std::string out = dir / "run";
  const Result run = run_uniference("run " + scenario(GetParam()) + " --quiet --out " + out +
                                    " --set /outputs/report=true");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string page = read_file(out + "/report.html");
  const size_t expected = plots_expected(out);
  EXPECT_EQ(body_number(page, "plots"), long(expected)) << GetParam();
  // The run names its ns-3 build in the setup, which results.json leaves out.
  const std::regex build_item("<div><dt>ns-3 build</dt><dd>ns-3 3\\.37 \\([^<]*\\)</dd></div>");
  EXPECT_TRUE(std::regex_search(page, build_item)) << "no ns-3 build in the setup";
  EXPECT_EQ(page.find("http://"), page.find("http://www.w3.org/2000/svg"))  // only SVG's namespace
      << "the page must not fetch anything";
  EXPECT_EQ(page.find("https://"), std::string::npos);

  // The same page from the folder afterwards, but for the build, which the folder does not keep.
  const Result again = run_uniference("report " + out + " --out " + (dir / "again.html"));
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_TRUE(read_file(dir / "again.html") == std::regex_replace(page, build_item, ""))
      << "the page made again differs from the run's beyond the ns-3 build";

  if (!tool_on_path("chromium")) GTEST_SKIP() << "chromium is not installed (apt-get install chromium)";
  const Result dom = run_command("chromium", "--headless --no-sandbox --disable-dev-shm-usage --disable-gpu "
                                             "--dump-dom file://" + out + "/report.html");
  ASSERT_EQ(dom.exit_code, 0) << dom.output;
  EXPECT_EQ(body_number(dom.output, "plots-rendered"), long(expected)) << dom.output.substr(0, 2000);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, ReportOfShippedScenario,
                         ::testing::Values("quickstart.json", "serving.json", "fat-tree-rdma.json",
                                           "edge-cloud-leo.json"),
                         [](const auto& info) {
                           std::string name = info.param;
                           name = name.substr(0, name.find('.'));
                           for (char& c : name) c = c == '-' ? '_' : c;
                           return name;
                         });

TEST(ReportCli, RefusesWhatIsNotARunFolder) {
  const TestDir dir;
  const Result missing = run_uniference("report " + (dir / "nothing"));
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("nothing: not a folder"), std::string::npos) << missing.output;
  const Result empty = run_uniference("report " + dir.path().string());
  EXPECT_EQ(empty.exit_code, 2) << empty.output;
  EXPECT_NE(empty.output.find("results.json: cannot be read"), std::string::npos) << empty.output;
  const Result one = run_uniference("report --compare " + dir.path().string());
  EXPECT_EQ(one.exit_code, 2) << one.output;
  EXPECT_NE(one.output.find("report --compare needs two output folders"), std::string::npos);
}

TEST(ReportCli, ScenarioRefusesAReportWithoutResults) {
  const Result result = run_uniference("validate " + scenario("quickstart.json") +
                                       " --set /outputs/results=false --set /outputs/report=true");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("/outputs/report: needs results.json"), std::string::npos) << result.output;
}

TEST(ReportCli, ComparesTwoRunsWithTheChange) {
  const TestDir dir;
  // The quickstart at 1 Gbit/s and at 10 Gbit/s: the faster links shorten the run.
  ASSERT_EQ(run_uniference("run " + scenario("quickstart.json") + " --quiet --out " + (dir / "slow")).exit_code, 0);
  ASSERT_EQ(run_uniference("run " + scenario("quickstart.json") + " --quiet --out " + (dir / "fast") +
                           " --set /network/link/rate=10Gbps")
                .exit_code,
            0);
  const Result compare = run_uniference("report --compare " + (dir / "slow") + " " + (dir / "fast") +
                                        " --out " + (dir / "c.html"));
  ASSERT_EQ(compare.exit_code, 0) << compare.output;
  const std::string page = read_file(dir / "c.html");
  const double slow = json::parse(read_file(dir / "slow/results.json"))["total_ns"];
  const double fast = json::parse(read_file(dir / "fast/results.json"))["total_ns"];
  char change[32];
  std::snprintf(change, sizeof change, "%+.1f%%", 100 * (fast - slow) / slow);
  EXPECT_NE(page.find(change), std::string::npos) << change;
  EXPECT_LT(fast, slow);
}

// results.json's link table against the wire: on the RDMA fat-tree every message of B bytes is
// cut into ceil(B / 4096) packets of 26 header bytes each (local routing and base transport
// headers, two CRCs), and its receiver returns one acknowledgement of 26 + 4 bytes. So the
// cable from rank 0 to its edge switch carries rank 0's messages and its acknowledgements of
// the messages it received, and the way back the reverse; no congestion control, no CNPs.
TEST(LinkTable, BytesAreTheWireBytesOfTheRunsMessages) {
  const TestDir dir;
  const std::string out = dir / "run";
  const Result run = run_uniference("run " + scenario("fat-tree-rdma.json") + " --quiet --out " + out);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const json results = json::parse(read_file(out + "/results.json"));
  const json trace = json::parse(read_file(out + "/trace.json"));
  constexpr uint64_t kMtu = 4096, kHeader = 26, kAck = 26 + 4;
  uint64_t from_rank0 = 0, to_rank0 = 0, messages = 0;
  for (const json& event : trace["traceEvents"]) {
    if (event.value("cat", "") != "net" || event.value("ph", "") != "B") continue;
    const uint64_t bytes = event["args"]["bytes"];
    const uint64_t wire = bytes + std::max<uint64_t>(1, (bytes + kMtu - 1) / kMtu) * kHeader;
    const int src = event["args"]["src"], dst = event["args"]["dst"];
    if (src == 0) from_rank0 += wire, to_rank0 += kAck;
    if (dst == 0) to_rank0 += wire, from_rank0 += kAck;
    ++messages;
  }
  ASSERT_EQ(messages, results["messages"].get<uint64_t>()) << "the trace holds every message";
  ASSERT_GT(from_rank0, 0u);
  int found = 0;
  for (const json& link : results["links"]["directions"]) {
    const std::string name = link["name"];
    if (name.rfind("rank0 -> ", 0) == 0) {
      EXPECT_EQ(link["bytes"].get<uint64_t>(), from_rank0) << name;
      ++found;
    }
    if (name.size() > 9 && name.compare(name.size() - 9, 9, " -> rank0") == 0) {
      EXPECT_EQ(link["bytes"].get<uint64_t>(), to_rank0) << name;
      ++found;
    }
    // Busy time is the bytes at the line rate (HDR: 200 Gbit/s), to within a picosecond per
    // packet; utilisation is that over the run.
    const double busy_ns = double(link["bytes"].get<uint64_t>()) * 8 / double(link["rate_bps"].get<uint64_t>()) * 1e9;
    EXPECT_NEAR(link["busy_ns"].get<double>(), busy_ns, 1 + busy_ns * 1e-6) << name;
    EXPECT_NEAR(link["utilisation"].get<double>(), busy_ns / results["total_ns"].get<double>(), 1e-6) << name;
  }
  EXPECT_EQ(found, 2) << "both directions of rank 0's cable";
}

}  // namespace
}  // namespace uniference
