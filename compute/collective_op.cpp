#include "compute/collective_op.h"

#include <numeric>
#include <stdexcept>

namespace uniference {

uint64_t tensor_bytes(const at::Tensor& t) {
  return t.defined() ? static_cast<uint64_t>(t.numel()) * static_cast<uint64_t>(t.element_size())
                     : 0;
}

double bus_bandwidth_factor(BusBandwidth rule, int group_size) {
  const double n = group_size;
  switch (rule) {
    case BusBandwidth::kNone:
      return 0.0;
    case BusBandwidth::kWhole:
      return 1.0;
    case BusBandwidth::kShare:
      return (n - 1) / n;
    case BusBandwidth::kTwiceShare:
      return 2.0 * (n - 1) / n;
  }
  return 0.0;
}

namespace {

// ---- the checks every backend shares; their texts name the operation and the rank.

std::string where(const CommCall& call, int rank) {
  const bool uneven = call.op == OpType::kAllToAll && !call.input_splits.empty();
  return std::string(uneven ? "all_to_all_v" : op_name(call.op)) + " on rank " +
         std::to_string(rank) + ": ";
}

std::string shape_text(at::IntArrayRef sizes) { return c10::str(sizes); }

void check_in_group(const CommCall& call, int rank, int n, const char* role, int who) {
  if (who < 0 || who >= n) {
    throw std::out_of_range(where(call, rank) + role + " " + std::to_string(who) +
                            " is outside a group of size " + std::to_string(n));
  }
}

void check_numel(const CommCall& call, int rank, const char* what, const at::Tensor& tensor,
                 int64_t expected) {
  const int64_t has = tensor.defined() ? tensor.numel() : 0;
  if (has != expected) {
    throw std::invalid_argument(where(call, rank) + what + " has " + std::to_string(has) +
                                " elements, expected " + std::to_string(expected));
  }
}

// c10d's *_into_tensor contract, which the real backends enforce: size() blocks of the
// block's shape, concatenated along dim 0.
void check_stacked(const CommCall& call, int rank, int n, const char* what,
                   const at::Tensor& whole, const at::Tensor& block) {
  std::vector<int64_t> expected = block.sizes().vec();
  if (expected.empty()) expected.push_back(1);
  expected[0] *= n;
  const std::vector<int64_t> has = whole.defined() ? whole.sizes().vec() : std::vector<int64_t>{};
  if (has == expected) return;
  const std::string blocks = std::to_string(n) + " blocks of " + shape_text(block.sizes()) +
                             " along dim 0";
  const int64_t has_numel = whole.defined() ? whole.numel() : 0;
  const int64_t expected_numel = block.numel() * n;
  if (has_numel != expected_numel) {
    throw std::invalid_argument(where(call, rank) + what + " has " + std::to_string(has_numel) +
                                " elements, expected " + std::to_string(expected_numel) +
                                " (shape " + shape_text(has) + ", expected " +
                                shape_text(expected) + ": " + blocks + ")");
  }
  throw std::invalid_argument(where(call, rank) + what + " has shape " + shape_text(has) +
                              ", expected " + shape_text(expected) + " (" + blocks + ")");
}

// Elements of one row (dim 0) of `tensor`: a scalar is one row of one element.
int64_t row_elements(const at::Tensor& tensor) {
  if (!tensor.defined()) return 0;
  int64_t row = 1;
  for (int64_t d = 1; d < tensor.dim(); ++d) row *= tensor.size(d);
  return row;
}

// One entry per rank, none negative; returns their sum.
int64_t check_splits(const CommCall& call, int rank, int n, const char* what,
                     const std::vector<int64_t>& rows) {
  if (rows.size() != static_cast<size_t>(n)) {
    throw std::invalid_argument(where(call, rank) + what + (*what ? " " : "") + "splits has " +
                                std::to_string(rows.size()) + " entries for a group of " +
                                std::to_string(n));
  }
  int64_t total = 0;
  for (int64_t r : rows) {
    if (r < 0) throw std::invalid_argument(where(call, rank) + "negative split " + std::to_string(r));
    total += r;
  }
  return total;
}

// `tensor` holds exactly `rows` rows; `counted` says where that number comes from.
void check_rows(const CommCall& call, int rank, const char* what, const at::Tensor& tensor,
                int64_t rows, const std::string& counted) {
  const int64_t row = row_elements(tensor);
  const int64_t has = tensor.defined() ? tensor.numel() : 0;
  if (has != rows * row) {
    throw std::invalid_argument(where(call, rank) + counted + " " + std::to_string(rows) +
                                " rows, but the " + what + " " +
                                shape_text(tensor.defined() ? tensor.sizes().vec()
                                                            : std::vector<int64_t>{}) +
                                " has " + std::to_string(has) + " elements, expected " +
                                std::to_string(rows * row));
  }
}

void check_nothing(const CommCall&, int, int) {}

void check_peer(const CommCall& call, int rank, int n) {
  check_in_group(call, rank, n, "peer", call.peer);
}

void check_root(const CommCall& call, int rank, int n) {
  check_in_group(call, rank, n, "root", call.root);
}

void check_all_gather(const CommCall& call, int rank, int n) {
  check_stacked(call, rank, n, "output", call.output, call.input);
}

void check_reduce_scatter(const CommCall& call, int rank, int n) {
  check_stacked(call, rank, n, "input", call.input, call.output);
}

void check_all_to_all(const CommCall& call, int rank, int n) {
  if (!call.input_splits.empty() || !call.output_splits.empty()) {
    check_rows(call, rank, "input", call.input,
               check_splits(call, rank, n, "input", call.input_splits), "input splits add up to");
    check_rows(call, rank, "output", call.output,
               check_splits(call, rank, n, "output", call.output_splits), "output splits add up to");
    return;
  }
  check_numel(call, rank, "output", call.output, call.input.numel());
  if (call.input.numel() % n != 0) {
    throw std::invalid_argument(where(call, rank) + std::to_string(call.input.numel()) +
                                " elements do not split into " + std::to_string(n) +
                                " equal blocks");
  }
}

void check_gather(const CommCall& call, int rank, int n) {
  check_root(call, rank, n);
  if (rank == call.root) check_numel(call, rank, "output", call.output, call.input.numel() * n);
}

void check_scatter(const CommCall& call, int rank, int n) {
  check_root(call, rank, n);
  if (rank == call.root) check_numel(call, rank, "input", call.input, call.output.numel() * n);
}

void check_gather_v(const CommCall& call, int rank, int n) {
  check_root(call, rank, n);
  if (!call.input.defined()) throw std::invalid_argument(where(call, rank) + "input is undefined");
  const int64_t total = check_splits(call, rank, n, "", call.input_splits);
  check_rows(call, rank, "input", call.input, call.input_splits[static_cast<size_t>(rank)],
             "splits[" + std::to_string(rank) + "] is");
  if (rank == call.root) {
    check_numel(call, rank, "output", call.output, total * row_elements(call.input));
  }
}

// ---- sizes (nccl-tests' S) and who sends.

uint64_t output_bytes(const CommCall& c, int) { return tensor_bytes(c.output); }
uint64_t input_bytes(const CommCall& c, int) { return tensor_bytes(c.input); }
uint64_t input_bytes_times_n(const CommCall& c, int n) {
  return tensor_bytes(c.input) * static_cast<uint64_t>(n);
}
uint64_t output_bytes_times_n(const CommCall& c, int n) {
  return tensor_bytes(c.output) * static_cast<uint64_t>(n);
}
uint64_t no_bytes(const CommCall&, int) { return 0; }
uint64_t gathered_rows_bytes(const CommCall& c, int) {
  const int64_t rows = std::accumulate(c.input_splits.begin(), c.input_splits.end(), int64_t{0});
  return static_cast<uint64_t>(rows * row_elements(c.input)) *
         static_cast<uint64_t>(c.input.element_size());
}

bool always(const CommCall&, int) { return true; }
bool never(const CommCall&, int) { return false; }
bool root_only(const CommCall& c, int rank) { return rank == c.root; }

// ---- colltest's buffers for S = count float elements.

CommCall in_place(OpType op, int64_t count, const at::TensorOptions& t) {
  CommCall call{op};
  call.output = at::zeros({count}, t);
  return call;
}
CommCall sweep_all_reduce(int64_t count, int, const at::TensorOptions& t) {
  return in_place(OpType::kAllReduce, count, t);
}
CommCall sweep_broadcast(int64_t count, int, const at::TensorOptions& t) {
  return in_place(OpType::kBroadcast, count, t);
}
CommCall sweep_reduce(int64_t count, int, const at::TensorOptions& t) {
  return in_place(OpType::kReduce, count, t);
}
// input one block, output n of them.
CommCall gathering(OpType op, int64_t count, int n, const at::TensorOptions& t) {
  CommCall call{op};
  call.input = at::zeros({count / n}, t);
  call.output = at::zeros({count / n * n}, t);
  return call;
}
CommCall sweep_all_gather(int64_t count, int n, const at::TensorOptions& t) {
  return gathering(OpType::kAllGather, count, n, t);
}
CommCall sweep_gather(int64_t count, int n, const at::TensorOptions& t) {
  return gathering(OpType::kGather, count, n, t);
}
// input n blocks, output one.
CommCall scattering(OpType op, int64_t count, int n, const at::TensorOptions& t) {
  CommCall call{op};
  call.input = at::zeros({count / n * n}, t);
  call.output = at::zeros({count / n}, t);
  return call;
}
CommCall sweep_reduce_scatter(int64_t count, int n, const at::TensorOptions& t) {
  return scattering(OpType::kReduceScatter, count, n, t);
}
CommCall sweep_scatter(int64_t count, int n, const at::TensorOptions& t) {
  return scattering(OpType::kScatter, count, n, t);
}
CommCall sweep_all_to_all(int64_t count, int n, const at::TensorOptions& t) {
  CommCall call{OpType::kAllToAll};
  call.input = at::zeros({count / n * n}, t);
  call.output = at::zeros({count / n * n}, t);
  return call;
}
// nccl-tests' sendrecv: `input` goes to the next rank, `output` comes from the previous.
CommCall sweep_send_recv(int64_t count, int, const at::TensorOptions& t) {
  CommCall call{OpType::kSend};
  call.input = at::zeros({count}, t);
  call.output = at::zeros({count}, t);
  return call;
}
CommCall sweep_barrier(int64_t, int, const at::TensorOptions&) { return CommCall{OpType::kBarrier}; }

using B = BusBandwidth;

const std::vector<CollectiveDescription>& table() {
  // op, name, collective, rooted, output at root only, input at root only, default algorithm,
  // bus bandwidth, S, sends, check, colltest name, colltest blocks, colltest call
  static const std::vector<CollectiveDescription> ops = {
      {OpType::kAllReduce, "all_reduce", true, false, false, false, "ring", B::kTwiceShare,
       output_bytes, always, check_nothing, "all_reduce", false, sweep_all_reduce},
      {OpType::kAllGather, "all_gather", true, false, false, false, "ring", B::kShare,
       input_bytes_times_n, always, check_all_gather, "all_gather", true, sweep_all_gather},
      {OpType::kReduceScatter, "reduce_scatter", true, false, false, false, "ring", B::kShare,
       input_bytes, always, check_reduce_scatter, "reduce_scatter", true, sweep_reduce_scatter},
      {OpType::kBroadcast, "broadcast", true, true, false, false, "ring", B::kWhole, output_bytes,
       root_only, check_root, "broadcast", false, sweep_broadcast},
      {OpType::kReduce, "reduce", true, true, false, false, "ring", B::kWhole, output_bytes,
       always, check_root, "reduce", false, sweep_reduce},
      {OpType::kAllToAll, "all_to_all", true, false, false, false, "direct", B::kShare,
       input_bytes, always, check_all_to_all, "all_to_all", true, sweep_all_to_all},
      {OpType::kGather, "gather", true, true, true, false, "direct", B::kShare,
       input_bytes_times_n, always, check_gather, "gather", true, sweep_gather},
      {OpType::kScatter, "scatter", true, true, false, true, "direct", B::kShare,
       output_bytes_times_n, root_only, check_scatter, "scatter", true, sweep_scatter},
      {OpType::kGatherV, "gather_v", true, true, true, false, "direct", B::kShare,
       gathered_rows_bytes, always, check_gather_v, nullptr, false, nullptr},
      {OpType::kSend, "send", false, false, false, false, "", B::kWhole, input_bytes, always,
       check_peer, "send_recv", false, sweep_send_recv},
      {OpType::kRecv, "recv", false, false, false, false, "", B::kWhole, output_bytes, never,
       check_peer, nullptr, false, nullptr},
      {OpType::kBarrier, "barrier", true, false, false, false, "dissemination", B::kNone,
       no_bytes, never, check_nothing, "barrier", false, sweep_barrier},
  };
  return ops;
}

}  // namespace

const std::vector<CollectiveDescription>& collective_descriptions() { return table(); }

const CollectiveDescription& describe(OpType op) {
  for (const CollectiveDescription& entry : table()) {
    if (entry.op == op) return entry;
  }
  throw std::logic_error("operation " + std::to_string(static_cast<int>(op)) + " has no description");
}

const CollectiveDescription* find_description(const std::string& name) {
  for (const CollectiveDescription& entry : table()) {
    if (name == entry.name) return &entry;
  }
  return nullptr;
}

const char* op_name(OpType op) { return describe(op).name; }

}  // namespace uniference
