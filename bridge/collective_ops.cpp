#include "bridge/collective_ops.h"

#include <stdexcept>

namespace uniference {

uint64_t tensor_bytes(const at::Tensor& t) {
  return t.defined() ? static_cast<uint64_t>(t.numel()) * static_cast<uint64_t>(t.element_size())
                     : 0;
}

namespace {

uint64_t output_bytes(const CollectiveArgs& a, int) { return tensor_bytes(a.output); }
uint64_t input_bytes(const CollectiveArgs& a, int) { return tensor_bytes(a.input); }
uint64_t input_bytes_times_n(const CollectiveArgs& a, int n) {
  return tensor_bytes(a.input) * static_cast<uint64_t>(n);
}
uint64_t output_bytes_times_n(const CollectiveArgs& a, int n) {
  return tensor_bytes(a.output) * static_cast<uint64_t>(n);
}
uint64_t no_bytes(const CollectiveArgs&, int) { return 0; }

const std::vector<CollectiveOp>& table() {
  static const std::vector<CollectiveOp> ops = {
      {OpType::kBroadcast, "ring", true, output_bytes},
      {OpType::kAllReduce, "ring", false, output_bytes},
      {OpType::kAllGather, "ring", false, input_bytes_times_n},
      {OpType::kBarrier, "dissemination", false, no_bytes},
      {OpType::kReduceScatter, "ring", false, input_bytes},
      {OpType::kAllToAll, "direct", false, input_bytes},
      {OpType::kReduce, "ring", true, output_bytes},
      {OpType::kGather, "direct", true, input_bytes_times_n},
      {OpType::kScatter, "direct", true, output_bytes_times_n},
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
