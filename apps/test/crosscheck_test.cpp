// crosscheck's grouping of a run's calls: size classes at their bounds, send and recv as one
// class, an asynchronous call timed by its flight, and the error's sign.
#include "apps/crosscheck.h"

#include <gtest/gtest.h>

#include <cmath>

namespace uniference {
namespace {

Span comm(int rank, const std::string& name, int64_t start, int64_t end, uint64_t bytes) {
  return Span{rank, Span::Kind::kComm, name, start, end, bytes, -1, ""};
}

TEST(Crosscheck, SizeClassesSplitAt64KiBAnd1MiB) {
  EXPECT_EQ(size_class(0), "< 64 KiB");
  EXPECT_EQ(size_class(65535), "< 64 KiB");
  EXPECT_EQ(size_class(65536), "64 KiB-1 MiB");
  EXPECT_EQ(size_class(1048575), "64 KiB-1 MiB");
  EXPECT_EQ(size_class(1048576), ">= 1 MiB");
}

TEST(Crosscheck, CallsGroupByOperationAndSizeWithSendAndRecvTogether) {
  RunRecord packet, flow;
  packet.spans = {
      Span{0, Span::Kind::kCompute, "compute", 0, 100, 0, -1, ""},
      comm(0, "all_reduce", 100, 300, 4096),
      comm(1, "all_reduce", 150, 300, 4096),
      comm(0, "send", 300, 310, 2u << 20),
      comm(1, "recv", 300, 330, 2u << 20),
  };
  flow.spans = {
      comm(0, "all_reduce", 100, 280, 4096),
      comm(1, "all_reduce", 150, 290, 4096),
      comm(0, "send", 300, 309, 2u << 20),
  };
  const std::vector<CallClass> classes = call_classes(packet, flow);
  ASSERT_EQ(classes.size(), 2u);
  EXPECT_EQ(classes[0].op, "all_reduce");
  EXPECT_EQ(classes[0].size, "< 64 KiB");
  EXPECT_EQ(classes[0].packet_calls, 2u);
  EXPECT_EQ(classes[0].flow_calls, 2u);
  EXPECT_DOUBLE_EQ(classes[0].packet_total_ns, 200 + 150);
  EXPECT_DOUBLE_EQ(classes[0].flow_total_ns, 180 + 140);
  EXPECT_EQ(classes[1].op, "send/recv");
  EXPECT_EQ(classes[1].size, ">= 1 MiB");
  EXPECT_EQ(classes[1].packet_calls, 2u);
  EXPECT_EQ(classes[1].flow_calls, 1u);
  EXPECT_DOUBLE_EQ(classes[1].packet_total_ns, 10 + 30);
}

// An asynchronous call waited on after its issue: its wait span, then its flight (issue to
// completion), which is the call's time; the flight is not a second call.
TEST(Crosscheck, AnAsynchronousCallIsTimedByItsFlight) {
  RunRecord record;
  record.spans = {comm(2, "all_gather", 500, 520, 100000),
                  Span{2, Span::Kind::kFlight, "all_gather", 300, 520, 100000, -1, "layer0"}};
  const std::vector<CallClass> classes = call_classes(record, record);
  ASSERT_EQ(classes.size(), 1u);
  EXPECT_EQ(classes[0].packet_calls, 1u);
  EXPECT_DOUBLE_EQ(classes[0].packet_total_ns, 220);
}

TEST(Crosscheck, ErrorIsFlowAgainstPacket) {
  EXPECT_DOUBLE_EQ(level_error_percent(200, 190), -5);
  EXPECT_DOUBLE_EQ(level_error_percent(200, 210), 5);
  EXPECT_TRUE(std::isnan(level_error_percent(0, 10)));
}

TEST(Crosscheck, AtLevelChangesOnlyTheLevelAndTheCaptures) {
  Scenario scenario;
  scenario.outputs.pcap = true;
  scenario.outputs.flow_monitor = true;
  scenario.network.link.rate_bps = 1000;
  const Scenario flow = at_level(scenario, "flow");
  EXPECT_EQ(flow.network.transport.level, "flow");
  EXPECT_FALSE(flow.outputs.pcap);
  EXPECT_FALSE(flow.outputs.flow_monitor);
  EXPECT_EQ(flow.network.link.rate_bps, 1000u);
  EXPECT_EQ(at_level(flow, "packet").network.transport.level, "packet");
}

}  // namespace
}  // namespace uniference
