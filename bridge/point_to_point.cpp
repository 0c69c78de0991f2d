#include "bridge/point_to_point.h"

#include "bridge/collective_ops.h"

#include <ns3/callback.h>

#include <sstream>
#include <stdexcept>

namespace uniference {

PointToPoint::PointToPoint(Kernel& kernel,
                           const std::vector<ns3::Ptr<ns3::MessageTransport>>& transports)
    : kernel_(kernel), transports_(transports) {
  for (size_t r = 0; r < transports_.size(); ++r) {
    transports_[r]->Listen(kChannel, ns3::MakeCallback(&PointToPoint::on_delivered, this)
                                         .Bind(static_cast<int>(r)));
  }
}

std::shared_ptr<SimWork> PointToPoint::post_send(int group, int src, int dst, int tag,
                                                 const at::Tensor& t) {
  uint64_t bytes = tensor_bytes(t);
  auto work = std::make_shared<SimWork>(kernel_, src, op_name(OpType::kSend), bytes, dst,
                                        BlockReason{"send", "rank " + std::to_string(dst), tag});
  uint64_t id = next_message_id_++;
  // The sender may reuse its tensor once the send completes: keep what was sent. A meta
  // tensor (shapes-only compute) has no data to keep; its shape is all a receive checks, and
  // the clone would cost more than the rest of the send.
  messages_[id] = Message{MatchKey{group, src, dst, tag},
                          t.is_meta() ? t : t.detach().contiguous().clone(), work->label()};
  transports_[static_cast<size_t>(src)]->Send(
      static_cast<uint32_t>(dst), kChannel, id, bytes,
      ns3::MakeBoundCallback(&PointToPoint::send_done, work));
  return work;
}

std::string PointToPoint::compute_label(uint64_t cookie) const {
  auto it = messages_.find(cookie);
  return it == messages_.end() ? std::string() : it->second.label;
}

void PointToPoint::send_done(std::shared_ptr<SimWork> work) { work->complete(); }

std::shared_ptr<SimWork> PointToPoint::post_recv(int group, int dst, int src, int tag,
                                                 at::Tensor& t) {
  auto work = std::make_shared<SimWork>(kernel_, dst, op_name(OpType::kRecv), tensor_bytes(t),
                                        src,
                                        BlockReason{"recv", "rank " + std::to_string(src), tag});
  MatchKey key{group, src, dst, tag};
  posted_[key].emplace_back(work, t);
  match(key);
  return work;
}

void PointToPoint::on_delivered(int dst, uint32_t src, uint64_t cookie, uint64_t bytes) {
  auto it = messages_.find(cookie);
  if (it == messages_.end() || std::get<2>(it->second.key) != dst ||
      std::get<1>(it->second.key) != static_cast<int>(src)) {
    throw std::logic_error("rank " + std::to_string(dst) + " received unknown message " +
                           std::to_string(cookie) + " of " + std::to_string(bytes) + " bytes");
  }
  MatchKey key = it->second.key;
  arrived_[key].push_back(cookie);
  match(key);
}

void PointToPoint::match(const MatchKey& key) {
  auto posted = posted_.find(key);
  auto arrived = arrived_.find(key);
  while (posted != posted_.end() && arrived != arrived_.end() && !posted->second.empty() &&
         !arrived->second.empty()) {
    auto [work, target] = posted->second.front();
    posted->second.pop_front();
    auto message = messages_.find(arrived->second.front());
    arrived->second.pop_front();
    const at::Tensor& data = message->second.data;
    std::string error;
    if (tensor_bytes(data) != tensor_bytes(target) || data.scalar_type() != target.scalar_type()) {
      std::ostringstream out;
      out << "recv on rank " << std::get<2>(key) << " from rank " << std::get<1>(key) << " tag "
          << std::get<3>(key) << ": expected " << tensor_bytes(target) << " bytes of "
          << target.scalar_type() << ", the message has " << tensor_bytes(data) << " bytes of "
          << data.scalar_type();
      error = out.str();
    } else if (!target.is_meta()) {
      target.copy_(data.view(target.sizes()));
    }
    messages_.erase(message);
    work->complete(error);
  }
  if (posted != posted_.end() && posted->second.empty()) posted_.erase(posted);
  if (arrived != arrived_.end() && arrived->second.empty()) arrived_.erase(arrived);
}

}  // namespace uniference
