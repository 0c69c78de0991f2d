// NcclComm: Comm over nccl.h. Without CUDA and NCCL (UNIFERENCE_HAVE_NCCL unset) only the
// functions that say why the backend is unavailable are compiled.
#include "compute/backends/nccl_comm.h"

#include <stdexcept>
#include <string>

#if UNIFERENCE_HAVE_NCCL
#include "compute/backends/nccl_launch.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>
#endif

namespace uniference {

#if !UNIFERENCE_HAVE_NCCL

namespace {
const char* const kNotBuilt = "this build found no CUDA runtime and NCCL (see docs/nccl.md)";
}  // namespace

bool nccl_compiled_in() { return false; }

std::string nccl_unavailable() { return kNotBuilt; }

int visible_gpu_count() { return 0; }

std::string nccl_version_text() { return {}; }

std::unique_ptr<Comm> make_nccl_comm(const c10::intrusive_ptr<c10d::Store>&, const RankPlacement&,
                                     std::chrono::milliseconds) {
  throw std::runtime_error(std::string("the nccl backend is unavailable: ") + kNotBuilt);
}

#else  // UNIFERENCE_HAVE_NCCL

namespace {

using namespace nccl;

// NCCL 2.28.3 added all-to-all, gather and scatter as calls of their own; before, they
// are grouped sends and receives (which is also how NCCL runs them).
// (Defined on the command line, 0 builds the fallback where the library has the calls.)
#ifndef UNIFERENCE_NCCL_HAS_ALLTOALL_GATHER_SCATTER
#define UNIFERENCE_NCCL_HAS_ALLTOALL_GATHER_SCATTER (NCCL_VERSION_CODE >= NCCL_VERSION(2, 28, 3))
#endif

const char* const kUidKey = "uniference/nccl/uid";

class NcclComm final : public Comm {
 public:
  explicit NcclComm(std::shared_ptr<NcclContext> context) : context_(std::move(context)) {}

  int rank() const override { return context_->rank(); }
  int size() const override { return context_->size(); }

  std::shared_ptr<Comm> split(const std::vector<int>& ranks) override;

 protected:
  // NCCL has no tags: a call's tag is ignored, and a pair's messages match in posting order.
  WorkPtr start(const CommCall& call) override {
    switch (call.op) {
      case OpType::kSend:
        return run_send(call.input, call.peer);
      case OpType::kRecv:
        return run_recv(call.output, call.peer);
      case OpType::kBroadcast:
        return run_broadcast(call.output, call.root);
      case OpType::kAllReduce:
        return run_all_reduce(call.output, call.reduce);
      case OpType::kAllGather:
        return run_all_gather(call.output, call.input);
      case OpType::kBarrier:
        return run_barrier();
      case OpType::kReduceScatter:
        return run_reduce_scatter(call.output, call.input, call.reduce);
      case OpType::kAllToAll:
        if (call.input_splits.empty()) return run_all_to_all(call.output, call.input);
        return run_all_to_all_v(call.output, call.input, call.output_splits, call.input_splits);
      case OpType::kReduce:
        return run_reduce(call.output, call.root, call.reduce);
      case OpType::kGather:
        return run_gather(call.output, call.input, call.root);
      case OpType::kScatter:
        return run_scatter(call.output, call.input, call.root);
      case OpType::kGatherV:
        return run_gather_v(call.output, call.input, call.input_splits, call.root);
    }
    throw std::logic_error(std::string("nccl: no implementation of ") + op_name(call.op));
  }

 private:
  WorkPtr run_send(const at::Tensor& tensor, int dst) {
    check_peer(OpType::kSend, dst);
    const ncclDataType_t type = nccl_type(tensor.scalar_type(), OpType::kSend);
    Launch launch(context_, OpType::kSend, dst);
    void* data = launch.read(tensor);
    launch.check(ncclSend(data, count(tensor), type, dst, launch.comm(), launch.stream()),
                 "ncclSend");
    return launch.submit();
  }

  WorkPtr run_recv(at::Tensor tensor, int src) {
    check_peer(OpType::kRecv, src);
    const ncclDataType_t type = nccl_type(tensor.scalar_type(), OpType::kRecv);
    Launch launch(context_, OpType::kRecv, src);
    void* data = launch.write(tensor);
    launch.check(ncclRecv(data, count(tensor), type, src, launch.comm(), launch.stream()),
                 "ncclRecv");
    return launch.submit();
  }

  WorkPtr run_broadcast(at::Tensor tensor, int root) {
    const ncclDataType_t type = nccl_type(tensor.scalar_type(), OpType::kBroadcast);
    Launch launch(context_, OpType::kBroadcast, root);
    // Root's tensor is only read; the others' is only written.
    void* data = rank() == root ? launch.read(tensor) : launch.write(tensor);
    launch.check(
        ncclBroadcast(data, data, count(tensor), type, root, launch.comm(), launch.stream()),
        "ncclBroadcast");
    return launch.submit();
  }

  WorkPtr run_all_reduce(at::Tensor tensor, ReduceOp op) {
    const ncclDataType_t type = nccl_type(tensor.scalar_type(), OpType::kAllReduce);
    Launch launch(context_, OpType::kAllReduce, -1);
    void* data = launch.update(tensor);
    launch.check(
        ncclAllReduce(data, data, count(tensor), type, nccl_op(op), launch.comm(), launch.stream()),
        "ncclAllReduce");
    return launch.submit();
  }

  WorkPtr run_all_gather(at::Tensor output, const at::Tensor& input) {
    const ncclDataType_t type = same_type(OpType::kAllGather, output, input);
    Launch launch(context_, OpType::kAllGather, -1);
    void* in = launch.read(input);
    void* out = launch.write(output);
    launch.check(ncclAllGather(in, out, count(input), type, launch.comm(), launch.stream()),
                 "ncclAllGather");
    return launch.submit();
  }

  // An all-reduce of one element: NCCL has no barrier of its own.
  WorkPtr run_barrier() {
    Launch launch(context_, OpType::kBarrier, -1);
    void* element = launch.scratch(sizeof(float));
    launch.check(
        ncclAllReduce(element, element, 1, ncclFloat32, ncclSum, launch.comm(), launch.stream()),
        "ncclAllReduce");
    return launch.submit();
  }

  WorkPtr run_reduce_scatter(at::Tensor output, const at::Tensor& input, ReduceOp op) {
    const ncclDataType_t type = same_type(OpType::kReduceScatter, output, input);
    Launch launch(context_, OpType::kReduceScatter, -1);
    void* in = launch.read(input);
    void* out = launch.write(output);
    launch.check(ncclReduceScatter(in, out, count(output), type, nccl_op(op), launch.comm(),
                                   launch.stream()),
                 "ncclReduceScatter");
    return launch.submit();
  }

  WorkPtr run_all_to_all(at::Tensor output, const at::Tensor& input) {
    const ncclDataType_t type = same_type(OpType::kAllToAll, output, input);
    const size_t block = static_cast<size_t>(input.numel() / size());
    Launch launch(context_, OpType::kAllToAll, -1);
    void* in = launch.read(input);
    void* out = launch.write(output);
#if UNIFERENCE_NCCL_HAS_ALLTOALL_GATHER_SCATTER
    launch.check(ncclAlltoAll(in, out, block, type, launch.comm(), launch.stream()),
                 "ncclAlltoAll");
#else
    std::vector<Transfer> sends, receives;
    for (int peer = 0; peer < size(); ++peer) {
      const size_t first = static_cast<size_t>(peer) * block;
      sends.push_back(Transfer{peer, at_element(in, first, input.element_size()), block});
      receives.push_back(Transfer{peer, at_element(out, first, output.element_size()), block});
    }
    exchange(launch, type, sends, receives);
#endif
    return launch.submit();
  }

  WorkPtr run_all_to_all_v(at::Tensor output, const at::Tensor& input,
                           const std::vector<int64_t>& output_splits,
                           const std::vector<int64_t>& input_splits) {
    const ncclDataType_t type = same_type(OpType::kAllToAll, output, input);
    const std::vector<size_t> send_counts = split_counts(input, input_splits);
    const std::vector<size_t> receive_counts = split_counts(output, output_splits);
    Launch launch(context_, OpType::kAllToAll, -1);
    void* in = launch.read(input);
    void* out = launch.write(output);
    std::vector<Transfer> sends, receives;
    size_t sent = 0, received = 0;
    for (int peer = 0; peer < size(); ++peer) {
      const size_t s = send_counts[size_t(peer)], r = receive_counts[size_t(peer)];
      // Both sides skip empty blocks alike: the sizes agree across ranks, as in c10d.
      if (s > 0) sends.push_back(Transfer{peer, at_element(in, sent, input.element_size()), s});
      if (r > 0) {
        receives.push_back(Transfer{peer, at_element(out, received, output.element_size()), r});
      }
      sent += s;
      received += r;
    }
    exchange(launch, type, sends, receives);
    return launch.submit();
  }

  WorkPtr run_reduce(at::Tensor tensor, int root, ReduceOp op) {
    const ncclDataType_t type = nccl_type(tensor.scalar_type(), OpType::kReduce);
    Launch launch(context_, OpType::kReduce, root);
    // Only root's tensor takes the result; the others' stay as they are.
    void* data = rank() == root ? launch.update(tensor) : launch.read(tensor);
    launch.check(ncclReduce(data, data, count(tensor), type, nccl_op(op), root, launch.comm(),
                            launch.stream()),
                 "ncclReduce");
    return launch.submit();
  }

  WorkPtr run_gather(at::Tensor output, const at::Tensor& input, int root) {
    const bool is_root = rank() == root;
    const ncclDataType_t type = is_root ? same_type(OpType::kGather, output, input)
                                        : nccl_type(input.scalar_type(), OpType::kGather);
    Launch launch(context_, OpType::kGather, root);
    void* in = launch.read(input);
    void* out = is_root ? launch.write(output) : nullptr;  // NCCL reads it at root only
    const size_t n = count(input);
#if UNIFERENCE_NCCL_HAS_ALLTOALL_GATHER_SCATTER
    launch.check(ncclGather(in, out, n, type, root, launch.comm(), launch.stream()), "ncclGather");
#else
    std::vector<Transfer> receives;
    if (is_root) {
      for (int peer = 0; peer < size(); ++peer) {
        receives.push_back(
            Transfer{peer, at_element(out, size_t(peer) * n, input.element_size()), n});
      }
    }
    exchange(launch, type, {Transfer{root, in, n}}, receives);
#endif
    return launch.submit();
  }

  WorkPtr run_scatter(at::Tensor output, const at::Tensor& input, int root) {
    const bool is_root = rank() == root;
    const ncclDataType_t type = is_root ? same_type(OpType::kScatter, output, input)
                                        : nccl_type(output.scalar_type(), OpType::kScatter);
    Launch launch(context_, OpType::kScatter, root);
    void* in = is_root ? launch.read(input) : nullptr;  // NCCL reads it at root only
    void* out = launch.write(output);
    const size_t n = count(output);
#if UNIFERENCE_NCCL_HAS_ALLTOALL_GATHER_SCATTER
    launch.check(ncclScatter(in, out, n, type, root, launch.comm(), launch.stream()),
                 "ncclScatter");
#else
    std::vector<Transfer> sends;
    if (is_root) {
      for (int peer = 0; peer < size(); ++peer) {
        sends.push_back(Transfer{peer, at_element(in, size_t(peer) * n, output.element_size()), n});
      }
    }
    exchange(launch, type, sends, {Transfer{root, out, n}});
#endif
    return launch.submit();
  }

  // NCCL has no gatherv: grouped point-to-point, each rank's rows to root, which receives
  // them into their places in the output (empty blocks skipped on both sides alike).
  WorkPtr run_gather_v(at::Tensor output, const at::Tensor& input,
                       const std::vector<int64_t>& splits, int root) {
    const bool is_root = rank() == root;
    const ncclDataType_t type = is_root ? same_type(OpType::kGatherV, output, input)
                                        : nccl_type(input.scalar_type(), OpType::kGatherV);
    Launch launch(context_, OpType::kGatherV, root);
    void* in = launch.read(input);
    void* out = is_root ? launch.write(output) : nullptr;
    std::vector<Transfer> sends, receives;
    if (count(input) > 0) sends.push_back(Transfer{root, in, count(input)});
    if (is_root) {
      const std::vector<size_t> counts = split_counts(input, splits);
      size_t received = 0;
      for (int peer = 0; peer < size(); ++peer) {
        const size_t n = counts[size_t(peer)];
        if (n > 0) receives.push_back(Transfer{peer, at_element(out, received, input.element_size()), n});
        received += n;
      }
    }
    exchange(launch, type, sends, receives);
    return launch.submit();
  }

  static size_t count(const at::Tensor& tensor) { return static_cast<size_t>(tensor.numel()); }

  std::invalid_argument invalid(OpType op, const std::string& detail) const {
    return std::invalid_argument(std::string("nccl ") + op_name(op) + " on rank " +
                                 std::to_string(rank()) + ": " + detail);
  }

  // The description has checked that the peer is in the group; NCCL also refuses oneself.
  void check_peer(OpType op, int peer) const {
    if (peer == rank()) throw invalid(op, "a rank cannot send to or receive from itself over NCCL");
  }

  ncclDataType_t same_type(OpType op, const at::Tensor& output, const at::Tensor& input) const {
    if (!output.defined() || !input.defined()) throw invalid(op, "a tensor is undefined");
    if (output.scalar_type() != input.scalar_type()) {
      throw invalid(op, std::string("output is ") + c10::toString(output.scalar_type()) +
                            " but input is " + c10::toString(input.scalar_type()));
    }
    return nccl_type(input.scalar_type(), op);
  }

  // The elements each peer's block holds, from its rows (dim 0) as the splits give them
  // (checked against the tensor by the call's description).
  static std::vector<size_t> split_counts(const at::Tensor& tensor,
                                          const std::vector<int64_t>& rows) {
    int64_t row = 1;
    for (int64_t d = 1; d < tensor.dim(); ++d) row *= tensor.size(d);
    std::vector<size_t> counts;
    for (int64_t r : rows) counts.push_back(static_cast<size_t>(r * row));
    return counts;
  }

  static void exchange(Launch& launch, ncclDataType_t type, const std::vector<Transfer>& sends,
                       const std::vector<Transfer>& receives) {
    launch.group([&] {
      for (const Transfer& t : sends) {
        launch.check(ncclSend(t.buffer, t.count, type, t.peer, launch.comm(), launch.stream()),
                     "ncclSend");
      }
      for (const Transfer& t : receives) {
        launch.check(ncclRecv(t.buffer, t.count, type, t.peer, launch.comm(), launch.stream()),
                     "ncclRecv");
      }
    });
  }

  std::shared_ptr<NcclContext> context_;
};

// ncclCommSplit: members share one color and are ordered by their place in `ranks`;
// the others pass NCCL_SPLIT_NOCOLOR and get no communicator.
std::shared_ptr<Comm> NcclComm::split(const std::vector<int>& ranks) {
  std::vector<int> sorted = ranks;
  std::sort(sorted.begin(), sorted.end());
  if (sorted.empty() || sorted.front() < 0 || sorted.back() >= size() ||
      std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    throw std::invalid_argument("nccl split on rank " + std::to_string(rank()) +
                                ": the rank list must be non-empty, without repeats, and "
                                "within the group of " +
                                std::to_string(size()));
  }
  const auto me = std::find(ranks.begin(), ranks.end(), rank());
  const bool member = me != ranks.end();
  const int position = member ? static_cast<int>(me - ranks.begin()) : 0;
  const std::string what =
      "nccl split (rank " + std::to_string(rank()) + " of " + std::to_string(size()) + ")";
  DeviceGuard guard(context_->device());
  context_->check_usable(what);
  ncclComm_t child = nullptr;
  check_nccl(
      ncclCommSplit(context_->comm(), member ? 0 : NCCL_SPLIT_NOCOLOR, position, &child, nullptr),
      what + ": ncclCommSplit");
  if (!member) return nullptr;
  return std::make_shared<NcclComm>(std::make_shared<NcclContext>(
      child, context_->device(), position, static_cast<int>(ranks.size()), context_->timeout()));
}

std::string visible_gpus_problem() {
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    cudaGetLastError();  // not sticky, but leave no error behind for later calls to find
    return "no GPU visible: cudaGetDeviceCount says " + cuda_text(error);
  }
  if (count == 0) return "no GPU visible: cudaGetDeviceCount says 0 devices";
  return {};
}

ncclUniqueId exchange_unique_id(c10d::Store& store, int rank) {
  ncclUniqueId id;
  if (rank == 0) {
    check_nccl(ncclGetUniqueId(&id), "nccl backend: ncclGetUniqueId");
    const auto* bytes = reinterpret_cast<const uint8_t*>(&id);
    store.set(kUidKey, std::vector<uint8_t>(bytes, bytes + sizeof(id)));
    return id;
  }
  const std::vector<uint8_t> bytes = store.get(kUidKey);  // waits for rank 0
  if (bytes.size() != sizeof(id)) {
    throw std::runtime_error("nccl backend: the store's " + std::string(kUidKey) + " holds " +
                             std::to_string(bytes.size()) + " bytes, not an NCCL unique id (" +
                             std::to_string(sizeof(id)) + ")");
  }
  std::memcpy(&id, bytes.data(), sizeof(id));
  return id;
}

}  // namespace

bool nccl_compiled_in() { return true; }

std::string nccl_unavailable() { return visible_gpus_problem(); }

int visible_gpu_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

std::string nccl_version_text() {
  int code = 0;
  if (ncclGetVersion(&code) != ncclSuccess) return {};
  // NCCL_VERSION's two encodings: major * 1000 + ... up to 2.8, major * 10000 + ... since.
  const int major = code >= 10000 ? code / 10000 : code / 1000;
  const int minor = code >= 10000 ? (code % 10000) / 100 : (code % 1000) / 100;
  return "NCCL " + std::to_string(major) + "." + std::to_string(minor) + "." +
         std::to_string(code % 100);
}

std::unique_ptr<Comm> make_nccl_comm(const c10::intrusive_ptr<c10d::Store>& store,
                                     const RankPlacement& placement,
                                     std::chrono::milliseconds timeout) {
  if (const std::string why = nccl_unavailable(); !why.empty()) {
    throw std::runtime_error("the nccl backend is unavailable: " + why);
  }
  if (!store) throw std::invalid_argument("nccl backend: no store to meet the other ranks in");
  if (placement.world < 1 || placement.rank < 0 || placement.rank >= placement.world) {
    throw std::invalid_argument("nccl backend: rank " + std::to_string(placement.rank) +
                                " is not in a world of " + std::to_string(placement.world));
  }
  int gpus = 0;
  check_cuda(cudaGetDeviceCount(&gpus), "cudaGetDeviceCount");
  if (placement.local_rank < 0 || placement.local_rank >= gpus) {
    throw std::runtime_error("nccl backend: rank " + std::to_string(placement.rank) +
                             " has local rank " + std::to_string(placement.local_rank) + " but " +
                             std::to_string(gpus) +
                             " GPU(s) are visible; NCCL drives one GPU per rank");
  }
  DeviceGuard guard(placement.local_rank);
  const ncclUniqueId id = exchange_unique_id(*store, placement.rank);
  ncclComm_t comm = nullptr;
  check_nccl(ncclCommInitRank(&comm, placement.world, id, placement.rank),
             "nccl backend: ncclCommInitRank (rank " + std::to_string(placement.rank) + " of " +
                 std::to_string(placement.world) + ")");
  return std::make_unique<NcclComm>(std::make_shared<NcclContext>(
      comm, placement.local_rank, placement.rank, placement.world, timeout));
}

#endif  // UNIFERENCE_HAVE_NCCL

}  // namespace uniference
