// The network's observability through the uniference binary: link counters in the trace of
// the fat-tree RDMA scenario, pcap files and flowmon.xml on the TCP quickstart (of a run and
// of a colltest sweep), and the refusal of pcap and FlowMonitor on the RDMA fabric (exit
// code 2, the pointer named).
#include "apps/test/test_dir.h"
#include "tests/cli_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace uniference {
namespace {

using namespace cli;

TEST(ObservabilityCli, FatTreeTraceHasLinkCountersWithinOneLineRate) {
  TestDir dir;
  const Result run = run_uniference("run " + scenario("fat-tree-rdma.json") + " --quiet --out " +
                                    dir.path().string());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json trace = nlohmann::json::parse(read_file(dir / "trace.json"));
  size_t counters = 0;
  for (const auto& event : trace["traceEvents"]) {
    if (event["ph"] != "C") continue;
    ++counters;
    EXPECT_EQ(event["pid"], 2);
    const double u = event["args"]["utilisation"].get<double>();
    EXPECT_GE(u, 0.0) << event.dump();
    EXPECT_LE(u, 1.0) << event.dump();
  }
  EXPECT_GT(counters, 0u);
}

TEST(ObservabilityCli, QuickstartWritesPcapFilesAndFlowMonitorXml) {
  TestDir dir;
  const Result run = run_uniference("run " + scenario("quickstart.json") + " --quiet --out " +
                                    dir.path().string() +
                                    " --set /outputs/pcap=true --set /outputs/flow_monitor=true");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  // A star of 4 ranks: 4 host devices and 4 switch ports.
  size_t pcaps = 0;
  for (const std::string& name : dir.entries()) {
    if (name.size() < 5 || name.substr(name.size() - 5) != ".pcap") continue;
    ++pcaps;
    const std::string bytes = read_file(dir / name);
    ASSERT_GT(bytes.size(), 24u) << name;  // more than the global header: frames
    uint32_t magic = 0;
    std::memcpy(&magic, bytes.data(), sizeof magic);
    EXPECT_TRUE(magic == 0xa1b2c3d4u || magic == 0xd4c3b2a1u) << name;
  }
  EXPECT_EQ(pcaps, 8u);
  EXPECT_EQ(dir.entries().count(".pcap-partial"), 0u);  // the staging folder is gone
  const std::string xml = read_file(dir / "flowmon.xml");
  EXPECT_NE(xml.find("<FlowMonitor>"), std::string::npos);
  EXPECT_NE(xml.find("<Flow flowId=\"1\""), std::string::npos);
}

TEST(ObservabilityCli, ColltestCapturesItsSweepIntoOut) {
  TestDir dir;
  const Result run = run_uniference("colltest " + scenario("quickstart.json") +
                                    " --ranks 2 --min-bytes 64K --max-bytes 64K --out " +
                                    dir.path().string() + " --set /outputs/pcap=true");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  // The quickstart's star built for 2 ranks: 2 host devices and 2 switch ports. Each rank's
  // device carries at least the sweep's payload: 4 all-reduces (1 warm-up, 3 timed) of which
  // a 2-rank ring sends half the buffer twice, 64 KiB a rank each time, in frames of at most
  // 1514 bytes each with a 16-byte pcap record header.
  size_t pcaps = 0;
  for (const std::string& name : dir.entries()) {
    if (name.size() < 5 || name.substr(name.size() - 5) != ".pcap") continue;
    ++pcaps;
    EXPECT_EQ(name.rfind("quickstart-", 0), 0u) << name;
    EXPECT_GT(read_file(dir / name).size(), 4u * 64 * 1024) << name;
  }
  EXPECT_EQ(pcaps, 4u);
  EXPECT_EQ(dir.entries().count(".pcap-partial"), 0u);
}

TEST(ObservabilityCli, PcapAndFlowMonitorOnRdmaExitWithCode2NamingThePointer) {
  for (const std::string key : {"/outputs/pcap", "/outputs/flow_monitor"}) {
    TestDir dir;
    const Result run = run_uniference("run " + scenario("fat-tree-rdma.json") + " --quiet --out " +
                                      dir.path().string() + " --set " + key + "=true");
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_NE(run.output.find(key + ": applies to transport tcp only"), std::string::npos)
        << run.output;
    EXPECT_TRUE(dir.entries().empty()) << "a refused run writes nothing";
  }
}

TEST(ObservabilityCli, LinkSamplesOutOfRangeExitWithCode2) {
  const Result run = run_uniference("validate " + scenario("quickstart.json") +
                                    " --set /outputs/link_samples=-1");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("/outputs/link_samples"), std::string::npos) << run.output;
}

}  // namespace
}  // namespace uniference
