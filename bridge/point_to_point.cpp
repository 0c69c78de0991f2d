#include "bridge/point_to_point.h"

#include "bridge/collective_ops.h"
#include "bridge/distributed.h"
#include "bridge/tensor_bytes.h"

#include <ns3/callback.h>
#include <ns3/node.h>

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
  const MatchKey key{group, src, dst, tag};
  // To another process of a distributed simulation, values go beside the packets.
  const bool carries = !kernel_.runs_here(dst) && !t.is_meta();
  const uint64_t id = cookie(group, tag, carries, sent_[key]++);
  if (carries) distributed::post(process_of(dst), values_key(src, dst, id), tensor_to_bytes(t));
  // The sender may reuse its tensor once the send completes: keep what was sent. A meta
  // tensor (shapes-only compute) has no data to keep; its shape is all a receive checks, and
  // the clone would cost more than the rest of the send.
  const auto [slot, fresh] = messages_.try_emplace(
      MessageKey{src, dst, id},
      Message{key,
              !kernel_.runs_here(dst) ? at::Tensor() : t.is_meta() ? t : t.detach().contiguous().clone(),
              work->label(), bytes});
  if (!fresh) {
    throw std::length_error("send from rank " + std::to_string(src) + " to rank " +
                            std::to_string(dst) + " tag " + std::to_string(tag) +
                            ": 32,768 messages of one group and tag not yet received");
  }
  transports_[static_cast<size_t>(src)]->Send(
      static_cast<uint32_t>(dst), kChannel, id, bytes,
      ns3::MakeBoundCallback(&PointToPoint::send_done, work));
  return work;
}

uint64_t PointToPoint::cookie(int group, int tag, bool carries, uint64_t seq) {
  if (group < 0 || group >= (1 << 16)) {
    throw std::length_error("group " + std::to_string(group) + ": past the groups a message names");
  }
  return (uint64_t(group) << 48) | (uint64_t(uint32_t(tag)) << 16) | (uint64_t(carries) << 15) |
         (seq & 0x7fff);
}

uint32_t PointToPoint::process_of(int rank) const {
  return transports_[static_cast<size_t>(rank)]->GetNode()->GetSystemId();
}

std::string PointToPoint::values_key(int src, int dst, uint64_t cookie) {
  return "p2p/" + std::to_string(src) + "/" + std::to_string(dst) + "/" + std::to_string(cookie);
}

std::string PointToPoint::compute_label(int src, int dst, uint64_t cookie) const {
  auto it = messages_.find(MessageKey{src, dst, cookie});
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
  const MessageKey id{static_cast<int>(src), dst, cookie};
  auto it = messages_.find(id);
  if (it == messages_.end() && !kernel_.runs_here(static_cast<int>(src))) {
    // From another process: the cookie names its group and tag, and whether its values came
    // beside its packets (a meta tensor's did not: it has none).
    const MatchKey key{int(cookie >> 48), int(src), dst, int(uint32_t(cookie >> 16))};
    at::Tensor values;
    if ((cookie >> 15) & 1) {
      values = tensor_from_bytes(distributed::take(process_of(int(src)), values_key(int(src), dst, cookie)));
    }
    it = messages_.emplace(id, Message{key, values, "", bytes}).first;
  }
  if (it == messages_.end()) {
    throw std::logic_error("rank " + std::to_string(dst) + " received unknown message " +
                           std::to_string(cookie) + " of " + std::to_string(bytes) + " bytes");
  }
  MatchKey key = it->second.key;
  arrived_[key].push_back(id);
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
    if (!data.defined()) {
      // Sent from another process of a distributed simulation: its size is what is known.
      if (message->second.bytes != tensor_bytes(target)) {
        error = "recv on rank " + std::to_string(std::get<2>(key)) + " from rank " +
                std::to_string(std::get<1>(key)) + " tag " + std::to_string(std::get<3>(key)) +
                ": expected " + std::to_string(tensor_bytes(target)) + " bytes, the message has " +
                std::to_string(message->second.bytes);
      } else if (!target.is_meta()) {
        error = "recv on rank " + std::to_string(std::get<2>(key)) +
                ": a message from another process carries no data (runs across processes "
                "compute shapes only)";
      }
    } else if (tensor_bytes(data) != tensor_bytes(target) || data.scalar_type() != target.scalar_type()) {
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
