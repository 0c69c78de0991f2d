#include "bridge/link_sampler.h"

#include "bridge/link_sampler_state.h"
#include "bridge/node_names.h"
#include "bridge/radio_link_taps.h"
#include "bridge/rank_names.h"

#include <ns3/channel.h>
#include <ns3/data-rate.h>
#include <ns3/ethernet-header.h>
#include <ns3/ethernet-net-device.h>
#include <ns3/ethernet-switch.h>
#include <ns3/ib-event-queue.h>
#include <ns3/ib-net-device.h>
#include <ns3/ib-switch.h>
#include <ns3/ipv4-header.h>
#include <ns3/ipv4.h>
#include <ns3/node-list.h>
#include <ns3/node.h>
#include <ns3/point-to-point-net-device.h>
#include <ns3/ppp-header.h>
#include <ns3/queue-disc.h>
#include <ns3/queue.h>
#include <ns3/simulator.h>
#include <ns3/traffic-control-layer.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <string>
#include <vector>

namespace uniference {

void link_taps::tap_queue_discs(const std::shared_ptr<State>& state, size_t index,
                                const ns3::Ptr<ns3::NetDevice>& device) {
  std::vector<ns3::Ptr<ns3::QueueDisc>> discs;
  const ns3::Ptr<ns3::Node> node = device->GetNode();
  if (const auto tc = node->GetObject<ns3::TrafficControlLayer>()) {
    if (const auto disc = tc->GetRootQueueDiscOnDevice(device)) discs.push_back(disc);
  }
  if (const auto ethernet_switch = node->GetObject<ns3::EthernetSwitch>()) {
    for (uint32_t port = 0; port < ethernet_switch->GetNPorts(); ++port) {
      if (ethernet_switch->GetPort(port) != device) continue;
      if (const auto disc = ethernet_switch->GetPortQueueDisc(port)) discs.push_back(disc);
    }
  }
  using Item = ns3::Ptr<const ns3::QueueDiscItem>;
  for (const ns3::Ptr<ns3::QueueDisc>& disc : discs) {
    disc->TraceConnectWithoutContext("BytesInQueue", ns3::MakeBoundCallback(&queue_level, state, index));
    disc->TraceConnectWithoutContext("Drop", ns3::MakeBoundCallback(&count<&State::Direction::drops, Item>, state, index));
    disc->TraceConnectWithoutContext(
        "Mark", ns3::MakeBoundCallback(&count<&State::Direction::marks, Item, const char*>, state, index));
  }
}

namespace {

using State = LinkSampler::State;
using link_taps::count;
using link_taps::tap_queue_discs;
using link_taps::queue_level;

// The devices are bound as raw pointers: a Ptr in its own trace callback would keep a device
// alive forever. Each callback is only ever called by that device.
//
// The port times its line in picoseconds, while ns-3's clock reads whole nanoseconds: a
// packet sent when the line fell free less than a nanosecond ago starts at that exact end,
// and a cut-through packet cannot leave before its last bit has arrived. Reading the start
// from Simulator::Now() would overlap consecutive packets by up to 1 ns, so the tap follows
// the port's own rule (IbNetDevice::Transmit) on the fabric's picosecond clock.
void ib_tx(std::shared_ptr<State> state, size_t index, ns3::IbNetDevice* device,
           const ns3::IbPacket& packet) {
  State::Direction& direction = state->directions[index];
  const int64_t now = ns3::IbEventQueue::Get().NowPs();
  const int64_t start = direction.line_free_ps > now - 1000 ? direction.line_free_ps : now;
  const int64_t end =
      std::max(start + device->TransmissionPs(packet.wireBytes), packet.lastBitPs);
  direction.line_free_ps = end;
  const int job = packet.src < state->job_of_rank.size() ? state->job_of_rank[packet.src] : -1;
  state->packet_at(index, packet.wireBytes, start, end, job);
}

// The job of the rank an IP packet comes from, under its link header (Ethernet II or PPP); -1
// when packets are not told apart or it is not an IPv4 packet of a rank.
template <typename LinkHeader>
int job_of_ip_packet(const State& state, const ns3::Ptr<const ns3::Packet>& packet) {
  if (state.job_of_address.empty()) return -1;
  ns3::Ptr<ns3::Packet> copy = packet->Copy();
  LinkHeader link;
  if (copy->RemoveHeader(link) == 0) return -1;
  ns3::Ipv4Header ip;
  if (copy->PeekHeader(ip) == 0) return -1;
  const auto found = state.job_of_address.find(ip.GetSource().Get());
  return found == state.job_of_address.end() ? -1 : found->second;
}

void ethernet_tx(std::shared_ptr<State> state, size_t index,
                 ns3::EthernetNetDevice* device, ns3::Ptr<const ns3::Packet> packet) {
  // Preamble, padding, FCS and inter-frame gap occupy the line as much as the frame.
  state->packet(index, packet->GetSize(),
                device->GetTransmitTime(packet->GetSize()).GetPicoSeconds(),
                job_of_ip_packet<ns3::EthernetHeader>(*state, packet));
}

// What a point-to-point transmitter is busy for, read once: its device has no accessor.
struct PointToPointLine {
  ns3::DataRate rate;
  int64_t gap_ps = 0;
  // ns-3 compares a callback's bound arguments to tell callbacks apart.
  bool operator!=(const PointToPointLine& other) const {
    return rate != other.rate || gap_ps != other.gap_ps;
  }
};

void point_to_point_tx(std::shared_ptr<State> state, size_t index, PointToPointLine line,
                       ns3::Ptr<const ns3::Packet> packet) {
  state->packet(index, packet->GetSize(),
                line.rate.CalculateBytesTxTime(packet->GetSize()).GetPicoSeconds() + line.gap_ps,
                job_of_ip_packet<ns3::PppHeader>(*state, packet));
}

// Maps the flow network's links to directions. Links appear as routes first use them, so a
// link is looked up by its device the first time its load is reported.
struct FlowLinks {
  const ns3::FlowNetwork* network;  // raw: the network owns the callback that holds this
  std::map<const ns3::NetDevice*, size_t> direction_of;
  std::vector<long> index;  // by link; -2: not looked up yet, -1: no direction
};

// A flow-level link's load over [start, end), as a fraction of its line rate.
void flow_load(std::shared_ptr<State> state, std::shared_ptr<FlowLinks> links, uint32_t link,
               ns3::Time start, ns3::Time end, double load) {
  if (link >= links->index.size()) links->index.resize(link + 1, -2);
  long& direction = links->index[link];
  if (direction == -2) {
    const auto found = links->direction_of.find(ns3::PeekPointer(links->network->GetLinkDevice(link)));
    direction = found == links->direction_of.end() ? -1 : long(found->second);
  }
  if (direction >= 0) {
    state->load_at(size_t(direction), start.GetPicoSeconds(), end.GetPicoSeconds(), load);
  }
}

void credit_stall(std::shared_ptr<State> state, size_t index, int64_t start_ps, int64_t end_ps) {
  state->directions[index].stall_ps += std::max<int64_t>(end_ps - start_ps, 0);
}

// An InfiniBand-like switch's output ports as directions; the switch reports each output's
// backlog (the bytes in its input buffers bound for it) as a level, the change is ours.
struct SwitchPorts {
  std::vector<long> direction;  // by port; -1: not a tapped direction
  std::vector<uint64_t> backlog;
};

void ib_backlog(std::shared_ptr<State> state, std::shared_ptr<SwitchPorts> ports, uint32_t port,
                uint64_t bytes) {
  const long index = ports->direction[port];
  if (index < 0) return;
  state->queue_change(size_t(index), ns3::IbEventQueue::Get().NowPs(),
                      int64_t(bytes) - int64_t(ports->backlog[port]));
  ports->backlog[port] = bytes;
}

void ib_mark(std::shared_ptr<State> state, std::shared_ptr<SwitchPorts> ports, uint32_t port,
             const ns3::IbPacket&) {
  if (ports->direction[port] >= 0) state->count(size_t(ports->direction[port]), &State::Direction::marks);
}

// The device at the other end of `device`'s cable, or null where it has no single peer.
ns3::Ptr<ns3::NetDevice> peer_of(const ns3::Ptr<ns3::NetDevice>& device) {
  const ns3::Ptr<ns3::Channel> channel = device->GetChannel();
  if (!channel || channel->GetNDevices() != 2) return nullptr;
  return channel->GetDevice(0) == device ? channel->GetDevice(1) : channel->GetDevice(0);
}

// Taps on direction `index`, sent by `device`, what waits for its line and what is lost or
// marked on the way. An Ethernet or point-to-point sender: its device queue and queue discs
// (tap_queue_discs), and its receiver's loss on arrival (a corrupt
// frame: a fault's or a wide-area link's loss). An InfiniBand-like port: its credit stalls and
// its receiver's loss (the fabric's receive error model); a switch's backlog and marks are
// tapped per switch (tap_ib_switches), and an endpoint sends from its messages, no queue.
void tap_queues_and_losses(const std::shared_ptr<State>& state, size_t index,
                           const ns3::Ptr<ns3::NetDevice>& device) {
  using Packet = ns3::Ptr<const ns3::Packet>;
  constexpr auto drops = &State::Direction::drops;
  const ns3::Ptr<ns3::NetDevice> peer = peer_of(device);
  if (ns3::DynamicCast<ns3::IbNetDevice>(device)) {
    device->TraceConnectWithoutContext("CreditStall", ns3::MakeBoundCallback(&credit_stall, state, index));
    if (peer) peer->TraceConnectWithoutContext("RxDrop", ns3::MakeBoundCallback(&count<drops, const ns3::IbPacket&>, state, index));
    return;
  }
  device->TraceConnectWithoutContext("MacTxDrop", ns3::MakeBoundCallback(&count<drops, Packet>, state, index));
  if (peer) peer->TraceConnectWithoutContext("PhyRxDrop", ns3::MakeBoundCallback(&count<drops, Packet>, state, index));
  ns3::Ptr<ns3::Queue<ns3::Packet>> queue;
  if (const auto ethernet = ns3::DynamicCast<ns3::EthernetNetDevice>(device)) queue = ethernet->GetQueue();
  if (const auto p2p = ns3::DynamicCast<ns3::PointToPointNetDevice>(device)) queue = p2p->GetQueue();
  if (queue) queue->TraceConnectWithoutContext("BytesInQueue", ns3::MakeBoundCallback(&queue_level, state, index));
  tap_queue_discs(state, index, device);
}

// Every InfiniBand-like switch's outputs: the bytes waiting for each, and the packets it marks.
void tap_ib_switches(const std::shared_ptr<State>& state,
                     const std::map<const ns3::NetDevice*, size_t>& direction_of) {
  for (uint32_t n = 0; n < ns3::NodeList::GetNNodes(); ++n) {
    const auto ib_switch = ns3::NodeList::GetNode(n)->GetObject<ns3::IbSwitch>();
    if (!ib_switch) continue;
    auto ports = std::make_shared<SwitchPorts>();
    for (uint32_t port = 0; port < ib_switch->GetNPorts(); ++port) {
      const auto found = direction_of.find(ns3::PeekPointer(ib_switch->GetPort(port)));
      ports->direction.push_back(found == direction_of.end() ? -1 : long(found->second));
      ports->backlog.push_back(ib_switch->GetBacklog(port));
    }
    ib_switch->TraceConnectWithoutContext("Backlog", ns3::MakeBoundCallback(&ib_backlog, state, ports));
    ib_switch->TraceConnectWithoutContext("Mark", ns3::MakeBoundCallback(&ib_mark, state, ports));
  }
}

uint64_t data_rate_attribute(const ns3::Ptr<ns3::NetDevice>& device) {
  ns3::DataRateValue rate;
  device->GetAttribute("DataRate", rate);
  return rate.Get().GetBitRate();
}

}  // namespace

LinkSampler::LinkSampler(uint32_t samples, ns3::Ptr<ns3::FlowNetwork> flow)
    : state_(std::make_shared<State>()) {
  state_->max_bins = std::max<uint32_t>(samples, 1);
  std::map<const ns3::NetDevice*, size_t> direction_of;
  for (const auto& [device, name] : cable_directions()) {
    State::Direction direction;
    direction.name = name;
    const size_t index = state_->directions.size();
    if (auto ib = ns3::DynamicCast<ns3::IbNetDevice>(device)) {
      direction.rate_bps = ib->GetDataRate().GetBitRate();
      ib->TraceConnectWithoutContext(
          "Tx", ns3::MakeBoundCallback(&ib_tx, state_, index, ns3::PeekPointer(ib)));
    } else if (auto ethernet = ns3::DynamicCast<ns3::EthernetNetDevice>(device)) {
      direction.rate_bps = data_rate_attribute(device);
      ethernet->TraceConnectWithoutContext(
          "PhyTxBegin",
          ns3::MakeBoundCallback(&ethernet_tx, state_, index, ns3::PeekPointer(ethernet)));
    } else if (auto p2p = ns3::DynamicCast<ns3::PointToPointNetDevice>(device)) {
      direction.rate_bps = data_rate_attribute(device);
      ns3::TimeValue gap;
      p2p->GetAttribute("InterframeGap", gap);
      const PointToPointLine line{ns3::DataRate(direction.rate_bps),
                                  gap.Get().GetPicoSeconds()};
      p2p->TraceConnectWithoutContext(
          "PhyTxBegin", ns3::MakeBoundCallback(&point_to_point_tx, state_, index, line));
    } else {
      continue;  // a device kind without a tap: not listed rather than shown idle
    }
    direction_of[ns3::PeekPointer(device)] = state_->directions.size();
    state_->directions.push_back(std::move(direction));
    tap_queues_and_losses(state_, index, device);
  }
  tap_ib_switches(state_, direction_of);
  tap_wifi_stations(state_);
  tap_lte_cells(state_);
  if (!flow) return;
  auto links = std::make_shared<FlowLinks>();
  links->network = ns3::PeekPointer(flow);
  links->direction_of = std::move(direction_of);
  flow->TraceConnectWithoutContext("LinkLoad", ns3::MakeBoundCallback(&flow_load, state_, links));
}

LinkSampler::~LinkSampler() = default;

size_t LinkSampler::directions() const { return state_->directions.size(); }

void LinkSampler::keep_until_end() { state_->keeping = true; }

int64_t LinkSampler::fitted_width_ps(int64_t end_ns) {
  state_->apply_until(end_ns * 1000);
  state_->fit(std::max<int64_t>(end_ns, 1) * 1000);
  return state_->width_ps;
}

void LinkSampler::attribute_jobs(const std::vector<int>& job_of_rank) {
  State& state = *state_;
  state.job_of_rank = job_of_rank;
  state.jobs = job_of_rank.empty() ? 0 : size_t(*std::max_element(job_of_rank.begin(), job_of_rank.end()) + 1);
  for (auto node = ns3::NodeList::Begin(); node != ns3::NodeList::End(); ++node) {
    const int rank = rank_named(node_name(*node));
    const auto ip = (*node)->GetObject<ns3::Ipv4>();
    if (rank < 0 || size_t(rank) >= job_of_rank.size() || !ip) continue;
    for (uint32_t i = 0; i < ip->GetNInterfaces(); ++i) {
      for (uint32_t a = 0; a < ip->GetNAddresses(i); ++a) {
        const ns3::Ipv4Address address = ip->GetAddress(i, a).GetLocal();
        if (!address.IsLocalhost()) state.job_of_address[address.Get()] = job_of_rank[size_t(rank)];
      }
    }
  }
}

LinkActivity LinkSampler::finish(int64_t end_ns, int64_t width_ps, size_t max_links) {
  State& state = *state_;
  state.apply_until(end_ns * 1000);
  const int64_t end_ps = std::max<int64_t>(end_ns, 1) * 1000;
  state.fit(end_ps);
  while (state.width_ps < width_ps) state.widen();
  const size_t bins = size_t((end_ps + state.width_ps - 1) / state.width_ps);

  LinkActivity activity;
  activity.interval_ns = state.width_ps / 1000;
  // Directions that carried bytes, in node and device order.
  for (State::Direction& direction : state.directions) {
    if (direction.bytes.empty()) continue;
    direction.queue_until(end_ps);
    LinkSeries series;
    series.name = direction.name;
    series.rate_bps = direction.rate_bps;
    series.bytes.assign(direction.bytes.begin(), direction.bytes.begin() + long(bins));
    series.busy_ps.assign(direction.busy_ps.begin(), direction.busy_ps.begin() + long(bins));
    series.drops = direction.drops;
    series.marks = direction.marks;
    series.queue_peak_bytes = direction.queue_peak_bytes;
    series.queue_mean_bytes = double(direction.queue_byte_ps) / double(end_ps);
    series.credit_stall_ps = direction.stall_ps;
    series.job_bytes = direction.job_bytes;
    for (size_t bin = 0; bin < bins && bin < direction.job_mask.size(); ++bin) {
      if (__builtin_popcountll(direction.job_mask[bin]) >= 2) series.shared_ps += state.width_ps;
    }
    activity.links.push_back(std::move(series));
  }
  keep_busiest(activity, max_links);
  return activity;
}

void keep_busiest(LinkActivity& activity, size_t max_links) {
  std::vector<LinkSeries>& links = activity.links;
  if (links.size() <= max_links) return;
  std::vector<int64_t> busy;
  for (const LinkSeries& series : links) {
    busy.push_back(std::accumulate(series.busy_ps.begin(), series.busy_ps.end(), int64_t(0)));
  }
  std::vector<size_t> ranked(links.size());
  std::iota(ranked.begin(), ranked.end(), size_t(0));
  std::stable_sort(ranked.begin(), ranked.end(), [&](size_t a, size_t b) { return busy[a] > busy[b]; });
  ranked.resize(max_links);
  std::sort(ranked.begin(), ranked.end());
  std::vector<LinkSeries> kept;
  for (size_t i : ranked) kept.push_back(std::move(links[i]));
  activity.links_omitted += links.size() - max_links;
  links = std::move(kept);
}

}  // namespace uniference
