// The simulated side of every SimComm of one run: which rank sits on which ns-3
// transport, the matching of sends to receives, the collectives in progress, and the
// tensor results, which are computed in memory so shards see exactly what a real run
// gives them while ns-3 carries the exact byte counts.
#pragma once

#include "bridge/kernel.h"
#include "bridge/sim_work.h"
#include "compute/comm.h"

#include <ns3/collective-factory.h>
#include <ns3/message-transport.h>
#include <ns3/ptr.h>

#include <ATen/ATen.h>

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace uniference {

class SimWorld {
 public:
  // transports[r] is world rank r's endpoint; the kernel's LP r is world rank r.
  SimWorld(Kernel& kernel, std::vector<ns3::Ptr<ns3::MessageTransport>> transports);
  ~SimWorld();
  SimWorld(const SimWorld&) = delete;
  SimWorld& operator=(const SimWorld&) = delete;

  Kernel& kernel() { return kernel_; }
  int world_size() const { return static_cast<int>(transports_.size()); }
  // The world communicator as seen by `rank`.
  std::shared_ptr<Comm> world_comm(int rank);

  // ---- used by SimComm; ranks are world ranks ----
  std::shared_ptr<SimWork> post_send(int group, int src, int dst, int tag, const at::Tensor& t);
  std::shared_ptr<SimWork> post_recv(int group, int dst, int src, int tag, at::Tensor& t);

  enum class CollectiveKind { kAllReduce, kAllGather, kBroadcast, kBarrier };
  struct CollectiveArgs {
    CollectiveKind kind;
    ReduceOp reduce = ReduceOp::kSum;
    int root = 0;           // group index, broadcast only
    at::Tensor input;       // this rank's contribution (broadcast: the root's tensor)
    at::Tensor output;      // filled in place when this rank's part completes
  };
  std::shared_ptr<SimWork> enter_collective(int group, uint64_t seq, int index,
                                            const CollectiveArgs& args);

  // The group id for the `split_index`-th split of `parent` with these world ranks.
  int split_group(int parent, uint64_t split_index, const std::vector<int>& members);
  const std::vector<int>& group_members(int group) const { return groups_.at(group); }

  // Messages handed to the transports and not yet delivered.
  uint64_t in_flight() const { return queued_ - delivered_; }

 private:
  using MatchKey = std::tuple<int, int, int, int>;  // group, src, dst, tag
  struct Message {
    MatchKey key;
    at::Tensor data;
  };
  struct CollectiveCall;  // one collective call of one group, as the bridge tracks it

  void on_p2p_delivered(int dst, uint32_t src, uint64_t cookie, uint64_t bytes);
  void match(const MatchKey& key);
  static void send_done(std::shared_ptr<SimWork> work);
  static void collective_done(CollectiveCall* call, uint32_t index);
  void finish_collective(CollectiveCall& call, uint32_t index);
  int add_group(const std::vector<int>& members);
  const std::string& group_label(int group) const { return group_labels_.at(group); }

  // Trace hooks on every transport: bytes per rank, in-flight count, message records.
  static void on_queued(SimWorld* world, int rank, uint32_t dst, uint64_t channel,
                        uint64_t cookie, uint64_t bytes);
  static void on_sent(SimWorld* world, int rank, uint32_t dst, uint64_t channel, uint64_t cookie,
                      uint64_t bytes);
  static void on_delivered(SimWorld* world, int rank, uint32_t src, uint64_t channel,
                           uint64_t cookie, uint64_t bytes);

  Kernel& kernel_;
  std::vector<ns3::Ptr<ns3::MessageTransport>> transports_;
  std::vector<std::vector<int>> groups_;  // world ranks of each group; group 0 is the world
  std::vector<std::string> group_labels_;  // "group 1 {0,2}", for errors and reports
  std::map<std::pair<int, uint64_t>, int> splits_;

  uint64_t next_message_id_ = 1;
  std::map<uint64_t, Message> messages_;  // sent, not yet matched with a receive
  std::map<MatchKey, std::deque<uint64_t>> arrived_;
  std::map<MatchKey, std::deque<std::pair<std::shared_ptr<SimWork>, at::Tensor>>> posted_;

  std::map<std::pair<int, uint64_t>, std::unique_ptr<CollectiveCall>> collectives_;
  std::map<uint64_t, std::string> channel_labels_;

  uint64_t queued_ = 0;
  uint64_t delivered_ = 0;
  // Per ordered pair, the messages sent and not yet delivered: TCP keeps their order.
  std::map<std::pair<int, int>, std::deque<NetMessage>> on_the_wire_;
};

}  // namespace uniference
