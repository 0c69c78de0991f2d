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
#include <tuple>
#include <utility>
#include <vector>

namespace uniference {

class PointToPoint {
 public:
  // Point-to-point messages of every group share one channel; the cookie names the
  // message. Collectives take channels of their own from the ns-3 module (from 2^63 up).
  static constexpr uint64_t kChannel = 1;

  // transports[r] is world rank r's; listens on kChannel of each.
  PointToPoint(Kernel& kernel, const std::vector<ns3::Ptr<ns3::MessageTransport>>& transports);

  std::shared_ptr<SimWork> post_send(int group, int src, int dst, int tag, const at::Tensor& t);
  std::shared_ptr<SimWork> post_recv(int group, int dst, int src, int tag, at::Tensor& t);

  // The sender's compute label when it posted message `cookie` ("" once it is received).
  std::string compute_label(uint64_t cookie) const;

 private:
  using MatchKey = std::tuple<int, int, int, int>;  // group, src, dst, tag
  struct Message {
    MatchKey key;
    at::Tensor data;
    std::string label;  // the sender's compute label
  };

  void on_delivered(int dst, uint32_t src, uint64_t cookie, uint64_t bytes);
  void match(const MatchKey& key);
  static void send_done(std::shared_ptr<SimWork> work);

  Kernel& kernel_;
  std::vector<ns3::Ptr<ns3::MessageTransport>> transports_;
  uint64_t next_message_id_ = 1;
  std::map<uint64_t, Message> messages_;  // sent, not yet matched with a receive
  std::map<MatchKey, std::deque<uint64_t>> arrived_;
  std::map<MatchKey, std::deque<std::pair<std::shared_ptr<SimWork>, at::Tensor>>> posted_;
};

}  // namespace uniference
