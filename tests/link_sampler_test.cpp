// The trace's link counters from a real run of the RDMA fat-tree: one large message between
// two ranks, whose bytes and line time on the sender's cable follow from the fabric's
// framing (payload MTU, 26 bytes of headers per packet) and line rate; every interval of
// every link stays within 0 <= utilisation <= 1, at both levels; a deadlock is still reported
// with the taps on; a Wi-Fi station's air time and an LTE device's resource blocks stay within
// what their rates and the shared medium allow.
#include "bridge/chrome_trace.h"
#include "bridge/test/trace_nesting.h"
#include "bridge/link_sampler.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace uniference {
namespace {

using nlohmann::json;

constexpr uint64_t kMtu = 4096;          // payload bytes per packet (IbNetDevice "Mtu")
constexpr uint64_t kHeaderBytes = 26;    // LRH 8 + BTH 12 + ICRC 4 + VCRC 2
constexpr uint64_t kRateBps = 200'000'000'000;  // HDR
constexpr int64_t kElements = 1 << 20;   // 4 MiB of float

NetworkConfig fat_tree_rdma() {
  NetworkConfig net;
  net.topology = "fat-tree";
  net.transport = "rdma";
  net.link_model = "ib";
  net.topology_options = {{"k", 4}};
  net.link_rate = ns3::DataRate(kRateBps);
  net.link_delay = ns3::NanoSeconds(100);
  net.rdma.mtu = uint32_t(kMtu);
  return net;
}

// Wire bytes of one message: its payload in MTU-sized packets, each with its headers.
uint64_t wire_bytes(uint64_t payload) {
  const uint64_t packets = std::max<uint64_t>(1, (payload + kMtu - 1) / kMtu);
  return payload + packets * kHeaderBytes;
}

struct Sampled {
  RunOutcome outcome;
  RunRecord record;
};

Sampled run_sampled(const NetworkConfig& net, int ranks, uint32_t samples,
                    const std::function<void(Comm&)>& shard) {
  SimCluster cluster(net);
  for (int r = 0; r < ranks; ++r) cluster.add_rank(test::modeled_meter(), shard);
  cluster.build_network();
  Sampled sampled;
  {
    LinkSampler sampler(samples, cluster.flow_network());
    sampled.outcome = cluster.run();
    cluster.kernel().recorder().links(sampler.finish(cluster.record().total_ns));
  }
  sampled.record = cluster.record();
  return sampled;
}

// Rank 0 sends rank 1 one message of `floats` floats.
std::function<void(Comm&)> one_message(int64_t floats = kElements) {
  return [floats](Comm& comm) {
    if (comm.rank() == 0) {
      comm.isend(at::ones({floats}), 1)->wait();
    } else {
      at::Tensor y = at::zeros({floats});
      comm.irecv(y, 0)->wait();
    }
  };
}

// A radio cell's network: its topology and link model, the rate and delay that place it.
NetworkConfig radio_cell(const std::string& topology, const std::string& link_model,
                         const std::string& rate, ns3::Time delay) {
  NetworkConfig net;
  net.topology = topology;
  net.link_model = link_model;
  net.link_rate = ns3::DataRate(rate);
  net.link_delay = delay;
  return net;
}

const LinkSeries* link_named_from(const RunRecord& record, const std::string& sender) {
  for (const LinkSeries& series : record.links.links) {
    if (series.name.rfind(sender + " -> ", 0) == 0) return &series;
  }
  return nullptr;
}

// The k=4 fat-tree puts k/2 = 2 endpoints on each edge switch, numbered pod by pod and edge
// by edge: ranks 0 and 1 share pod 0's first edge switch, and the message crosses two cables.
// Run twice in one process, as ns-3's names last one simulation each.
TEST(LinkSampler, CablesAreNamedAsTheFabricsUsersNameThem) {
  for (int run = 0; run < 2; ++run) {
    const Sampled sampled = run_sampled(fat_tree_rdma(), 2, 16, one_message());
    ASSERT_EQ(sampled.outcome.status, RunOutcome::Status::kCompleted) << sampled.outcome.report;
    std::vector<std::string> names;
    for (const LinkSeries& series : sampled.record.links.links) names.push_back(series.name);
    std::sort(names.begin(), names.end());
    // Data one way on both cables, acknowledgements the other.
    EXPECT_EQ(names, (std::vector<std::string>{"pod0-edge0 -> rank0", "pod0-edge0 -> rank1",
                                               "rank0 -> pod0-edge0", "rank1 -> pod0-edge0"}))
        << "run " << run;
  }
}

// At the packet level every packet is tapped; at the flow level (`flow`) the stream's load
// is spread over the intervals it covers, each interval's bytes rounded to a whole byte.
void expect_sender_cable_at_line_rate(bool flow) {
  NetworkConfig net = fat_tree_rdma();
  if (flow) net.level = "flow";
  const Sampled run = run_sampled(net, 2, 200, one_message());
  ASSERT_EQ(run.outcome.status, RunOutcome::Status::kCompleted) << run.outcome.report;
  const RunRecord& record = run.record;
  ASSERT_GT(record.links.interval_ns, 0);
  const int64_t bins = (record.total_ns + record.links.interval_ns - 1) / record.links.interval_ns;
  EXPECT_LE(bins, 200);
  EXPECT_GT(bins, 100);  // widening halves the count: never below samples / 2

  // Everything rank 0 sent, as packets on the wire.
  uint64_t payload = 0, expected_bytes = 0;
  for (const NetMessage& message : record.messages) {
    if (message.src != 0) continue;
    payload += message.bytes;
    expected_bytes += wire_bytes(message.bytes);
  }
  ASSERT_GE(payload, uint64_t(kElements) * 4);

  const LinkSeries* sender = link_named_from(record, "rank0");
  ASSERT_NE(sender, nullptr);
  EXPECT_EQ(sender->rate_bps, kRateBps);
  uint64_t bytes = 0;
  int64_t busy_ps = 0;
  for (size_t i = 0; i < sender->bytes.size(); ++i) {
    bytes += sender->bytes[i];
    busy_ps += sender->busy_ps[i];
  }
  if (flow) {
    EXPECT_NEAR(double(bytes), double(expected_bytes), double(bins));
  } else {
    EXPECT_EQ(bytes, expected_bytes);
  }
  // Serialisation time of those bytes at line rate; each packet's (or interval's) time is
  // rounded to 1 ps, and a flow's end up to the next whole nanosecond.
  const double line_ps = double(expected_bytes) * 8.0 / double(kRateBps) * 1e12;
  const double packets = double(expected_bytes - payload) / double(kHeaderBytes);
  EXPECT_NEAR(double(busy_ps), line_ps, (flow ? double(bins) + 1000.0 : packets) + 1.0);

  // While the message is on the line, the cable is saturated: in every interval wholly inside
  // the transfer, utilisation is at most 1 and at least the payload share of a full packet,
  // mtu / (mtu + headers), which is what the message gets out of a saturated line.
  const double payload_share = double(kMtu) / double(kMtu + kHeaderBytes);
  const int64_t transfer_ps = int64_t(line_ps);
  const int64_t width_ps = record.links.interval_ns * 1000;
  int64_t first_busy = -1;
  for (size_t i = 0; i < sender->busy_ps.size(); ++i) {
    if (sender->busy_ps[i] > 0) {
      first_busy = int64_t(i);
      break;
    }
  }
  ASSERT_GE(first_busy, 0);
  int inside = 0;
  for (int64_t i = first_busy + 1; (i + 2) * width_ps < first_busy * width_ps + transfer_ps; ++i) {
    const double u = double(sender->busy_ps[size_t(i)]) / double(width_ps);
    EXPECT_LE(u, 1.0) << "interval " << i;
    EXPECT_GE(u, payload_share) << "interval " << i;
    ++inside;
  }
  EXPECT_GT(inside, 50);
}

TEST(LinkSampler, OneMessageOnTheFatTreeFillsTheSendersCableAtLineRate) {
  expect_sender_cable_at_line_rate(false);
}

TEST(LinkSampler, AtTheFlowLevelTheSameMessageFillsTheSameCable) {
  expect_sender_cable_at_line_rate(true);
}

TEST(LinkSampler, TheTraceHasACounterPerBusyLinkWithinPhysicalBounds) {
  const Sampled run = run_sampled(fat_tree_rdma(), 2, 200, one_message());
  ASSERT_EQ(run.outcome.status, RunOutcome::Status::kCompleted) << run.outcome.report;
  const json trace = chrome_trace(run.record, "links");
  EXPECT_EQ(check_trace_nesting(trace), "");
  std::map<std::string, int> samples;
  double busiest = 0;
  for (const json& event : trace["traceEvents"]) {
    if (event["ph"] != "C") continue;
    EXPECT_EQ(event["cat"], "link");
    EXPECT_EQ(event["pid"], 2);  // the network process
    const double u = event["args"]["utilisation"].get<double>();
    EXPECT_GE(u, 0.0);
    EXPECT_LE(u, 1.0);
    busiest = std::max(busiest, u);
    ++samples[event["name"].get<std::string>()];
  }
  // Rank 0 and rank 1 share an edge switch: two cables, data one way and acknowledgements
  // the other on each, four directions.
  EXPECT_EQ(samples.size(), run.record.links.links.size());
  EXPECT_EQ(samples.size(), 4u);
  EXPECT_GT(busiest, double(kMtu) / double(kMtu + kHeaderBytes));
}

// A Wi-Fi cell is one medium: each station is a direction ("rank0 -> wifi") whose line time is
// its air time. 802.11ax HE MCS 7 on 20 MHz with a 0.8 us guard interval, one stream, carries
// 234 data subcarriers x 6 bits x 5/6 per 13.6 us symbol: 86.029 Mbit/s, the fastest within
// 100 Mbit/s. One station cannot send faster than that, and two stations' PPDUs take turns on
// the air, so their air times together fit in the run.
TEST(LinkSampler, AWifiStationsAirTimeIsBoundByItsRateAndTheSharedMedium) {
  constexpr int64_t kFloats = 1 << 18;  // 1 MiB
  const Sampled run =
      run_sampled(radio_cell("wifi-cell", "wifi", "100Mbps", ns3::NanoSeconds(10)), 2, 200, one_message(kFloats));
  ASSERT_EQ(run.outcome.status, RunOutcome::Status::kCompleted) << run.outcome.report;
  const double mcs7_bps = 234.0 * 6 * 5 / 6 / 13.6e-6;
  const LinkSeries* sender = link_named_from(run.record, "rank0");
  const LinkSeries* receiver = link_named_from(run.record, "rank1");
  ASSERT_NE(sender, nullptr);
  ASSERT_NE(receiver, nullptr);
  EXPECT_EQ(sender->name, "rank0 -> wifi");
  EXPECT_NEAR(double(sender->rate_bps), mcs7_bps, 1.0);
  uint64_t bytes = 0;
  int64_t sender_ps = 0, receiver_ps = 0;
  for (size_t i = 0; i < sender->bytes.size(); ++i) {
    bytes += sender->bytes[i];
    sender_ps += sender->busy_ps[i];
  }
  for (const int64_t ps : receiver->busy_ps) receiver_ps += ps;
  const double payload = double(kFloats) * 4;
  EXPECT_GE(double(bytes), payload);        // every byte of it, in PSDUs
  EXPECT_LE(double(bytes), payload * 1.1);  // with TCP/IP and MAC headers, not twice
  EXPECT_GE(double(sender_ps), payload * 8 / mcs7_bps * 1e12);
  EXPECT_LE(double(sender_ps + receiver_ps), double(run.record.total_ns) * 1000);
  EXPECT_GT(receiver_ps, 0);  // its TCP acknowledgements and block acks
}

// An LTE cell's directions are a device's uplink ("rank0 -> enb") and the cell's downlink to it
// ("enb -> rank0"). Their rate is the cell's peak: 3GPP TS 36.213's transport block for I_TBS 26
// (MCS 28) on all 100 resource blocks of 20 MHz is 75,376 bits, one per 1 ms subframe. A
// transport block's line time is its resource blocks' share of its subframe, so every busy
// time is a whole number of 10 us (a hundredth of a subframe); the uplink carries at least what
// rank 0 sent.
TEST(LinkSampler, AnLteDevicesUplinkIsTimedInResourceBlocksOfItsSubframes) {
  // The link is the core's backhaul to the server; the cell's radio is its own.
  constexpr int64_t kFloats = 1 << 16;  // 256 KiB
  const Sampled run = run_sampled(radio_cell("lte-cell", "point-to-point", "10Gbps", ns3::MicroSeconds(10)), 2,
                                  200, one_message(kFloats));
  ASSERT_EQ(run.outcome.status, RunOutcome::Status::kCompleted) << run.outcome.report;
  const LinkSeries* uplink = nullptr;
  const LinkSeries* downlink = nullptr;
  for (const LinkSeries& series : run.record.links.links) {
    if (series.name == "rank0 -> enb") uplink = &series;
    if (series.name == "enb -> rank0") downlink = &series;
  }
  ASSERT_NE(uplink, nullptr);
  ASSERT_NE(downlink, nullptr);  // rank 1's acknowledgements
  EXPECT_EQ(uplink->rate_bps, 75'376'000u);
  EXPECT_EQ(downlink->rate_bps, 75'376'000u);
  uint64_t bytes = 0;
  int64_t busy_ps = 0;
  for (size_t i = 0; i < uplink->bytes.size(); ++i) {
    bytes += uplink->bytes[i];
    busy_ps += uplink->busy_ps[i];
  }
  // Transport blocks as the scheduler sized them, padding and HARQ retransmissions included: no
  // tighter upper bound follows from the physics.
  EXPECT_GE(double(bytes), double(kFloats) * 4);
  EXPECT_EQ(busy_ps % 10'000'000, 0) << busy_ps;
  // At most the whole cell for as long as the run.
  EXPECT_LE(busy_ps, run.record.total_ns * 1000);
  EXPECT_GE(double(busy_ps), double(kFloats) * 4 * 8 / 75.376e6 * 1e12);  // no faster than the peak
}

TEST(LinkSampler, ADeadlockIsStillReported) {
  // Both ranks wait to receive: nothing is ever sent. The taps schedule no events, so the
  // kernel still finds every rank blocked with nothing in flight.
  const Sampled run = run_sampled(fat_tree_rdma(), 2, 200, [](Comm& comm) {
    at::Tensor y = at::zeros({4});
    comm.irecv(y, 1 - comm.rank())->wait();
  });
  EXPECT_EQ(run.outcome.status, RunOutcome::Status::kDeadlock);
  EXPECT_TRUE(run.record.links.links.empty());
}

}  // namespace
}  // namespace uniference
