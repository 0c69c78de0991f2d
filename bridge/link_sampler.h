// Per-link utilisation of a simulated network, for the trace's "network" counters.
//
// Each direction of each cable is tapped where its transmitter starts a packet (the
// InfiniBand-like ports' "Tx", the Ethernet and point-to-point devices' "PhyTxBegin"), and
// the packet's serialisation time is added to fixed-length intervals of simulated time. The
// sampler schedules no ns-3 event of its own: a periodic sampling event would keep the
// simulator from running dry, and running dry is how the kernel recognises a deadlock; it
// would also go on after the last rank finished. So the intervals are bins filled from the
// packets' own callbacks.
//
// The run's length is not known beforehand. Bins start 1 ns wide; whenever a packet would
// fall past the last of `samples` bins, every bin is merged with its neighbour and the width
// doubles. A run of any length thus ends with between samples / 2 and samples intervals of
// one width (a power of two nanoseconds), and memory stays at `samples` bins per direction
// that carried bytes.
//
// Radio cells (Wi-Fi, LTE) are shared media, not cables: bridge/radio_link_taps.h says what a
// direction is there.
//
// At the flow level no packet crosses a device; the flow network's LinkLoad trace says
// instead, per link (one direction of a cable, sent by that cable's device), over which
// interval which fraction of the line rate its streams used, and that interval's bytes and
// busy time are spread over the bins it covers.
//
// Per direction it also keeps what waits for the line and what is lost or marked: the bytes in
// the sender's device queue and queue discs (for a lossless switch's output, in its input
// buffers bound for it: IbSwitch's Backlog), their peak and time-weighted mean; packets
// dropped (a full queue, a corrupt arrival); packets marked congested (ECN by a queue disc,
// FECN / ECN by a lossless switch); and, on the lossless fabric, how long the line sat idle
// for want of credits while a packet waited (its link-level pauses). The flow level has no
// queues: there these stay 0.
#pragma once

#include "bridge/run_record.h"

#include <ns3/flow-network.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace uniference {

class LinkSampler {
 public:
  // Directions written at most; the busiest are kept. A k=8 fat-tree has 768.
  static constexpr size_t kMaxLinks = 4096;

  // Taps every cable direction of the network ns-3 holds now (every node's devices in
  // ns3::NodeList): build the network first. Directions are named as their cables
  // (bridge/node_names.h: "rank0 -> hub"). With `flow` (the flow level's network), its
  // links' loads fill the directions of their devices.
  explicit LinkSampler(uint32_t samples, ns3::Ptr<ns3::FlowNetwork> flow = nullptr);
  ~LinkSampler();
  LinkSampler(const LinkSampler&) = delete;
  LinkSampler& operator=(const LinkSampler&) = delete;

  // The intervals from t = 0 to end_ns (the run's end: the last rank's finish), the busiest
  // max_links directions. A process of a distributed simulation taps the directions its
  // nodes send on; its peers agree on the widest interval (fitted_width_ps), keep every
  // direction, and process 0 joins them (keep_busiest).
  LinkActivity finish(int64_t end_ns, int64_t width_ps = 0, size_t max_links = kMaxLinks);
  // The interval's width in ps, once widened to hold end_ns.
  int64_t fitted_width_ps(int64_t end_ns);

  // Hold what the taps see (packets, queue levels, losses and marks) until the run's end is
  // known, and then drop what came after it. One process stops at the last rank's finish; a
  // process of a distributed simulation cannot know that time while it runs, and its network
  // goes on carrying what TCP still sends (delayed acknowledgements) until every process runs
  // dry. Costs memory by packet: for runs cut across processes whose network talks after the
  // end.
  void keep_until_end();

  // Tells the packets of several jobs apart (/jobs): job_of_rank[r] is the job of world rank r;
  // each packet counts for the job of the rank it comes from (its endpoint id on the lossless
  // fabric, the rank node's IPv4 address otherwise). Packets on radio cells and the flow level's
  // loads are not told apart.
  void attribute_jobs(const std::vector<int>& job_of_rank);

  // Directions tapped (whether or not they carried anything).
  size_t directions() const;

  struct State;  // shared with the device callbacks, which may outlive the sampler

 private:
  std::shared_ptr<State> state_;
};

// Keeps the max_links directions of `activity` with the most busy time (the earlier of two
// alike), in their order, and counts the rest in links_omitted.
void keep_busiest(LinkActivity& activity, size_t max_links);

}  // namespace uniference
