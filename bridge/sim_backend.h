// The simulated communication backend of one run (c10d calls a ProcessGroup's engine its
// backend): which world rank sits on which ns-3 transport, and the parts that serve
// SimComm: the group table, send/recv matching and the collectives in progress. It also
// feeds the run recorder from the transports' traces, and tells the kernel what is in
// flight, for deadlock detection.
#pragma once

#include "bridge/collective_engine.h"
#include "bridge/group_table.h"
#include "bridge/kernel.h"
#include "bridge/point_to_point.h"
#include "compute/comm.h"

#include <ns3/message-transport.h>
#include <ns3/ptr.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace uniference {

class SimBackend {
 public:
  // transports[r] is world rank r's endpoint; the kernel's LP r is world rank r.
  SimBackend(Kernel& kernel, std::vector<ns3::Ptr<ns3::MessageTransport>> transports,
             CollectiveSelection collectives = {});
  ~SimBackend();
  SimBackend(const SimBackend&) = delete;
  SimBackend& operator=(const SimBackend&) = delete;

  Kernel& kernel() { return kernel_; }
  int world_size() const { return static_cast<int>(transports_.size()); }
  // The world communicator as seen by `rank`: the whole world, or its job's (add_job_world).
  std::shared_ptr<Comm> world_comm(int rank);
  // Consecutive world ranks first .. first + size - 1 become a world of their own, a job among
  // others: their world communicator numbers them 0 .. size - 1, as if they ran alone.
  void add_job_world(int first, int size);

  GroupTable& groups() { return groups_; }
  PointToPoint& point_to_point() { return point_to_point_; }
  CollectiveEngine& collectives() { return collectives_; }

  // Messages handed to the transports and not yet delivered, and sends still waiting for the
  // destination's acknowledgement (RDMA): a rank blocked on either waits on the network.
  // Counts the acknowledgements only when no message is undelivered: the deadlock check,
  // which runs after every delivery, asks only whether anything is in flight, and asking each
  // of thousands of transports every time made a large run quadratic.
  uint64_t in_flight() const;

 private:
  // Trace hooks on every transport.
  static void on_queued(SimBackend* backend, int rank, uint32_t dst, uint64_t channel,
                        uint64_t cookie, uint64_t bytes);
  static void on_sent(SimBackend* backend, int rank, uint32_t dst, uint64_t channel,
                      uint64_t cookie, uint64_t bytes);
  static void on_delivered(SimBackend* backend, int rank, uint32_t src, uint64_t channel,
                           uint64_t cookie, uint64_t bytes);

  Kernel& kernel_;
  std::vector<ns3::Ptr<ns3::MessageTransport>> transports_;
  std::map<uint64_t, ChannelLabel> channel_labels_;  // collectives' channels, for the record
  GroupTable groups_;
  // Each rank's world: a group and its index in it; empty while every rank's is group 0.
  std::vector<std::pair<int, int>> world_of_;
  PointToPoint point_to_point_;
  CollectiveEngine collectives_;
  uint64_t queued_ = 0;
  uint64_t delivered_ = 0;
};

}  // namespace uniference
