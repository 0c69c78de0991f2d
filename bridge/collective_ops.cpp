#include "bridge/collective_ops.h"

#include <ns3/collective-helper.h>
#include <ns3/uinteger.h>

#include <stdexcept>

namespace uniference {

uint64_t tensor_bytes(const at::Tensor& t) {
  return static_cast<uint64_t>(t.numel()) * static_cast<uint64_t>(t.element_size());
}

namespace {

at::Tensor reduce_in_order(const std::vector<at::Tensor>& inputs, const CollectiveArgs& args) {
  at::Tensor result = inputs[0].clone();
  for (size_t k = 1; k < inputs.size(); ++k) {
    switch (args.reduce) {
      case ReduceOp::kSum:
        result.add_(inputs[k]);
        break;
      case ReduceOp::kMax:
        result = at::maximum(result, inputs[k]);
        break;
      case ReduceOp::kMin:
        result = at::minimum(result, inputs[k]);
        break;
    }
  }
  return result;
}

const std::vector<CollectiveOp>& table() {
  using Needs = CollectiveOp::Needs;
  static const std::vector<CollectiveOp> ops = {
      {OpType::kBroadcast, "ring", Needs::kRoot,
       [](const CollectiveArgs& a, int) { return tensor_bytes(a.output); },
       [](const std::vector<at::Tensor>& in, const CollectiveArgs& a) {
         return in[static_cast<size_t>(a.root)];
       },
       [](ns3::CollectiveHelper& helper, const CollectiveArgs& a) {
         helper.SetAttribute("Root", ns3::UintegerValue(static_cast<uint32_t>(a.root)));
       }},
      {OpType::kAllReduce, "ring", Needs::kEveryone,
       [](const CollectiveArgs& a, int) { return tensor_bytes(a.input); }, reduce_in_order,
       nullptr},
      {OpType::kAllGather, "ring", Needs::kEveryone,
       [](const CollectiveArgs& a, int n) { return tensor_bytes(a.input) * uint64_t(n); },
       [](const std::vector<at::Tensor>& in, const CollectiveArgs&) { return at::cat(in, 0); },
       nullptr},
      {OpType::kBarrier, "dissemination", Needs::kNothing,
       [](const CollectiveArgs&, int) { return uint64_t(0); },
       [](const std::vector<at::Tensor>&, const CollectiveArgs&) { return at::Tensor(); },
       nullptr},
  };
  return ops;
}

}  // namespace

const std::vector<CollectiveOp>& collective_ops() { return table(); }

const CollectiveOp& collective_op(OpType op) {
  for (const CollectiveOp& entry : table()) {
    if (entry.op == op) return entry;
  }
  throw std::invalid_argument(std::string(op_name(op)) + " is not a collective operation");
}

const CollectiveOp* find_collective_op(const std::string& name) {
  for (const CollectiveOp& entry : table()) {
    if (name == op_name(entry.op)) return &entry;
  }
  return nullptr;
}

}  // namespace uniference
