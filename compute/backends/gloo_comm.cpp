#include "compute/backends/gloo_comm.h"

#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <functional>
#include <stdexcept>
#include <utility>

namespace uniference {

namespace {

c10d::ReduceOp gloo_reduce(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum:
      return c10d::ReduceOp::SUM;
    case ReduceOp::kMax:
      return c10d::ReduceOp::MAX;
    case ReduceOp::kMin:
      return c10d::ReduceOp::MIN;
  }
  throw std::invalid_argument("gloo: unknown reduce operation");
}

// "all_reduce", or "send to rank 3": what failed, for error messages.
std::string describe(OpType op, int peer) {
  std::string text = op_name(op);
  if (op == OpType::kSend) text += " to rank " + std::to_string(peer);
  if (op == OpType::kRecv) text += " from rank " + std::to_string(peer);
  return text;
}

// A c10d Work, the buffers it reads and writes, and what to do once it has completed
// (copy a staged result into the caller's tensor).
class GlooWork final : public Work {
 public:
  GlooWork(c10::intrusive_ptr<c10d::Work> work, std::string what,
           std::chrono::milliseconds timeout, std::vector<at::Tensor> keep_alive,
           std::function<void()> finish)
      : work_(std::move(work)),
        what_(std::move(what)),
        timeout_(timeout),
        keep_alive_(std::move(keep_alive)),
        finish_(std::move(finish)) {}

  void wait() override {
    if (done_) return;
    try {
      work_->wait(timeout_);
    } catch (const std::exception& e) {
      throw std::runtime_error("gloo " + what_ + " failed: " + first_line(e.what()));
    }
    if (finish_) finish_();
    done_ = true;
    keep_alive_.clear();
  }

  bool is_completed() override { return done_ || work_->isCompleted(); }

 private:
  // c10's messages carry a C++ backtrace after the first line; users need the first.
  static std::string first_line(const std::string& text) {
    return text.substr(0, text.find('\n'));
  }

  c10::intrusive_ptr<c10d::Work> work_;
  std::string what_;
  std::chrono::milliseconds timeout_;
  std::vector<at::Tensor> keep_alive_;
  std::function<void()> finish_;
  bool done_ = false;
};

void require_cpu(const at::Tensor& tensor, OpType op) {
  if (tensor.defined() && !tensor.device().is_cpu()) {
    throw std::invalid_argument(std::string("gloo ") + op_name(op) + ": tensors must be on the CPU, got " +
                                tensor.device().str());
  }
}

// Where a result must land in `target`: the tensor itself when Gloo can write it in place,
// else a contiguous stand-in copied back once the work completes.
struct Landing {
  at::Tensor buffer;
  std::function<void()> copy_back;
};

Landing landing_for(at::Tensor& target) {
  if (target.is_contiguous()) return {target, nullptr};
  at::Tensor buffer = target.contiguous();
  return {buffer, [target, buffer]() mutable { target.copy_(buffer); }};
}

std::vector<at::Tensor> blocks(const at::Tensor& tensor, int count) {
  return tensor.chunk(count, 0);
}

class GlooComm final : public Comm {
 public:
  GlooComm(c10::intrusive_ptr<c10d::Store> store, int rank, int size,
           c10::intrusive_ptr<c10d::ProcessGroupGloo::Options> options)
      : store_(std::move(store)), options_(std::move(options)), rank_(rank), size_(size) {
    try {
      group_ = c10::make_intrusive<c10d::ProcessGroupGloo>(store_, rank, size, options_);
    } catch (const std::exception& e) {
      const std::string text = e.what();
      throw std::runtime_error("gloo: rank " + std::to_string(rank) + " of " + std::to_string(size) +
                               " could not connect to its peers: " + text.substr(0, text.find('\n')));
    }
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  WorkPtr isend(const at::Tensor& tensor, int dst, int tag) override {
    require_cpu(tensor, OpType::kSend);
    std::vector<at::Tensor> tensors{tensor.contiguous()};
    return track(group_->send(tensors, dst, tag), describe(OpType::kSend, dst), tensors);
  }

  WorkPtr irecv(at::Tensor& tensor, int src, int tag) override {
    require_cpu(tensor, OpType::kRecv);
    Landing landing = landing_for(tensor);
    std::vector<at::Tensor> tensors{landing.buffer};
    return track(group_->recv(tensors, src, tag), describe(OpType::kRecv, src), tensors,
                 landing.copy_back);
  }

  WorkPtr ibroadcast(at::Tensor& tensor, int root) override {
    require_cpu(tensor, OpType::kBroadcast);
    Landing landing = landing_for(tensor);
    std::vector<at::Tensor> tensors{landing.buffer};
    c10d::BroadcastOptions options;
    options.rootRank = root;
    return track(group_->broadcast(tensors, options), op_name(OpType::kBroadcast), tensors,
                 landing.copy_back);
  }

  WorkPtr iall_reduce(at::Tensor& tensor, ReduceOp op) override {
    require_cpu(tensor, OpType::kAllReduce);
    Landing landing = landing_for(tensor);
    std::vector<at::Tensor> tensors{landing.buffer};
    c10d::AllreduceOptions options;
    options.reduceOp = gloo_reduce(op);
    return track(group_->allreduce(tensors, options), op_name(OpType::kAllReduce), tensors,
                 landing.copy_back);
  }

  WorkPtr iall_gather(at::Tensor& output, const at::Tensor& input) override {
    require_cpu(input, OpType::kAllGather);
    require_cpu(output, OpType::kAllGather);
    check_blocks(OpType::kAllGather, output, input);
    // 1.13's Gloo group has no all_gather_into_tensor: the output's blocks are the list.
    Landing landing = landing_for(output);
    std::vector<std::vector<at::Tensor>> outputs{blocks(landing.buffer, size_)};
    std::vector<at::Tensor> inputs{input.contiguous()};
    return track(group_->allgather(outputs, inputs), op_name(OpType::kAllGather),
                 {inputs[0], landing.buffer}, landing.copy_back);
  }

  WorkPtr ibarrier() override {
    return track(group_->barrier(), op_name(OpType::kBarrier), {});
  }

  WorkPtr ireduce_scatter(at::Tensor& output, const at::Tensor& input, ReduceOp op) override {
    require_cpu(input, OpType::kReduceScatter);
    require_cpu(output, OpType::kReduceScatter);
    check_blocks(OpType::kReduceScatter, input, output);
    std::vector<at::Tensor> tensors{input.contiguous().clone()};
    c10d::AllreduceOptions options;
    options.reduceOp = gloo_reduce(op);
    at::Tensor reduced = tensors[0];
    const int rank = rank_;
    const int size = size_;
    return track(group_->allreduce(tensors, options), op_name(OpType::kReduceScatter), tensors,
                 [output, reduced, rank, size]() mutable {
                   output.copy_(reduced.chunk(size, 0)[size_t(rank)].view_as(output));
                 });
  }

  WorkPtr iall_to_all(at::Tensor& output, const at::Tensor& input) override {
    require_cpu(input, OpType::kAllToAll);
    require_cpu(output, OpType::kAllToAll);
    if (input.numel() != output.numel() || input.size(0) % size_ != 0) {
      throw std::invalid_argument("gloo all_to_all: input and output must hold " +
                                  std::to_string(size_) + " equal blocks along dim 0 (input " +
                                  shape(input) + ", output " + shape(output) + ")");
    }
    return all_to_all(output, input, {}, {});
  }

  WorkPtr iall_to_all_v(at::Tensor& output, const at::Tensor& input,
                        const std::vector<int64_t>& output_splits,
                        const std::vector<int64_t>& input_splits) override {
    require_cpu(input, OpType::kAllToAll);
    require_cpu(output, OpType::kAllToAll);
    if (int(output_splits.size()) != size_ || int(input_splits.size()) != size_) {
      throw std::invalid_argument("gloo all_to_all_v: needs one split per rank (" +
                                  std::to_string(size_) + ")");
    }
    return all_to_all(output, input, output_splits, input_splits);
  }

  WorkPtr ireduce(at::Tensor& tensor, int root, ReduceOp op) override {
    require_cpu(tensor, OpType::kReduce);
    // Gloo uses every rank's buffer as scratch; only the root's result may reach the caller.
    std::vector<at::Tensor> tensors{tensor.contiguous().clone()};
    c10d::ReduceOptions options;
    options.reduceOp = gloo_reduce(op);
    options.rootRank = root;
    std::function<void()> copy_back;
    if (rank_ == root) {
      copy_back = [tensor, result = tensors[0]]() mutable { tensor.copy_(result); };
    }
    return track(group_->reduce(tensors, options), op_name(OpType::kReduce), tensors, copy_back);
  }

  WorkPtr igather(at::Tensor& output, const at::Tensor& input, int root) override {
    require_cpu(input, OpType::kGather);
    std::vector<at::Tensor> inputs{input.contiguous()};
    std::vector<std::vector<at::Tensor>> outputs;
    std::vector<at::Tensor> buffers = inputs;
    std::function<void()> copy_back;
    if (rank_ == root) {
      require_cpu(output, OpType::kGather);
      check_blocks(OpType::kGather, output, input);
      Landing landing = landing_for(output);
      outputs.push_back(blocks(landing.buffer, size_));
      buffers.push_back(landing.buffer);
      copy_back = landing.copy_back;
    }
    c10d::GatherOptions options;
    options.rootRank = root;
    return track(group_->gather(outputs, inputs, options), op_name(OpType::kGather), buffers,
                 copy_back);
  }

  WorkPtr iscatter(at::Tensor& output, const at::Tensor& input, int root) override {
    require_cpu(output, OpType::kScatter);
    Landing landing = landing_for(output);
    std::vector<at::Tensor> outputs{landing.buffer};
    std::vector<std::vector<at::Tensor>> inputs;
    std::vector<at::Tensor> buffers = outputs;
    if (rank_ == root) {
      require_cpu(input, OpType::kScatter);
      check_blocks(OpType::kScatter, input, output);
      const at::Tensor whole = input.contiguous();
      inputs.push_back(blocks(whole, size_));
      buffers.push_back(whole);
    }
    c10d::ScatterOptions options;
    options.rootRank = root;
    return track(group_->scatter(outputs, inputs, options), op_name(OpType::kScatter), buffers,
                 landing.copy_back);
  }

  std::shared_ptr<Comm> split(const std::vector<int>& ranks) override {
    // Every rank counts every split, member or not, so a group's store keys are the same
    // on all of its members.
    const std::string prefix = "split" + std::to_string(++splits_) + "/";
    for (size_t i = 0; i < ranks.size(); ++i) {
      if (ranks[i] < 0 || ranks[i] >= size_) {
        throw std::invalid_argument("gloo split: rank " + std::to_string(ranks[i]) +
                                    " is not in a world of " + std::to_string(size_));
      }
      if (ranks[i] == rank_) {
        auto store = c10::make_intrusive<c10d::PrefixStore>(prefix, store_);
        return std::make_shared<GlooComm>(store, int(i), int(ranks.size()), options_);
      }
    }
    return nullptr;
  }

 private:
  static std::string shape(const at::Tensor& tensor) {
    std::string text = "[";
    for (int64_t d = 0; d < tensor.dim(); ++d) text += (d ? ", " : "") + std::to_string(tensor.size(d));
    return text + "]";
  }

  // `whole` must hold size() blocks shaped like `block`.
  void check_blocks(OpType op, const at::Tensor& whole, const at::Tensor& block) const {
    if (whole.numel() != block.numel() * size_ || (whole.dim() > 0 && whole.size(0) % size_ != 0)) {
      throw std::invalid_argument(std::string("gloo ") + op_name(op) + ": " + shape(whole) +
                                  " is not " + std::to_string(size_) + " blocks of " + shape(block));
    }
  }

  WorkPtr all_to_all(at::Tensor& output, const at::Tensor& input, std::vector<int64_t> output_splits,
                     std::vector<int64_t> input_splits) {
    Landing landing = landing_for(output);
    at::Tensor source = input.contiguous();
    return track(group_->alltoall_base(landing.buffer, source, output_splits, input_splits),
                 op_name(OpType::kAllToAll), {source, landing.buffer}, landing.copy_back);
  }

  WorkPtr track(c10::intrusive_ptr<c10d::Work> work, const std::string& what,
                std::vector<at::Tensor> keep_alive, std::function<void()> finish = nullptr) {
    return std::make_shared<GlooWork>(std::move(work), what, options_->timeout,
                                      std::move(keep_alive), std::move(finish));
  }

  c10::intrusive_ptr<c10d::Store> store_;
  c10::intrusive_ptr<c10d::ProcessGroupGloo::Options> options_;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group_;
  int rank_;
  int size_;
  int splits_ = 0;
};

}  // namespace

std::unique_ptr<Comm> make_gloo_comm(const c10::intrusive_ptr<c10d::Store>& store,
                                     const RankPlacement& placement,
                                     std::chrono::milliseconds timeout) {
  auto options = c10d::ProcessGroupGloo::Options::create(timeout);
  options->devices.push_back(placement.address.empty()
                                 ? c10d::ProcessGroupGloo::createDefaultDevice()
                                 : c10d::ProcessGroupGloo::createDeviceForHostname(placement.address));
  options->threads = 2;  // as torch.distributed sets it for one device
  auto world = c10::make_intrusive<c10d::PrefixStore>("world/", store);
  return std::make_unique<GlooComm>(world, placement.rank, placement.world, options);
}

}  // namespace uniference
