// What waits for each line, and what its waiting costs: the link sampler's queue depth, credit
// stalls and marks, against what the line's physics says they must be.
//  - A burst handed to a point-to-point device at once drains one packet per serialisation
//    time: its queue's peak and time-weighted mean follow from the packet count, size and rate.
//  - An incast of two senders into one receiver through the lossless star: the hub's output to
//    the receiver is the bottleneck, so its input buffers fill and the senders' lines wait for
//    credits for about as long as the other sender's bytes take on the shared line.
//  - With DCQCN's marking on, the marks counted on a direction are the marked packets its
//    receiver got.
#include "bridge/link_sampler.h"
#include "bridge/node_names.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <ns3/channel.h>
#include <ns3/ib-net-device.h>
#include <ns3/node-container.h>
#include <ns3/node-list.h>
#include <ns3/packet.h>
#include <ns3/point-to-point-helper.h>
#include <ns3/simulator.h>
#include <ns3/string.h>
#include <torch/torch.h>

#include <string>

namespace uniference {
namespace {

const LinkSeries* direction_named(const RunRecord& record, const std::string& name) {
  for (const LinkSeries& series : record.links.links) {
    if (series.name == name) return &series;
  }
  return nullptr;
}

TEST(LinkQueues, APointToPointBurstDrainsOnePacketPerSerialisationTime) {
  constexpr uint32_t kPackets = 10;
  constexpr uint32_t kPayload = 1000;
  constexpr uint32_t kWire = kPayload + 2;  // PPP's header
  constexpr uint64_t kRateBps = 1'000'000'000;
  const int64_t packet_ps = int64_t(kWire) * 8 * 1000;  // 1 Gbit/s: 1 ns a bit

  ns3::NodeContainer nodes;
  nodes.Create(2);
  name_node(nodes.Get(0), "a");
  name_node(nodes.Get(1), "b");
  ns3::PointToPointHelper p2p;
  p2p.SetDeviceAttribute("DataRate", ns3::DataRateValue(ns3::DataRate(kRateBps)));
  p2p.SetChannelAttribute("Delay", ns3::TimeValue(ns3::MicroSeconds(1)));
  p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", ns3::StringValue("100p"));
  const ns3::NetDeviceContainer devices = p2p.Install(nodes);
  const int64_t end_ns = 2 * kPackets * packet_ps / 1000;  // the burst's line time, twice
  LinkActivity activity;
  {
    LinkSampler sampler(64);
    // One packet on the line at once, the other kPackets - 1 in the device's queue.
    ns3::Simulator::Schedule(ns3::MicroSeconds(5), [&] {
      for (uint32_t i = 0; i < kPackets; ++i) {
        devices.Get(0)->Send(ns3::Create<ns3::Packet>(kPayload), devices.Get(1)->GetBroadcast(), 0x0800);
      }
    });
    ns3::Simulator::Stop(ns3::NanoSeconds(end_ns));
    ns3::Simulator::Run();
    activity = sampler.finish(end_ns);
  }
  ns3::Simulator::Destroy();

  ASSERT_EQ(activity.links.size(), 1u);
  const LinkSeries& a_to_b = activity.links[0];
  EXPECT_EQ(a_to_b.name, "a -> b");
  EXPECT_EQ(a_to_b.queue_peak_bytes, uint64_t(kPackets - 1) * kWire);
  // kPackets - 1 packets wait one serialisation time, then kPackets - 2, ... then none.
  const double byte_ps = double(kWire) * double(packet_ps) * kPackets * (kPackets - 1) / 2;
  EXPECT_DOUBLE_EQ(a_to_b.queue_mean_bytes, byte_ps / (double(end_ns) * 1000));
  EXPECT_EQ(a_to_b.drops, 0u);
  EXPECT_EQ(a_to_b.marks, 0u);
  EXPECT_EQ(a_to_b.credit_stall_ps, 0);
}

constexpr uint64_t kIbRateBps = 100'000'000'000;
constexpr uint64_t kMtu = 4096;
constexpr uint64_t kHeaderBytes = 26;
constexpr uint32_t kVlBuffer = 65536;
constexpr int64_t kElements = 1 << 20;  // 4 MiB of float from each sender

NetworkConfig lossless_star() {
  NetworkConfig net;
  net.topology = "star";
  net.transport = "rdma";
  net.link_model = "ib";
  net.link_rate = ns3::DataRate(kIbRateBps);
  net.link_delay = ns3::NanoSeconds(100);
  net.rdma.mtu = uint32_t(kMtu);
  net.rdma.vl_buffer = kVlBuffer;
  return net;
}

// Ranks 0 and 1 each send one message to rank 2 at once.
void incast(Comm& comm) {
  if (comm.rank() < 2) {
    comm.isend(at::ones({kElements}), 2)->wait();
  } else {
    at::Tensor from0 = at::zeros({kElements});
    at::Tensor from1 = at::zeros({kElements});
    auto first = comm.irecv(from0, 0);
    auto second = comm.irecv(from1, 1);
    first->wait();
    second->wait();
  }
}

struct IncastRun {
  RunOutcome outcome;
  RunRecord record;
  uint64_t marked_arrivals = 0;  // packets rank 2's port received marked
};

void count_marked(uint64_t* marked, const ns3::IbPacket& packet) {
  if (packet.marked) ++*marked;
}

IncastRun run_incast(const NetworkConfig& net) {
  SimCluster cluster(net);
  for (int r = 0; r < 3; ++r) cluster.add_rank(test::modeled_meter(), incast);
  cluster.build_network();
  IncastRun run;
  for (const CableDirection& direction : cable_directions()) {
    if (direction.name == "hub -> rank2") {
      const ns3::Ptr<ns3::Channel> cable = direction.device->GetChannel();
      const ns3::Ptr<ns3::NetDevice> receiver =
          cable->GetDevice(0) == direction.device ? cable->GetDevice(1) : cable->GetDevice(0);
      receiver->TraceConnectWithoutContext("Rx", ns3::MakeBoundCallback(&count_marked, &run.marked_arrivals));
    }
  }
  {
    LinkSampler sampler(64);
    run.outcome = cluster.run();
    cluster.kernel().recorder().links(sampler.finish(cluster.record().total_ns));
  }
  run.record = cluster.record();
  return run;
}

TEST(LinkQueues, AnIncastFillsTheHubsBuffersAndStallsBothSendersForCredits) {
  const IncastRun run = run_incast(lossless_star());
  ASSERT_EQ(run.outcome.status, RunOutcome::Status::kCompleted) << run.outcome.report;
  const uint64_t packets = (uint64_t(kElements) * 4 + kMtu - 1) / kMtu;
  const uint64_t wire = uint64_t(kElements) * 4 + packets * kHeaderBytes;
  const double wire_ps = double(wire) * 8 / double(kIbRateBps) * 1e12;
  const double packet_ps = double(kMtu + kHeaderBytes) * 8 / double(kIbRateBps) * 1e12;

  // The hub holds packets for rank 2 in the input buffers of both senders' ports, and with two
  // senders at line rate into one line both fill: as many whole packets as a lane's credits
  // allow (InfiniBand counts 64-byte blocks: a 4122-byte packet takes 65 of the 1024).
  const LinkSeries* bottleneck = direction_named(run.record, "hub -> rank2");
  ASSERT_NE(bottleneck, nullptr);
  const uint64_t packet_blocks = (kMtu + kHeaderBytes + 63) / 64;
  const uint64_t packets_per_buffer = (kVlBuffer / 64) / packet_blocks;
  EXPECT_EQ(bottleneck->queue_peak_bytes, 2 * packets_per_buffer * (kMtu + kHeaderBytes));
  EXPECT_EQ(bottleneck->credit_stall_ps, 0);  // rank 2 frees its buffer as packets arrive
  EXPECT_EQ(bottleneck->marks, 0u);           // no congestion control: no marking

  // Each sender's line carries its message in the time the shared line takes for both: it is
  // busy for one message's line time and waits for credits for about another, less the time
  // before the hub's buffers were full (two buffers filling at the excess rate of one line).
  for (const std::string& sender : {"rank0 -> hub", "rank1 -> hub"}) {
    const LinkSeries* line = direction_named(run.record, sender);
    ASSERT_NE(line, nullptr) << sender;
    EXPECT_LE(double(line->credit_stall_ps), wire_ps) << sender;
    EXPECT_GE(double(line->credit_stall_ps), wire_ps - 2 * double(kVlBuffer) * 8 / double(kIbRateBps) * 1e12 - 4 * packet_ps)
        << sender;
    EXPECT_EQ(line->queue_peak_bytes, 0u) << sender;  // an endpoint sends from its messages
  }
}

TEST(LinkQueues, MarksCountedOnADirectionAreTheMarkedPacketsItsReceiverGot) {
  NetworkConfig net = lossless_star();
  net.rdma.congestion_control = ns3::TypeId::LookupByName("ns3::Dcqcn");
  const IncastRun run = run_incast(net);
  ASSERT_EQ(run.outcome.status, RunOutcome::Status::kCompleted) << run.outcome.report;
  const LinkSeries* bottleneck = direction_named(run.record, "hub -> rank2");
  ASSERT_NE(bottleneck, nullptr);
  EXPECT_GT(run.marked_arrivals, 0u);
  EXPECT_EQ(bottleneck->marks, run.marked_arrivals);
  uint64_t marks_elsewhere = 0;
  for (const LinkSeries& series : run.record.links.links) {
    if (&series != bottleneck) marks_elsewhere += series.marks;
  }
  EXPECT_EQ(marks_elsewhere, 0u);  // only the root of congestion marks
}

}  // namespace
}  // namespace uniference
