#include "bridge/collective_engine.h"

#include <ns3/callback.h>
#include <ns3/collective-helper.h>
#include <ns3/string.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace uniference {

// One collective call of one group, as the bridge tracks it beside its ns3::Collective.
struct CollectiveEngine::Call {
  CollectiveEngine* engine = nullptr;
  const CollectiveOp* op = nullptr;
  int group = 0;
  uint64_t seq = 0;
  CollectiveArgs first;  // the first member's arguments, which the others must match
  uint64_t bytes = 0;    // the nccl-tests S of this call
  ns3::Ptr<ns3::Collective> net;
  std::vector<at::Tensor> inputs;
  std::vector<at::Tensor> outputs;
  std::vector<std::shared_ptr<SimWork>> works;
  std::vector<bool> entered;
  int completed = 0;
  at::Tensor result;
  bool result_known = false;
};

CollectiveEngine::CollectiveEngine(Kernel& kernel,
                                   const std::vector<ns3::Ptr<ns3::MessageTransport>>& transports,
                                   const GroupTable& groups, CollectiveChoices choices,
                                   std::map<uint64_t, std::string>& channel_labels)
    : kernel_(kernel),
      transports_(transports),
      groups_(groups),
      choices_(std::move(choices)),
      channel_labels_(channel_labels) {}

CollectiveEngine::~CollectiveEngine() {
  // Calls a failed or deadlocked run left unfinished listen on the transports, which keeps
  // them alive; let them go.
  for (auto& [key, call] : calls_) call->net->Dispose();
}

CollectiveEngine::Call& CollectiveEngine::start(int group, uint64_t seq,
                                                const CollectiveArgs& args, uint64_t bytes) {
  const auto& members = groups_.members(group);
  const size_t n = members.size();
  auto call = std::make_unique<Call>();
  call->engine = this;
  call->op = &collective_op(args.op);
  call->group = group;
  call->seq = seq;
  call->first = args;
  call->first.input = at::Tensor();
  call->first.output = at::Tensor();
  call->bytes = bytes;
  call->inputs.resize(n);
  call->outputs.resize(n);
  call->works.resize(n);
  call->entered.assign(n, false);

  auto chosen = choices_.find(args.op);
  ns3::CollectiveHelper helper(op_name(args.op), chosen == choices_.end()
                                                     ? call->op->default_algorithm
                                                     : chosen->second.algorithm);
  if (chosen != choices_.end()) {
    for (const auto& [name, value] : chosen->second.attributes) {
      helper.SetAttribute(name, ns3::StringValue(value));
    }
  }
  if (call->op->configure != nullptr) call->op->configure(helper, args);
  call->net = helper.Create();
  std::vector<ns3::Ptr<ns3::MessageTransport>> participants;
  for (int member : members) participants.push_back(transports_[static_cast<size_t>(member)]);
  call->net->SetCompletionCallback(ns3::MakeBoundCallback(&CollectiveEngine::member_done, call.get()));
  call->net->Setup(participants, bytes);
  channel_labels_[call->net->GetChannel()] = op_name(args.op);
  return *calls_.emplace(std::make_pair(group, seq), std::move(call)).first->second;
}

std::shared_ptr<SimWork> CollectiveEngine::enter(int group, uint64_t seq, int index,
                                                 const CollectiveArgs& args) {
  const auto& members = groups_.members(group);
  const int n = static_cast<int>(members.size());
  const int rank = members[static_cast<size_t>(index)];
  const CollectiveOp& op = collective_op(args.op);
  const uint64_t bytes = op.bytes(args, n);
  const char* name = op_name(args.op);
  auto work = std::make_shared<SimWork>(
      kernel_, rank, name, bytes, -1,
      BlockReason{name, groups_.label(group) + " call #" + std::to_string(seq), -1});

  auto it = calls_.find(std::make_pair(group, seq));
  Call& call = it == calls_.end() ? start(group, seq, args, bytes) : *it->second;
  if (call.first.op != args.op || call.bytes != bytes || call.first.root != args.root ||
      call.first.reduce != args.reduce) {
    std::ostringstream out;
    out << "rank " << rank << " called " << name << " (" << bytes << " bytes";
    if (args.op == OpType::kBroadcast) out << ", root " << args.root;
    out << ") as call #" << seq << " of " << groups_.label(group)
        << ", which another member began as " << op_name(call.first.op) << " (" << call.bytes
        << " bytes";
    if (call.first.op == OpType::kBroadcast) out << ", root " << call.first.root;
    out << "); every member must make the same collective calls in the same order";
    throw std::invalid_argument(out.str());
  }
  const size_t i = static_cast<size_t>(index);
  if (args.input.defined()) call.inputs[i] = args.input.detach().contiguous().clone();
  call.outputs[i] = args.output;
  call.works[i] = work;
  call.entered[i] = true;
  call.net->Enter(static_cast<uint32_t>(index));
  return work;
}

void CollectiveEngine::member_done(Call* call, uint32_t index) {
  call->engine->finish(*call, index);
}

void CollectiveEngine::finish(Call& call, uint32_t index) {
  const size_t i = index;
  const size_t n = call.inputs.size();
  const CollectiveOp& op = *call.op;
  if (!call.result_known) {
    bool ready = true;
    if (op.needs == CollectiveOp::Needs::kEveryone) {
      ready = std::all_of(call.entered.begin(), call.entered.end(), [](bool e) { return e; });
    } else if (op.needs == CollectiveOp::Needs::kRoot) {
      ready = call.entered[static_cast<size_t>(call.first.root)];
    }
    if (ready) {
      call.result = op.result(call.inputs, call.first);
      call.result_known = true;
    }
  }
  std::string error;
  const char* name = op_name(op.op);
  if (op.needs != CollectiveOp::Needs::kNothing) {
    if (!call.result_known) {
      error = std::string(name) + " call #" + std::to_string(call.seq) + " of " +
              groups_.label(call.group) +
              " completed on the network before every contribution was known";
    } else if (call.result.numel() != call.outputs[i].numel()) {
      error = std::string(name) + ": output of " + std::to_string(call.outputs[i].numel()) +
              " elements for a result of " + std::to_string(call.result.numel());
    } else if (!(op.op == OpType::kBroadcast && static_cast<int>(index) == call.first.root)) {
      call.outputs[i].copy_(call.result.view(call.outputs[i].sizes()));
    }
  }
  auto work = call.works[i];
  call.outputs[i] = at::Tensor();
  if (++call.completed == static_cast<int>(n)) {
    // Every message of the call has been delivered: its channel will not be seen again.
    channel_labels_.erase(call.net->GetChannel());
    calls_.erase(std::make_pair(call.group, call.seq));  // destroys `call`
  }
  work->complete(error);
}

}  // namespace uniference
