// Send/recv of the simulated backend: a send is one framed message on the sender's
// transport; its tensor travels beside it in memory and is matched, on arrival, with the
// receive posted for the same (group, source, destination, tag), in order, as c10d does.
#pragma once

#include "bridge/kernel.h"
#include "bridge/sim_work.h"

#include <ns3/message-transport.h>
#include <ns3/ptr.h>

#include <ATen/ATen.h>

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace uniference {

class PointToPoint {
 public:
  // Point-to-point messages of every group share one channel; the cookie names the
  // message: its group, tag and place among the sender's messages of that group and tag to
  // that receiver, so a receiver in another process of a distributed simulation knows what
  // arrived without the sender's memory. Collectives take channels of their own.
  static constexpr uint64_t kChannel = 1;

  // transports[r] is world rank r's; listens on kChannel of each.
  PointToPoint(Kernel& kernel, const std::vector<ns3::Ptr<ns3::MessageTransport>>& transports);

  std::shared_ptr<SimWork> post_send(int group, int src, int dst, int tag, const at::Tensor& t);
  std::shared_ptr<SimWork> post_recv(int group, int dst, int src, int tag, at::Tensor& t);

  // The sender's compute label when it posted message `cookie` to `dst` ("" once it is
  // received).
  std::string compute_label(int src, int dst, uint64_t cookie) const;

 private:
  using MatchKey = std::tuple<int, int, int, int>;  // group, src, dst, tag
  struct Message {
    MatchKey key;
    at::Tensor data;    // undefined: sent from another process, shapes only
    std::string label;  // the sender's compute label
    uint64_t bytes = 0;
  };
  using MessageKey = std::tuple<int, int, uint64_t>;  // src, dst, cookie

  // The cookie of the seq-th message of (group, tag) from one sender to one receiver;
  // `carries`: its values go beside its packets to another process.
  static uint64_t cookie(int group, int tag, bool carries, uint64_t seq);
  // The key its values travel under (bridge/distributed.h).
  static std::string values_key(int src, int dst, uint64_t cookie);
  // The process of a distributed simulation that runs `rank`.
  uint32_t process_of(int rank) const;
  void on_delivered(int dst, uint32_t src, uint64_t cookie, uint64_t bytes);
  void match(const MatchKey& key);
  static void send_done(std::shared_ptr<SimWork> work);

  Kernel& kernel_;
  std::vector<ns3::Ptr<ns3::MessageTransport>> transports_;
  std::map<MatchKey, uint64_t> sent_;        // messages sent so far, per key
  std::map<MessageKey, Message> messages_;  // sent, not yet matched with a receive
  std::map<MatchKey, std::deque<MessageKey>> arrived_;
  std::map<MatchKey, std::deque<std::pair<std::shared_ptr<SimWork>, at::Tensor>>> posted_;
};

}  // namespace uniference
