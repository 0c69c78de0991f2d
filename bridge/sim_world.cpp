#include "bridge/sim_world.h"

#include "bridge/sim_comm.h"

#include <ns3/callback.h>
#include <ns3/simulator.h>
#include <ns3/uinteger.h>

#include <sstream>
#include <stdexcept>

namespace uniference {

namespace {
// Point-to-point messages of every group share one channel; the cookie names the
// message. Collectives get channels of their own from the ns-3 module (from 2^63 up).
constexpr uint64_t kPointToPointChannel = 1;

const char* kind_name(SimWorld::CollectiveKind kind) {
  switch (kind) {
    case SimWorld::CollectiveKind::kAllReduce:
      return "all_reduce";
    case SimWorld::CollectiveKind::kAllGather:
      return "all_gather";
    case SimWorld::CollectiveKind::kBroadcast:
      return "broadcast";
    case SimWorld::CollectiveKind::kBarrier:
      return "barrier";
  }
  return "?";
}

uint64_t tensor_bytes(const at::Tensor& t) {
  return static_cast<uint64_t>(t.numel()) * static_cast<uint64_t>(t.element_size());
}
}  // namespace

struct SimWorld::CollectiveCall {
  SimWorld* world = nullptr;
  int group = 0;
  uint64_t seq = 0;
  CollectiveKind kind = CollectiveKind::kBarrier;
  ReduceOp reduce = ReduceOp::kSum;
  int root = 0;
  uint64_t bytes = 0;  // the nccl-tests S of this call
  ns3::Ptr<ns3::Collective> net;
  std::vector<at::Tensor> inputs;
  std::vector<at::Tensor> outputs;
  std::vector<std::shared_ptr<SimWork>> works;
  std::vector<bool> entered;
  int completed = 0;
  at::Tensor result;
  std::string mismatch;  // set when ranks disagree about the call
};

SimWorld::SimWorld(Kernel& kernel, std::vector<ns3::Ptr<ns3::MessageTransport>> transports)
    : kernel_(kernel), transports_(std::move(transports)) {
  if (kernel_.lp_count() != world_size()) {
    throw std::invalid_argument("SimWorld: " + std::to_string(world_size()) +
                                " transports for " + std::to_string(kernel_.lp_count()) + " LPs");
  }
  std::vector<int> world(static_cast<size_t>(world_size()));
  for (int r = 0; r < world_size(); ++r) world[static_cast<size_t>(r)] = r;
  add_group(world);
  for (int r = 0; r < world_size(); ++r) {
    auto& transport = transports_[static_cast<size_t>(r)];
    transport->Listen(kPointToPointChannel,
                      ns3::MakeCallback(&SimWorld::on_p2p_delivered, this).Bind(r));
    transport->TraceConnectWithoutContext("MessageQueued",
                                          ns3::MakeBoundCallback(&SimWorld::on_queued, this, r));
    transport->TraceConnectWithoutContext("MessageSent",
                                          ns3::MakeBoundCallback(&SimWorld::on_sent, this, r));
    transport->TraceConnectWithoutContext(
        "MessageDelivered", ns3::MakeBoundCallback(&SimWorld::on_delivered, this, r));
  }
  channel_labels_[kPointToPointChannel] = "send";
  kernel_.set_in_flight_probe([this] { return in_flight(); });
}

SimWorld::~SimWorld() {
  // Collectives a failed or deadlocked run left unfinished listen on the transports,
  // which keeps them alive; let them go.
  for (auto& [key, call] : collectives_) call->net->Dispose();
  kernel_.set_in_flight_probe({});
}

std::shared_ptr<Comm> SimWorld::world_comm(int rank) {
  return std::make_shared<SimComm>(*this, 0, rank);
}

int SimWorld::add_group(const std::vector<int>& members) {
  int group = static_cast<int>(groups_.size());
  std::ostringstream label;
  label << "group " << group << " {";
  for (size_t i = 0; i < members.size(); ++i) label << (i ? "," : "") << members[i];
  label << "}";
  groups_.push_back(members);
  group_labels_.push_back(label.str());
  return group;
}

int SimWorld::split_group(int parent, uint64_t split_index, const std::vector<int>& members) {
  auto key = std::make_pair(parent, split_index);
  auto it = splits_.find(key);
  if (it == splits_.end()) {
    it = splits_.emplace(key, add_group(members)).first;
  } else if (groups_[static_cast<size_t>(it->second)] != members) {
    throw std::invalid_argument("split #" + std::to_string(split_index) + " of " +
                                group_label(parent) + " was called with different ranks by " +
                                "different members; every member must pass the same list");
  }
  return it->second;
}

// ---------------------------------------------------------------- point to point

std::shared_ptr<SimWork> SimWorld::post_send(int group, int src, int dst, int tag,
                                             const at::Tensor& t) {
  uint64_t bytes = tensor_bytes(t);
  auto work = std::make_shared<SimWork>(kernel_, src, "send", bytes, dst,
                                        BlockReason{"send", "rank " + std::to_string(dst), tag});
  uint64_t id = next_message_id_++;
  // The sender may reuse its tensor once the send completes: keep what was sent.
  messages_[id] = Message{MatchKey{group, src, dst, tag}, t.detach().contiguous().clone()};
  transports_[static_cast<size_t>(src)]->Send(static_cast<uint32_t>(dst), kPointToPointChannel,
                                              id, bytes,
                                              ns3::MakeBoundCallback(&SimWorld::send_done, work));
  return work;
}

void SimWorld::send_done(std::shared_ptr<SimWork> work) { work->complete(); }

std::shared_ptr<SimWork> SimWorld::post_recv(int group, int dst, int src, int tag,
                                             at::Tensor& t) {
  auto work = std::make_shared<SimWork>(kernel_, dst, "recv", tensor_bytes(t), src,
                                        BlockReason{"recv", "rank " + std::to_string(src), tag});
  MatchKey key{group, src, dst, tag};
  posted_[key].emplace_back(work, t);
  match(key);
  return work;
}

void SimWorld::on_p2p_delivered(int dst, uint32_t src, uint64_t cookie, uint64_t bytes) {
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

void SimWorld::match(const MatchKey& key) {
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
    } else {
      target.copy_(data.view(target.sizes()));
    }
    messages_.erase(message);
    work->complete(error);
  }
  if (posted != posted_.end() && posted->second.empty()) posted_.erase(posted);
  if (arrived != arrived_.end() && arrived->second.empty()) arrived_.erase(arrived);
}

// ---------------------------------------------------------------- collectives

std::shared_ptr<SimWork> SimWorld::enter_collective(int group, uint64_t seq, int index,
                                                    const CollectiveArgs& args) {
  const auto& members = groups_.at(static_cast<size_t>(group));
  int n = static_cast<int>(members.size());
  int rank = members[static_cast<size_t>(index)];
  uint64_t bytes = 0;
  switch (args.kind) {
    case CollectiveKind::kAllReduce:
      bytes = tensor_bytes(args.input);
      break;
    case CollectiveKind::kAllGather:
      bytes = tensor_bytes(args.input) * static_cast<uint64_t>(n);
      break;
    case CollectiveKind::kBroadcast:
      bytes = tensor_bytes(args.output);
      break;
    case CollectiveKind::kBarrier:
      break;
  }
  auto work = std::make_shared<SimWork>(
      kernel_, rank, kind_name(args.kind), bytes, -1,
      BlockReason{kind_name(args.kind), group_label(group) + " call #" + std::to_string(seq), -1});

  auto key = std::make_pair(group, seq);
  auto it = collectives_.find(key);
  if (it == collectives_.end()) {
    auto call = std::make_unique<CollectiveCall>();
    call->world = this;
    call->group = group;
    call->seq = seq;
    call->kind = args.kind;
    call->reduce = args.reduce;
    call->root = args.root;
    call->bytes = bytes;
    call->inputs.resize(static_cast<size_t>(n));
    call->outputs.resize(static_cast<size_t>(n));
    call->works.resize(static_cast<size_t>(n));
    call->entered.assign(static_cast<size_t>(n), false);
    std::vector<ns3::Ptr<ns3::MessageTransport>> participants;
    for (int member : members) participants.push_back(transports_[static_cast<size_t>(member)]);
    call->net = ns3::CreateCollective(kind_name(args.kind));
    if (args.kind == CollectiveKind::kBroadcast) {
      call->net->SetAttribute("Root", ns3::UintegerValue(static_cast<uint32_t>(args.root)));
    }
    call->net->SetCompletionCallback(
        ns3::MakeBoundCallback(&SimWorld::collective_done, call.get()));
    call->net->Setup(participants, bytes);
    channel_labels_[call->net->GetChannel()] = kind_name(args.kind);
    it = collectives_.emplace(key, std::move(call)).first;
  }
  CollectiveCall& call = *it->second;
  if (call.kind != args.kind || call.bytes != bytes || call.root != args.root ||
      call.reduce != args.reduce) {
    std::ostringstream out;
    out << "rank " << rank << " called " << kind_name(args.kind) << " (" << bytes << " bytes";
    if (args.kind == CollectiveKind::kBroadcast) out << ", root " << args.root;
    out << ") as call #" << seq << " of " << group_label(group) << ", which another member began as "
        << kind_name(call.kind) << " (" << call.bytes << " bytes";
    if (call.kind == CollectiveKind::kBroadcast) out << ", root " << call.root;
    out << "); every member must make the same collective calls in the same order";
    throw std::invalid_argument(out.str());
  }
  size_t i = static_cast<size_t>(index);
  if (args.input.defined()) call.inputs[i] = args.input.detach().contiguous().clone();
  call.outputs[i] = args.output;
  call.works[i] = work;
  call.entered[i] = true;
  call.net->Enter(static_cast<uint32_t>(index));
  return work;
}

void SimWorld::collective_done(CollectiveCall* call, uint32_t index) {
  call->world->finish_collective(*call, index);
}

void SimWorld::finish_collective(CollectiveCall& call, uint32_t index) {
  size_t i = index;
  size_t n = call.inputs.size();
  auto all_entered = [&] {
    for (bool e : call.entered)
      if (!e) return false;
    return true;
  };
  if (!call.result.defined()) {
    switch (call.kind) {
      case CollectiveKind::kAllReduce:
        if (!all_entered()) break;
        // Reduce in rank order, the same order for every member.
        call.result = call.inputs[0].clone();
        for (size_t k = 1; k < n; ++k) {
          if (call.reduce == ReduceOp::kSum) {
            call.result.add_(call.inputs[k]);
          } else if (call.reduce == ReduceOp::kMax) {
            call.result = at::maximum(call.result, call.inputs[k]);
          } else {
            call.result = at::minimum(call.result, call.inputs[k]);
          }
        }
        break;
      case CollectiveKind::kAllGather:
        if (!all_entered()) break;
        call.result = at::cat(call.inputs, 0);
        break;
      case CollectiveKind::kBroadcast:
        call.result = call.inputs[static_cast<size_t>(call.root)];
        break;
      case CollectiveKind::kBarrier:
        break;
    }
  }
  std::string error;
  if (call.kind != CollectiveKind::kBarrier) {
    if (!call.result.defined()) {
      error = std::string(kind_name(call.kind)) + " call #" + std::to_string(call.seq) + " of " +
              group_label(call.group) + " completed on the network before every contribution " +
              "was known";
    } else if (call.result.numel() != call.outputs[i].numel()) {
      error = std::string(kind_name(call.kind)) + ": output of " +
              std::to_string(call.outputs[i].numel()) + " elements for a result of " +
              std::to_string(call.result.numel());
    } else if (!(call.kind == CollectiveKind::kBroadcast &&
                 static_cast<int>(index) == call.root)) {
      call.outputs[i].copy_(call.result.view(call.outputs[i].sizes()));
    }
  }
  auto work = call.works[i];
  call.outputs[i] = at::Tensor();
  if (++call.completed == static_cast<int>(n)) {
    // Every message of the call has been delivered: its channel will not be seen again.
    channel_labels_.erase(call.net->GetChannel());
    collectives_.erase(std::make_pair(call.group, call.seq));  // destroys `call`
  }
  work->complete(error);
}

// ---------------------------------------------------------------- traces

void SimWorld::on_queued(SimWorld* world, int, uint32_t, uint64_t, uint64_t, uint64_t) {
  ++world->queued_;
}

void SimWorld::on_sent(SimWorld* world, int rank, uint32_t dst, uint64_t channel, uint64_t,
                       uint64_t bytes) {
  auto label = world->channel_labels_.find(channel);
  NetMessage m;
  m.src = rank;
  m.dst = static_cast<int>(dst);
  m.bytes = bytes;
  m.send_ns = ns3::Simulator::Now().GetNanoSeconds();
  m.label = label == world->channel_labels_.end() ? "message" : label->second;
  world->on_the_wire_[{rank, m.dst}].push_back(m);
  world->kernel_.lps()[static_cast<size_t>(rank)]->stats.bytes_sent += bytes;
}

void SimWorld::on_delivered(SimWorld* world, int rank, uint32_t src, uint64_t, uint64_t,
                            uint64_t) {
  ++world->delivered_;
  auto& wire = world->on_the_wire_[{static_cast<int>(src), rank}];
  if (!wire.empty()) {
    NetMessage m = wire.front();
    wire.pop_front();
    m.recv_ns = ns3::Simulator::Now().GetNanoSeconds();
    world->kernel_.record().messages.push_back(m);
  }
  world->kernel_.request_quiescence_check();
}

}  // namespace uniference
