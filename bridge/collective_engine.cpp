#include "bridge/collective_engine.h"

#include "bridge/tensor_collective_data.h"

#include <ns3/callback.h>
#include <ns3/collective-helper.h>
#include <ns3/node.h>
#include <ns3/scheduled-collective.h>
#include <ns3/string.h>
#include <ns3/uinteger.h>

#include <algorithm>
#include <functional>
#include <sstream>
#include <stdexcept>

namespace uniference {

// One collective call of one group, as the bridge tracks it beside its ns3::Collective.
struct CollectiveEngine::Call {
  CollectiveEngine* engine = nullptr;
  int group = 0;
  uint64_t seq = 0;
  CollectiveArgs first;  // the first member's arguments, which the others must match
  uint64_t bytes = 0;    // the nccl-tests S of this call
  ns3::Ptr<ns3::Collective> net;
  bool data_free = false;                // the call is on meta tensors
  ns3::Ptr<TensorCollectiveData> data;  // null for a data-free call and a barrier
  std::vector<std::shared_ptr<SimWork>> works;
  int completed = 0;
  int members_here = 0;  // members whose LPs run in this process (all, but across processes)
};

CollectiveEngine::CollectiveEngine(Kernel& kernel,
                                   const std::vector<ns3::Ptr<ns3::MessageTransport>>& transports,
                                   const GroupTable& groups, CollectiveSelection selection,
                                   std::map<uint64_t, ChannelLabel>& channel_labels)
    : kernel_(kernel),
      transports_(transports),
      groups_(groups),
      selection_(std::move(selection)),
      channel_labels_(channel_labels) {}

CollectiveEngine::~CollectiveEngine() {
  // Calls a failed or deadlocked run left unfinished listen on the transports, which keeps
  // them alive; let them go.
  for (auto& [key, call] : calls_) call->net->Dispose();
}

namespace {
// The tensor whose type the call's elements have.
const at::Tensor& typed(const CollectiveArgs& args) {
  return args.output.defined() ? args.output : args.input;
}
// A call on meta tensors moves its bytes through the network and no data.
bool data_free(const CollectiveArgs& args) {
  return typed(args).defined() && typed(args).is_meta();
}
// The channel of call `seq` of `group`: fixed by the call, not by when this process first saw
// it, so that every process of a distributed simulation gives a call the same channel.
// Point-to-point keeps channel 1; the ns-3 module draws its own from 2^63.
uint64_t call_channel(int group, uint64_t seq) {
  constexpr uint64_t kFirst = uint64_t(1) << 62;
  if (group >= (1 << 30) || seq >= (uint64_t(1) << 32)) {
    throw std::length_error("collective call #" + std::to_string(seq) + " of group " +
                            std::to_string(group) + ": past the channels the bridge numbers");
  }
  return kFirst | (uint64_t(group) << 32) | seq;
}
}  // namespace

CollectiveEngine::Call& CollectiveEngine::start(int group, uint64_t seq,
                                                const CollectiveArgs& args, uint64_t bytes) {
  const auto& members = groups_.members(group);
  const size_t n = members.size();
  const CollectiveOp& op = collective_op(args.op);
  auto call = std::make_unique<Call>();
  call->engine = this;
  call->group = group;
  call->seq = seq;
  call->first = args;
  call->first.input = at::Tensor();
  call->first.output = at::Tensor();
  call->bytes = bytes;
  call->data_free = data_free(args);
  call->works.resize(n);
  for (int member : members) call->members_here += kernel_.runs_here(member) ? 1 : 0;

  const CollectiveChoice choice = selection_.choose(args.op, bytes, static_cast<int>(n));
  const std::string& algorithm = choice.algorithm;
  ns3::CollectiveHelper helper(op_name(args.op), algorithm);
  for (const auto& [name, value] : choice.attributes) {
    helper.SetAttribute(name, ns3::StringValue(value));
  }
  ns3::Ptr<ns3::Collective> net = helper.Create();
  auto scheduled = ns3::DynamicCast<ns3::ScheduledCollective>(net);
  if (scheduled) {
    if (typed(args).defined()) {
      scheduled->SetAttribute("ElementBytes",
                              ns3::UintegerValue(static_cast<uint32_t>(typed(args).element_size())));
    }
    if (op.rooted) scheduled->SetAttribute("Root", ns3::UintegerValue(static_cast<uint32_t>(args.root)));
    if (!data_free(args) && args.op != OpType::kBarrier) {
      std::function<uint32_t(uint32_t)> process_of;
      if (call->members_here < static_cast<int>(n)) {
        process_of = [this, members](uint32_t member) {
          return transports_[static_cast<size_t>(members[member])]->GetNode()->GetSystemId();
        };
      }
      call->data = ns3::Create<TensorCollectiveData>(static_cast<int>(n), args.reduce, process_of);
      scheduled->SetData(call->data);
    }
  } else if (!data_free(args) && args.op != OpType::kBarrier) {
    throw std::invalid_argument(std::string(op_name(args.op)) + " algorithm \"" + algorithm +
                                "\" simulates timing only (it is not an ns3::ScheduledCollective), "
                                "so it cannot carry this call's tensors; use it with meta tensors");
  }
  net->SetChannel(call_channel(group, seq));
  call->net = net;
  std::vector<ns3::Ptr<ns3::MessageTransport>> participants;
  for (int member : members) participants.push_back(transports_[static_cast<size_t>(member)]);
  call->net->SetCompletionCallback(ns3::MakeBoundCallback(&CollectiveEngine::member_done, call.get()));
  call->net->Setup(participants, bytes);
  // Across processes, members elsewhere may have sent before this process set the call up.
  if (call->members_here < static_cast<int>(n)) {
    for (const auto& transport : participants) transport->ReleaseKept(call->net->GetChannel());
  }
  channel_labels_[call->net->GetChannel()].operation = op_name(args.op);
  return *calls_.emplace(std::make_pair(group, seq), std::move(call)).first->second;
}

std::shared_ptr<SimWork> CollectiveEngine::enter(int group, uint64_t seq, int index,
                                                 const CollectiveArgs& args) {
  const auto& members = groups_.members(group);
  const int n = static_cast<int>(members.size());
  const int rank = members[static_cast<size_t>(index)];
  const CollectiveOp& op = collective_op(args.op);
  const uint64_t bytes = args.bytes;
  const char* name = op_name(args.op);
  auto work = std::make_shared<SimWork>(
      kernel_, rank, name, bytes, -1,
      BlockReason{name, groups_.label(group) + " call #" + std::to_string(seq), -1});

  auto it = calls_.find(std::make_pair(group, seq));
  Call& call = it == calls_.end() ? start(group, seq, args, bytes) : *it->second;
  // An all-to-all-v's members send buffers of their own sizes; every other call has one size.
  const bool sized = args.send_counts.empty() && call.first.send_counts.empty();
  if (call.first.op != args.op || (sized && call.bytes != bytes) ||
      (op.rooted && call.first.root != args.root) || call.first.reduce != args.reduce ||
      call.data_free != data_free(args)) {
    std::ostringstream out;
    out << "rank " << rank << " called " << name << " (" << bytes << " bytes";
    if (op.rooted) out << ", root " << args.root;
    out << (data_free(args) ? ", meta" : "") << ") as call #" << seq << " of "
        << groups_.label(group) << ", which another member began as " << op_name(call.first.op)
        << " (" << call.bytes << " bytes";
    if (collective_op(call.first.op).rooted) out << ", root " << call.first.root;
    out << (call.data_free ? ", meta" : "")
        << "); every member must make the same collective calls in the same order";
    throw std::invalid_argument(out.str());
  }
  const size_t i = static_cast<size_t>(index);
  if (call.data) call.data->attach(index, args.input, args.output);
  if (!args.send_counts.empty()) {
    auto scheduled = ns3::DynamicCast<ns3::ScheduledCollective>(call.net);
    if (!scheduled) {
      throw std::invalid_argument(std::string(name) + ": the algorithm of call #" +
                                  std::to_string(seq) + " of " + groups_.label(group) +
                                  " takes no split sizes");
    }
    const auto uneven = [](const std::vector<uint64_t>& counts) {
      return std::adjacent_find(counts.begin(), counts.end(), std::not_equal_to<>()) != counts.end();
    };
    if (!scheduled->TakesUnevenSplits() && (uneven(args.send_counts) || uneven(args.recv_counts))) {
      throw std::invalid_argument(std::string(name) + ": the algorithm of call #" +
                                  std::to_string(seq) + " of " + groups_.label(group) +
                                  " (" + scheduled->GetInstanceTypeId().GetName() +
                                  ") takes equal blocks only; these differ");
    }
    scheduled->SetSplits(static_cast<uint32_t>(index), args.send_counts, args.recv_counts);
  }
  call.works[i] = work;
  channel_labels_[call.net->GetChannel()].compute[rank] = work->label();
  call.net->Enter(static_cast<uint32_t>(index));
  return work;
}

void CollectiveEngine::member_done(Call* call, uint32_t index) {
  call->engine->finish(*call, index);
}

void CollectiveEngine::finish(Call& call, uint32_t index) {
  if (call.data) call.data->detach(static_cast<int>(index));
  auto work = call.works[index];
  if (++call.completed == call.members_here) {
    // Every message of the call has been delivered: its channel will not be seen again.
    channel_labels_.erase(call.net->GetChannel());
    calls_.erase(std::make_pair(call.group, call.seq));  // destroys `call`
  }
  work->complete("");
}

}  // namespace uniference
