// What every NcclComm operation stands on: CUDA's and NCCL's error checks, the rank's device
// guard, the type and reduction mappings, one communicator's resources (NcclContext: the NCCL
// communicator, its stream, its page-locked staging memory), the Work handle, and the Launch
// that stages tensors to the device, makes the NCCL call(s) and copies results back. The
// operations themselves, the split and the bootstrap are in nccl_comm.cpp, the only file that
// includes this one (and only where CUDA and NCCL were found: UNIFERENCE_HAVE_NCCL).
#pragma once

#include "compute/collective_op.h"
#include "compute/comm.h"

#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace uniference::nccl {

inline std::string cuda_text(cudaError_t error) { return cudaGetErrorString(error); }

inline void check_cuda(cudaError_t error, const char* call) {
  if (error != cudaSuccess) {
    throw std::runtime_error(std::string("nccl backend: ") + call + " failed: " + cuda_text(error));
  }
}

// NCCL's name for a result, with its own account of the last error where it has one.
inline std::string nccl_text(ncclResult_t result) {
  std::string text = ncclGetErrorString(result);
  const char* detail = ncclGetLastError(nullptr);  // NCCL ignores the communicator here
  if (detail != nullptr && *detail != '\0') text += " (" + std::string(detail) + ")";
  return text;
}

inline void check_nccl(ncclResult_t result, const std::string& what) {
  if (result != ncclSuccess) throw std::runtime_error(what + " failed: " + nccl_text(result));
}

// CUDA's current device belongs to the calling thread, and a rank's operations may come
// from any thread: every entry point makes the rank's GPU current, then restores the
// caller's. Destructors use the quiet form, which never throws.
class DeviceGuard {
 public:
  enum class OnError { kThrow, kIgnore };
  explicit DeviceGuard(int device, OnError on_error = OnError::kThrow) : device_(device) {
    if (cudaGetDevice(&previous_) != cudaSuccess) previous_ = -1;
    if (previous_ == device_) return;
    const cudaError_t error = cudaSetDevice(device_);
    if (error != cudaSuccess && on_error == OnError::kThrow) {
      throw std::runtime_error("nccl backend: cudaSetDevice(" + std::to_string(device_) +
                               ") failed: " + cuda_text(error));
    }
  }
  ~DeviceGuard() {
    if (previous_ >= 0 && previous_ != device_) cudaSetDevice(previous_);
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int device_;
  int previous_ = -1;
};

inline ncclDataType_t nccl_type(at::ScalarType type, OpType op) {
  switch (type) {
    case at::kFloat:
      return ncclFloat32;
    case at::kDouble:
      return ncclFloat64;
    case at::kHalf:
      return ncclFloat16;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 10, 0)
    case at::kBFloat16:
      return ncclBfloat16;
#endif
    case at::kInt:
      return ncclInt32;
    case at::kLong:
      return ncclInt64;
    case at::kByte:
      return ncclUint8;
    case at::kChar:
      return ncclInt8;
    default:
      break;
  }
  throw std::invalid_argument(std::string("nccl ") + op_name(op) + ": dtype " +
                              c10::toString(type) +
                              " is not supported (float32, float64, float16, bfloat16, int32, "
                              "int64, uint8 and int8 are)");
}

inline ncclRedOp_t nccl_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum:
      return ncclSum;
    case ReduceOp::kMax:
      return ncclMax;
    case ReduceOp::kMin:
      return ncclMin;
  }
  throw std::invalid_argument("nccl: unknown reduction");
}

// "nccl recv from rank 0 (rank 1 of 2)": who did what, for errors.
inline std::string describe(OpType op, int peer, int rank, int size) {
  std::string text = std::string("nccl ") + op_name(op);
  if (peer >= 0) {
    if (op == OpType::kSend) {
      text += " to rank " + std::to_string(peer);
    } else if (op == OpType::kRecv) {
      text += " from rank " + std::to_string(peer);
    } else {
      text += " with root " + std::to_string(peer);
    }
  }
  return text + " (rank " + std::to_string(rank) + " of " + std::to_string(size) + ")";
}

// Page-locked host memory, for staging.
struct HostBlock {
  void* data = nullptr;
  size_t capacity = 0;
};

// One communicator's resources: the NCCL communicator, the stream every operation of it
// runs on, and its page-locked staging memory. Operation handles share it, so it lives as
// long as the last of them.
class NcclContext {
 public:
  NcclContext(ncclComm_t comm, int device, int rank, int size, std::chrono::milliseconds timeout)
      : comm_(comm), device_(device), rank_(rank), size_(size), timeout_(timeout) {
    DeviceGuard guard(device_);
    // A blocking stream (not cudaStreamNonBlocking) orders after work on the legacy
    // default stream, where a CUDA-enabled libtorch produces tensors handed to us in place.
    const cudaError_t error = cudaStreamCreate(&stream_);
    if (error != cudaSuccess) {
      ncclCommAbort(comm_);
      throw std::runtime_error("nccl backend: cudaStreamCreate failed: " + cuda_text(error));
    }
  }

  NcclContext(const NcclContext&) = delete;
  NcclContext& operator=(const NcclContext&) = delete;

  // Never throws and never hangs: a communicator whose operations do not drain within the
  // timeout is aborted rather than finalized, and memory the device may still write into
  // is left allocated.
  ~NcclContext() {
    DeviceGuard guard(device_, DeviceGuard::OnError::kIgnore);
    bool idle = drain();
    if (comm_ != nullptr) {
      if (idle && async_error().empty()) {
        ncclCommFinalize(comm_);
        ncclCommDestroy(comm_);
      } else {
        ncclCommAbort(comm_);
        idle = drain();
      }
      comm_ = nullptr;
    }
    if (!idle) return;
    for (Orphan& orphan : orphans_) {
      cudaEventDestroy(orphan.done);
      for (const HostBlock& block : orphan.blocks) cudaFreeHost(block.data);
    }
    for (const auto& [capacity, data] : idle_) cudaFreeHost(data);
    cudaStreamDestroy(stream_);
  }

  int device() const { return device_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  std::chrono::milliseconds timeout() const { return timeout_; }
  cudaStream_t stream() const { return stream_; }

  ncclComm_t comm() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return comm_;
  }

  // Empty, or why this communicator can no longer be used.
  std::string failure() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return failure_;
  }

  // After an abort, operations still on the stream end early with garbage results.
  void check_usable(const std::string& what) const {
    const std::string why = failure();
    if (!why.empty()) throw std::runtime_error(what + ": the communicator was aborted: " + why);
  }

  // Aborts the NCCL communicator once; pending and later operations then fail with `why`.
  void abort(const std::string& why) {
    DeviceGuard guard(device_, DeviceGuard::OnError::kIgnore);
    std::lock_guard<std::mutex> lock(mutex_);
    if (failure_.empty()) failure_ = why;
    if (comm_ != nullptr) {
      ncclCommAbort(comm_);
      comm_ = nullptr;
    }
  }

  // An error NCCL found while operations ran (a peer gone, a network failure), or empty.
  std::string async_error() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (comm_ == nullptr) return failure_;
    ncclResult_t state = ncclSuccess;
    const ncclResult_t result = ncclCommGetAsyncError(comm_, &state);
    if (result != ncclSuccess) return "ncclCommGetAsyncError failed: " + nccl_text(result);
    if (state == ncclSuccess || state == ncclInProgress) return {};
    return nccl_text(state);
  }

  // Pinned buffers are slow to allocate, so they are kept by power-of-two size and reused.
  HostBlock take_pinned(size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    reclaim_orphans();
    size_t capacity = 4096;
    while (capacity < bytes) capacity *= 2;
    auto it = idle_.find(capacity);
    if (it != idle_.end()) {
      HostBlock block{it->second, capacity};
      idle_.erase(it);
      return block;
    }
    HostBlock block{nullptr, capacity};
    check_cuda(cudaHostAlloc(&block.data, capacity, cudaHostAllocPortable), "cudaHostAlloc");
    return block;
  }

  // Blocks no pending copy uses any more.
  void give_back(std::vector<HostBlock>& blocks) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const HostBlock& block : blocks) idle_.emplace(block.capacity, block.data);
    blocks.clear();
  }

  // Blocks of an operation nobody waits for any more: copies into or out of them may
  // still be queued, so they return to the pool only once `done` has completed.
  void orphan(cudaEvent_t done, std::vector<HostBlock>& blocks) {
    std::lock_guard<std::mutex> lock(mutex_);
    orphans_.push_back(Orphan{done, std::move(blocks)});
    blocks.clear();
  }

 private:
  struct Orphan {
    cudaEvent_t done;
    std::vector<HostBlock> blocks;
  };

  // Called with mutex_ held.
  void reclaim_orphans() {
    for (auto it = orphans_.begin(); it != orphans_.end();) {
      if (cudaEventQuery(it->done) != cudaSuccess) {
        ++it;
        continue;
      }
      cudaEventDestroy(it->done);
      for (const HostBlock& block : it->blocks) idle_.emplace(block.capacity, block.data);
      it = orphans_.erase(it);
    }
  }

  // Whether the stream ran dry within the timeout.
  bool drain() const {
    const auto start = std::chrono::steady_clock::now();
    while (cudaStreamQuery(stream_) == cudaErrorNotReady) {
      if (std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                start) >= timeout_) {
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
  }

  mutable std::mutex mutex_;
  ncclComm_t comm_;
  int device_;
  int rank_;
  int size_;
  std::chrono::milliseconds timeout_;
  cudaStream_t stream_ = nullptr;
  std::string failure_;
  std::multimap<size_t, void*> idle_;
  std::vector<Orphan> orphans_;
};

// What wait() does once the stream is done: copy a result into the caller's tensor.
struct CopyBack {
  at::Tensor target;
  at::Tensor source;  // over a pinned block, or a contiguous copy on the GPU
};

class NcclWork final : public Work {
 public:
  NcclWork(std::shared_ptr<NcclContext> context, std::string what, cudaEvent_t done,
           std::vector<HostBlock> blocks, std::vector<CopyBack> copy_backs,
           std::vector<at::Tensor> keep_alive)
      : context_(std::move(context)),
        what_(std::move(what)),
        done_(done),
        blocks_(std::move(blocks)),
        copy_backs_(std::move(copy_backs)),
        keep_alive_(std::move(keep_alive)) {}

  ~NcclWork() override {
    if (done_ != nullptr) context_->orphan(done_, blocks_);
  }

  // Spins briefly (decode steps' collectives take microseconds), then sleeps ever longer.
  void wait() override {
    const auto start = std::chrono::steady_clock::now();
    auto pause = std::chrono::microseconds(10);
    for (int polls = 0; !settled(); ++polls) {
      const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(
          std::chrono::steady_clock::now() - start);
      if (waited >= context_->timeout()) {
        error_ = what_ + " did not complete within " + std::to_string(context_->timeout().count()) +
                 " ms; the NCCL communicator was aborted";
        context_->abort(error_);
        release(/*completed=*/false);
        break;
      }
      if (polls < 1000) {
        std::this_thread::yield();
      } else {
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(1000));
      }
    }
    if (!error_.empty()) throw std::runtime_error(error_);
  }

  // As c10d's isCompleted: true also when the operation failed; wait() then throws.
  bool is_completed() override { return settled(); }

 private:
  // Whether the operation is over, successfully or not; finishes it the first time.
  bool settled() {
    if (done_ == nullptr) return true;
    DeviceGuard guard(context_->device());
    if (const std::string why = context_->failure(); !why.empty()) {
      error_ = what_ + " failed: the communicator was aborted: " + why;
      release(/*completed=*/false);
      return true;
    }
    const cudaError_t state = cudaEventQuery(done_);
    if (state == cudaSuccess) {
      try {
        for (CopyBack& copy : copy_backs_) copy.target.copy_(copy.source);
      } catch (const std::exception& e) {
        error_ = what_ + ": copying the result into the tensor failed: " + e.what();
      }
      release(/*completed=*/true);
      return true;
    }
    if (state != cudaErrorNotReady) {
      error_ = what_ + " failed on the GPU: " + cuda_text(state);
      context_->abort(error_);
      release(/*completed=*/false);
      return true;
    }
    if (const std::string why = context_->async_error(); !why.empty()) {
      error_ = what_ + " failed: " + why;
      context_->abort(error_);
      release(/*completed=*/false);
      return true;
    }
    return false;
  }

  void release(bool completed) {
    if (completed) {
      context_->give_back(blocks_);
      cudaEventDestroy(done_);
    } else {
      context_->orphan(done_, blocks_);
    }
    done_ = nullptr;
    copy_backs_.clear();
    keep_alive_.clear();
  }

  std::shared_ptr<NcclContext> context_;
  std::string what_;
  cudaEvent_t done_;
  std::vector<HostBlock> blocks_;
  std::vector<CopyBack> copy_backs_;
  std::vector<at::Tensor> keep_alive_;
  std::string error_;
};

// One operation on its way onto the stream: tensors staged to the device, the NCCL
// call(s), the copies back, then an event for its handle. Device buffers come from CUDA's
// stream-ordered allocator: freed on the stream right after the operation, they are reused
// without a device-wide synchronization (cudaFree's), which could wait on a receive whose
// sender is waiting on us.
class Launch {
 public:
  Launch(std::shared_ptr<NcclContext> context, OpType op, int peer)
      : context_(std::move(context)),
        guard_(context_->device()),
        what_(describe(op, peer, context_->rank(), context_->size())) {
    context_->check_usable(what_);
    comm_ = context_->comm();
  }

  Launch(const Launch&) = delete;
  Launch& operator=(const Launch&) = delete;

  // Cleans up after an operation that threw before submit().
  ~Launch() {
    if (submitted_) return;
    for (void* buffer : device_buffers_) cudaFreeAsync(buffer, context_->stream());
    if (blocks_.empty()) return;
    cudaEvent_t done = nullptr;
    if (cudaEventCreateWithFlags(&done, cudaEventDisableTiming) != cudaSuccess) return;
    if (cudaEventRecord(done, context_->stream()) != cudaSuccess) {
      cudaEventDestroy(done);
      return;  // the blocks stay allocated: a queued copy may still use them
    }
    context_->orphan(done, blocks_);
  }

  ncclComm_t comm() const { return comm_; }
  cudaStream_t stream() const { return context_->stream(); }

  // Device memory holding the tensor's data, which the operation reads.
  void* read(const at::Tensor& tensor) {
    if (on_gpu(tensor)) {
      keep_alive_.push_back(tensor.contiguous());
      return keep_alive_.back().data_ptr();
    }
    return stage_in(tensor).first;
  }

  // Device memory the operation writes the tensor's new data into; it is copied into the
  // tensor when the handle completes.
  void* write(at::Tensor& tensor) {
    if (on_gpu(tensor)) {
      return gpu_result(
          tensor, tensor.is_contiguous() ? tensor : at::empty(tensor.sizes(), tensor.options()));
    }
    const size_t bytes = static_cast<size_t>(tensor.numel()) * tensor.element_size();
    void* device = device_buffer(bytes);
    const HostBlock block = take_pinned(bytes);
    to_host_.push_back(ToHost{block.data, device, bytes});
    copy_backs_.push_back(
        CopyBack{tensor, at::from_blob(block.data, tensor.sizes(), tensor.options())});
    return device;
  }

  // Both: the operation reads the tensor and writes its result back (in-place collectives).
  void* update(at::Tensor& tensor) {
    if (on_gpu(tensor)) return gpu_result(tensor, tensor.contiguous());
    const auto [device, host] = stage_in(tensor);
    const size_t bytes = static_cast<size_t>(tensor.numel()) * tensor.element_size();
    to_host_.push_back(ToHost{host, device, bytes});
    copy_backs_.push_back(CopyBack{tensor, at::from_blob(host, tensor.sizes(), tensor.options())});
    return device;
  }

  // Zeroed device memory no tensor stands behind (the barrier's element).
  void* scratch(size_t bytes) {
    void* device = device_buffer(bytes);
    check_cuda(cudaMemsetAsync(device, 0, bytes, stream()), "cudaMemsetAsync");
    return device;
  }

  void check(ncclResult_t result, const char* call) const {
    if (result != ncclSuccess) {
      throw std::runtime_error(what_ + ": " + call + " failed: " + nccl_text(result));
    }
  }

  // Calls that must progress together (one rank's sends and receives of an all-to-all).
  template <typename Calls>
  void group(Calls&& calls) {
    check(ncclGroupStart(), "ncclGroupStart");
    try {
      calls();
    } catch (...) {
      ncclGroupEnd();
      throw;
    }
    check(ncclGroupEnd(), "ncclGroupEnd");
  }

  // Queues the copies back and the completion event; the handle finishes the rest.
  WorkPtr submit() {
    for (const ToHost& copy : to_host_) {
      if (copy.bytes == 0) continue;
      check_cuda(
          cudaMemcpyAsync(copy.host, copy.device, copy.bytes, cudaMemcpyDeviceToHost, stream()),
          "cudaMemcpyAsync (device to host)");
    }
    for (void* buffer : device_buffers_) cudaFreeAsync(buffer, stream());
    device_buffers_.clear();
    cudaEvent_t done = nullptr;
    check_cuda(cudaEventCreateWithFlags(&done, cudaEventDisableTiming), "cudaEventCreate");
    if (const cudaError_t error = cudaEventRecord(done, stream()); error != cudaSuccess) {
      cudaEventDestroy(done);
      check_cuda(error, "cudaEventRecord");
    }
    submitted_ = true;
    return std::make_shared<NcclWork>(context_, what_, done, std::move(blocks_),
                                      std::move(copy_backs_), std::move(keep_alive_));
  }

 private:
  struct ToHost {
    void* host;
    const void* device;
    size_t bytes;
  };

  // Whether the tensor is already on this rank's GPU; CPU tensors are staged, others refused.
  bool on_gpu(const at::Tensor& tensor) const {
    if (!tensor.defined()) throw std::invalid_argument(what_ + ": the tensor is undefined");
    if (tensor.is_cpu()) return false;
    if (tensor.is_cuda() && tensor.device().index() == context_->device()) return true;
    throw std::invalid_argument(
        what_ + ": the tensor is on " + tensor.device().str() +
        "; this rank takes CPU tensors or cuda:" + std::to_string(context_->device()) + " ones");
  }

  // A contiguous GPU tensor the operation writes; copied into `tensor` when it differs.
  void* gpu_result(at::Tensor& tensor, at::Tensor result) {
    if (!result.is_same(tensor)) copy_backs_.push_back(CopyBack{tensor, result});
    keep_alive_.push_back(result);
    return result.data_ptr();
  }

  // The tensor's data copied into a pinned block (now, so the caller may reuse the
  // tensor at once) and from there to device memory (on the stream). Returns both.
  std::pair<void*, void*> stage_in(const at::Tensor& tensor) {
    const at::Tensor contiguous = tensor.contiguous();
    const size_t bytes = contiguous.nbytes();
    const HostBlock block = take_pinned(bytes);
    if (bytes > 0) std::memcpy(block.data, contiguous.data_ptr(), bytes);
    void* device = device_buffer(bytes);
    if (bytes > 0) {
      check_cuda(cudaMemcpyAsync(device, block.data, bytes, cudaMemcpyHostToDevice, stream()),
                 "cudaMemcpyAsync (host to device)");
    }
    return {device, block.data};
  }

  HostBlock take_pinned(size_t bytes) {
    blocks_.push_back(context_->take_pinned(bytes));
    return blocks_.back();
  }

  void* device_buffer(size_t bytes) {
    void* buffer = nullptr;
    check_cuda(cudaMallocAsync(&buffer, std::max<size_t>(bytes, 1), stream()), "cudaMallocAsync");
    device_buffers_.push_back(buffer);
    return buffer;
  }

  std::shared_ptr<NcclContext> context_;
  DeviceGuard guard_;
  std::string what_;
  ncclComm_t comm_ = nullptr;
  std::vector<void*> device_buffers_;
  std::vector<HostBlock> blocks_;
  std::vector<ToHost> to_host_;
  std::vector<CopyBack> copy_backs_;
  std::vector<at::Tensor> keep_alive_;
  bool submitted_ = false;
};

// A point-to-point transfer of one grouped exchange.
struct Transfer {
  int peer;
  void* buffer;
  size_t count;  // elements
};

inline char* at_element(void* base, size_t element, size_t element_size) {
  return static_cast<char*>(base) + element * element_size;
}

}  // namespace uniference::nccl
