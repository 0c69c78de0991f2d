// Each operation of Comm described once: its name, whether it has a root, the bytes it moves
// (nccl-tests' S), its bus bandwidth factor, the checks every backend shares, and the buffers
// colltest sweeps it with. Backends, the deployment's timing wrapper, colltest and the
// simulator's presets read these facts here instead of switching on operation names.
//
// A new operation is an entry in collective_op.cpp, its Comm method (comm.h), each backend's
// own implementation of it, and its ns-3 algorithm.
#pragma once

#include <ATen/ATen.h>

#include <cstdint>
#include <string>
#include <vector>

namespace uniference {

enum class ReduceOp { kSum, kMax, kMin };

// The operations of Comm, named as c10d's OpType names them. Reports, traces and the
// simulated backend refer to calls by it. all_to_all_v is kAllToAll with split sizes.
enum class OpType {
  kSend,
  kRecv,
  kBroadcast,
  kAllReduce,
  kAllGather,
  kBarrier,
  kReduceScatter,
  kAllToAll,
  kReduce,
  kGather,
  kScatter,
  kGatherV
};

// One call of Comm as every backend receives it: what c10d spreads over its Options structs.
struct CommCall {
  OpType op = OpType::kBarrier;
  at::Tensor input;   // read (send's tensor); undefined for in-place operations
  at::Tensor output;  // written (recv's tensor, and the one tensor of an in-place operation)
  int root = 0;       // rooted operations: a rank of the communicator
  int peer = -1;      // send and recv: a rank of the communicator
  int tag = 0;        // send and recv
  ReduceOp reduce = ReduceOp::kSum;
  // Rows (dim 0) per rank. all_to_all_v: input_splits[j] rows go to rank j, output_splits[j]
  // come from it. gather_v: both hold every rank's rows, the same list on every rank.
  std::vector<int64_t> input_splits;
  std::vector<int64_t> output_splits;
};

// nccl-tests' busbw = algbw x factor (docs: DESIGN.md section 8).
enum class BusBandwidth {
  kNone,        // 0: a barrier moves no data
  kWhole,       // 1: broadcast, reduce, send/recv
  kShare,       // (n - 1) / n: each rank moves all but its own block of S
  kTwiceShare,  // 2 (n - 1) / n: all-reduce
};
double bus_bandwidth_factor(BusBandwidth rule, int group_size);

struct CollectiveDescription {
  OpType op;
  const char* name;  // torch.distributed's function name, which scenarios use too
  bool collective;   // false for send and recv
  bool rooted;       // the call names a root
  // Tensors that only the root's call carries (c10d ignores them elsewhere): a gather's
  // output, a scatter's input.
  bool output_at_root_only;
  bool input_at_root_only;
  // The simulated algorithm that runs unless the scenario names another (an ns-3
  // CollectiveHelper name); empty for send and recv.
  const char* default_algorithm;
  BusBandwidth bus_bandwidth;
  // nccl-tests' S: the per-rank buffer of an all-reduce, broadcast or reduce; the whole
  // output of an all-gather, gather or gather-v; the whole input of a reduce-scatter,
  // all-to-all or scatter; the message of a send or recv; 0 for a barrier.
  uint64_t (*bytes)(const CommCall& call, int group_size);
  // Whether `rank`'s call puts data on the wire (a broadcast's and a scatter's root only).
  bool (*sends)(const CommCall& call, int rank);
  // The checks of the call's tensors, splits and root that every backend shares; throws
  // std::invalid_argument ("all_gather on rank 1: ...").
  void (*check)(const CommCall& call, int rank, int group_size);
  // colltest: the name it sweeps the operation under (nccl-tests'), or nullptr where it does
  // not; whether S is size() equal blocks; and the call one iteration makes for S of `count`
  // float elements (root 0).
  const char* colltest_name;
  bool colltest_blocks;
  CommCall (*colltest_call)(int64_t count, int group_size, const at::TensorOptions& tensors);
};

// Every operation, in nccl-tests' order (all_reduce first).
const std::vector<CollectiveDescription>& collective_descriptions();
// The description of `op`.
const CollectiveDescription& describe(OpType op);
// The description named `name` ("all_reduce"); nullptr if none.
const CollectiveDescription* find_description(const std::string& name);

// "send", "recv", "broadcast", "all_reduce", ...: torch.distributed's function names.
const char* op_name(OpType op);

// Bytes of a tensor's elements; 0 for an undefined tensor.
uint64_t tensor_bytes(const at::Tensor& t);

}  // namespace uniference
