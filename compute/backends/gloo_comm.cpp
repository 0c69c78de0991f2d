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

// c10's messages carry a C++ backtrace after the first line; users need the first.
std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// "all_reduce", or "send to rank 3": what failed, for error messages.
std::string describe(OpType op, int peer) {
  std::string text = op_name(op);
  if (op == OpType::kSend) text += " to rank " + std::to_string(peer);
  if (op == OpType::kRecv) text += " from rank " + std::to_string(peer);
  return text;
}

// c10d Works (one, or the receives and sends of an exchange), the buffers they read and
// write, and what to do once all have completed (copy a staged result into the caller's
// tensor).
class GlooWork final : public Work {
 public:
  GlooWork(std::vector<c10::intrusive_ptr<c10d::Work>> works, std::string what,
           std::chrono::milliseconds timeout, std::vector<at::Tensor> keep_alive,
           std::function<void()> finish)
      : works_(std::move(works)),
        what_(std::move(what)),
        timeout_(timeout),
        keep_alive_(std::move(keep_alive)),
        finish_(std::move(finish)) {}

  void wait() override {
    if (done_) return;
    try {
      for (auto& work : works_) work->wait(timeout_);
    } catch (const std::exception& e) {
      throw std::runtime_error("gloo " + what_ + " failed: " + first_line(e.what()));
    }
    if (finish_) finish_();
    done_ = true;
    keep_alive_.clear();
  }

  bool is_completed() override {
    if (done_) return true;
    for (auto& work : works_) {
      if (!work->isCompleted()) return false;
    }
    return true;
  }

 private:
  std::vector<c10::intrusive_ptr<c10d::Work>> works_;
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
           c10::intrusive_ptr<c10d::ProcessGroupGloo::Options> options, GlooExchanges exchanges)
      : store_(std::move(store)),
        options_(std::move(options)),
        rank_(rank),
        size_(size),
        exchanges_(exchanges) {
    try {
      group_ = c10::make_intrusive<c10d::ProcessGroupGloo>(store_, rank, size, options_);
    } catch (const std::exception& e) {
      throw std::runtime_error("gloo: rank " + std::to_string(rank) + " of " + std::to_string(size) +
                               " could not connect to its peers: " + first_line(e.what()));
    }
    wait_for_every_member();
  }

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  std::shared_ptr<Comm> split(const std::vector<int>& ranks) override;

 protected:
  WorkPtr start(const CommCall& call) override {
    switch (call.op) {
      case OpType::kSend:
        return run_send(call.input, call.peer, call.tag);
      case OpType::kRecv:
        return run_recv(call.output, call.peer, call.tag);
      case OpType::kBroadcast:
        return run_broadcast(call.output, call.root);
      case OpType::kAllReduce:
        return run_all_reduce(call.output, call.reduce);
      case OpType::kAllGather:
        return run_all_gather(call.output, call.input);
      case OpType::kBarrier:
        return track(group_->barrier(), op_name(OpType::kBarrier), {});
      case OpType::kReduceScatter:
        return run_reduce_scatter(call.output, call.input, call.reduce);
      case OpType::kAllToAll:
        if (call.input_splits.empty()) return run_all_to_all(call.output, call.input);
        return all_to_all(call.output, call.input, call.output_splits, call.input_splits);
      case OpType::kReduce:
        return run_reduce(call.output, call.root, call.reduce);
      case OpType::kGather:
        return run_gather(call.output, call.input, call.root);
      case OpType::kScatter:
        return run_scatter(call.output, call.input, call.root);
      case OpType::kGatherV:
        return run_gather_v(call.output, call.input, call.input_splits, call.root);
    }
    throw std::logic_error(std::string("gloo: no implementation of ") + op_name(call.op));
  }

 private:
  WorkPtr run_send(const at::Tensor& tensor, int dst, int tag) {
    require_cpu(tensor, OpType::kSend);
    check_user_tag(tag, OpType::kSend);
    std::vector<at::Tensor> tensors{tensor.contiguous()};
    return track(group_->send(tensors, dst, tag), describe(OpType::kSend, dst), tensors);
  }

  WorkPtr run_recv(at::Tensor tensor, int src, int tag) {
    require_cpu(tensor, OpType::kRecv);
    check_user_tag(tag, OpType::kRecv);
    Landing landing = landing_for(tensor);
    std::vector<at::Tensor> tensors{landing.buffer};
    return track(group_->recv(tensors, src, tag), describe(OpType::kRecv, src), tensors,
                 landing.copy_back);
  }

  WorkPtr run_broadcast(at::Tensor tensor, int root) {
    require_cpu(tensor, OpType::kBroadcast);
    Landing landing = landing_for(tensor);
    std::vector<at::Tensor> tensors{landing.buffer};
    c10d::BroadcastOptions options;
    options.rootRank = root;
    return track(group_->broadcast(tensors, options), op_name(OpType::kBroadcast), tensors,
                 landing.copy_back);
  }

  WorkPtr run_all_reduce(at::Tensor tensor, ReduceOp op) {
    require_cpu(tensor, OpType::kAllReduce);
    Landing landing = landing_for(tensor);
    std::vector<at::Tensor> tensors{landing.buffer};
    c10d::AllreduceOptions options;
    options.reduceOp = gloo_reduce(op);
    return track(group_->allreduce(tensors, options), op_name(OpType::kAllReduce), tensors,
                 landing.copy_back);
  }

  WorkPtr run_all_gather(at::Tensor output, const at::Tensor& input) {
    require_cpu(input, OpType::kAllGather);
    require_cpu(output, OpType::kAllGather);
    Landing landing = landing_for(output);
    if (size_ == 2 && exchanges_ == GlooExchanges::kReceiveFirst) {
      // Gloo's ring on a pair is an exchange that races (see exchange); this one does not.
      const at::Tensor mine = input.contiguous().view(-1);
      const std::vector<at::Tensor> slots = blocks(landing.buffer.view(-1), size_);
      slots[size_t(rank_)].copy_(mine);
      auto works = exchange([&](int j) { return slots[size_t(j)]; }, [&](int) { return mine; });
      return track(std::move(works), op_name(OpType::kAllGather), {mine, landing.buffer},
                   landing.copy_back);
    }
    // 1.13's Gloo group has no all_gather_into_tensor: the output's blocks are the list.
    std::vector<std::vector<at::Tensor>> outputs{blocks(landing.buffer, size_)};
    std::vector<at::Tensor> inputs{input.contiguous()};
    return track(group_->allgather(outputs, inputs), op_name(OpType::kAllGather),
                 {inputs[0], landing.buffer}, landing.copy_back);
  }

  WorkPtr run_reduce_scatter(at::Tensor output, const at::Tensor& input, ReduceOp op) {
    require_cpu(input, OpType::kReduceScatter);
    require_cpu(output, OpType::kReduceScatter);
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

  WorkPtr run_all_to_all(at::Tensor output, const at::Tensor& input) {
    require_cpu(input, OpType::kAllToAll);
    require_cpu(output, OpType::kAllToAll);
    if (input.numel() != output.numel() || input.size(0) % size_ != 0) {
      throw std::invalid_argument("gloo all_to_all: input and output must hold " +
                                  std::to_string(size_) + " equal blocks along dim 0 (input " +
                                  shape(input) + ", output " + shape(output) + ")");
    }
    return all_to_all(output, input, {}, {});
  }

  WorkPtr run_reduce(at::Tensor tensor, int root, ReduceOp op) {
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

  WorkPtr run_gather(at::Tensor output, const at::Tensor& input, int root) {
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

  WorkPtr run_scatter(at::Tensor output, const at::Tensor& input, int root) {
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

  // Gloo 1.13 has no gatherv: the root posts a receive for every other rank's rows into its
  // place in the output, and each rank sends its rows, over c10d's point-to-point calls on an
  // exchange tag (empty blocks skipped on both sides alike).
  WorkPtr run_gather_v(at::Tensor output, const at::Tensor& input,
                       const std::vector<int64_t>& splits, int root) {
    require_cpu(input, OpType::kGatherV);
    const at::Tensor mine = input.contiguous().view(-1);
    const int tag = next_exchange_tag();
    std::vector<c10::intrusive_ptr<c10d::Work>> works;
    if (rank_ != root) {
      std::vector<at::Tensor> tensors{mine};
      if (mine.numel() > 0) works.push_back(group_->send(tensors, root, tag));
      return track(std::move(works), op_name(OpType::kGatherV), {mine});
    }
    require_cpu(output, OpType::kGatherV);
    Landing landing = landing_for(output);
    const std::vector<at::Tensor> slots =
        landing.buffer.view(-1).split_with_sizes(block_elements(input, splits));
    slots[size_t(rank_)].copy_(mine);
    for (int j = 0; j < size_; ++j) {
      std::vector<at::Tensor> tensors{slots[size_t(j)]};
      if (j != rank_ && tensors[0].numel() > 0) works.push_back(group_->recv(tensors, j, tag));
    }
    return track(std::move(works), op_name(OpType::kGatherV), {mine, landing.buffer},
                 landing.copy_back);
  }

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

  // Elements of each rank's block of `tensor`: `rows` rows each (splits, which the call's
  // description has checked against the tensor), or size() equal blocks when `rows` is empty.
  std::vector<int64_t> block_elements(const at::Tensor& tensor, const std::vector<int64_t>& rows) const {
    if (rows.empty()) return std::vector<int64_t>(size_t(size_), tensor.numel() / size_);
    int64_t row = 1;
    for (int64_t d = 1; d < tensor.dim(); ++d) row *= tensor.size(d);
    std::vector<int64_t> elements;
    for (int64_t r : rows) elements.push_back(r * row);
    return elements;
  }

  // The tag of the next exchange: every rank of the group takes the same one, since every
  // rank runs the group's collectives in the same order.
  int next_exchange_tag() { return kExchangeTag + int(exchanges_posted_++ % kExchangeTags); }

  // Gloo's alltoall (gloo/alltoall.cc) posts its send to rank + i before its receive from
  // rank - i, and so does its ring all-gather on a pair. On Gloo's TCP pair a receive's ready
  // notice queues behind the data the pair is already writing, so where a rank's send starts
  // first, its peer's data waits for all of it: the two directions of a pair run one after
  // the other, up to twice the time (validation/README.md). An exchange posts every receive,
  // and so writes its notice, before any send: both directions of every pair move at once.
  // `incoming(j)` is where rank j's block lands, `outgoing(j)` what goes to rank j; empty
  // blocks are skipped. The blocks go over c10d's point-to-point calls, on a tag of their own
  // from kExchangeTag on, the same on every rank since every rank runs the group's
  // collectives in the same order.
  std::vector<c10::intrusive_ptr<c10d::Work>> exchange(const std::function<at::Tensor(int)>& incoming,
                                                       const std::function<at::Tensor(int)>& outgoing) {
    const int tag = next_exchange_tag();
    std::vector<c10::intrusive_ptr<c10d::Work>> works;
    for (int i = 1; i < size_; ++i) {
      const int from = (rank_ + size_ - i) % size_;
      std::vector<at::Tensor> tensors{incoming(from)};
      if (tensors[0].numel() > 0) works.push_back(group_->recv(tensors, from, tag));
    }
    for (int i = 1; i < size_; ++i) {
      const int to = (rank_ + i) % size_;
      std::vector<at::Tensor> tensors{outgoing(to)};
      if (tensors[0].numel() > 0) works.push_back(group_->send(tensors, to, tag));
    }
    return works;
  }

  WorkPtr all_to_all(at::Tensor output, const at::Tensor& input, std::vector<int64_t> output_splits,
                     std::vector<int64_t> input_splits) {
    const std::vector<int64_t> in = block_elements(output, output_splits);
    const std::vector<int64_t> out = block_elements(input, input_splits);
    if (in[size_t(rank_)] != out[size_t(rank_)]) {
      throw std::invalid_argument("gloo all_to_all_v: rank " + std::to_string(rank_) + " keeps " +
                                  std::to_string(out[size_t(rank_)]) + " elements of its input but has room for " +
                                  std::to_string(in[size_t(rank_)]) + " of them in its output");
    }
    Landing landing = landing_for(output);
    if (exchanges_ == GlooExchanges::kStock) {
      // Gloo's alltoall, or alltoallv with splits (rows along dim 0), as all_to_all_single.
      at::Tensor source = input.contiguous();
      c10d::AllToAllOptions options;
      return track(group_->alltoall_base(landing.buffer, source, output_splits, input_splits, options),
                   op_name(OpType::kAllToAll), {source, landing.buffer}, landing.copy_back);
    }
    const at::Tensor source = input.contiguous().view(-1);
    const std::vector<at::Tensor> incoming = landing.buffer.view(-1).split_with_sizes(in);
    const std::vector<at::Tensor> outgoing = source.split_with_sizes(out);
    incoming[size_t(rank_)].copy_(outgoing[size_t(rank_)]);
    auto works = exchange([&](int j) { return incoming[size_t(j)]; },
                          [&](int j) { return outgoing[size_t(j)]; });
    return track(std::move(works), op_name(OpType::kAllToAll), {source, landing.buffer},
                 landing.copy_back);
  }

  void check_user_tag(int tag, OpType op) const {
    if (tag < 0 || tag >= kExchangeTag) {
      throw std::invalid_argument(std::string("gloo ") + op_name(op) + ": tag " +
                                  std::to_string(tag) + " is outside 0.." + std::to_string(kExchangeTag - 1) +
                                  " (larger tags carry GlooComm's exchanges)");
    }
  }

  WorkPtr track(c10::intrusive_ptr<c10d::Work> work, const std::string& what,
                std::vector<at::Tensor> keep_alive, std::function<void()> finish = nullptr) {
    std::vector<c10::intrusive_ptr<c10d::Work>> works{std::move(work)};
    return track(std::move(works), what, std::move(keep_alive), std::move(finish));
  }

  // A member that has connected may leave, finish and tear its pairs down while a slower
  // member is still reading its handshake on one of them, which then fails with "connection
  // closed by peer". As torch.distributed's new_group does, nobody leaves construction before
  // every member has connected: a count in the communicator's own store.
  void wait_for_every_member() {
    try {
      if (store_->add("connected", 1) == size_) store_->set("every-member-connected", {1});
      store_->wait({"every-member-connected"}, options_->timeout);
    } catch (const std::exception& e) {
      throw std::runtime_error("gloo: rank " + std::to_string(rank_) + " of " + std::to_string(size_) +
                               " connected, but not every member did: " + first_line(e.what()));
    }
  }

  WorkPtr track(std::vector<c10::intrusive_ptr<c10d::Work>> works, const std::string& what,
                std::vector<at::Tensor> keep_alive, std::function<void()> finish = nullptr) {
    return std::make_shared<GlooWork>(std::move(works), what, options_->timeout,
                                      std::move(keep_alive), std::move(finish));
  }

  c10::intrusive_ptr<c10d::Store> store_;
  c10::intrusive_ptr<c10d::ProcessGroupGloo::Options> options_;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group_;
  int rank_;
  int size_;
  GlooExchanges exchanges_;
  int splits_ = 0;
  uint64_t exchanges_posted_ = 0;  // exchanges so far, for their tags
  static constexpr int kExchangeTag = 1 << 30;
  static constexpr int kExchangeTags = 1 << 30;
};

std::shared_ptr<Comm> GlooComm::split(const std::vector<int>& ranks) {
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
      return std::make_shared<GlooComm>(store, int(i), int(ranks.size()), options_, exchanges_);
    }
  }
  return nullptr;
}

}  // namespace

std::unique_ptr<Comm> make_gloo_comm(const c10::intrusive_ptr<c10d::Store>& store,
                                     const RankPlacement& placement,
                                     std::chrono::milliseconds timeout,
                                     GlooExchanges exchanges) {
  auto options = c10d::ProcessGroupGloo::Options::create(timeout);
  options->devices.push_back(placement.address.empty()
                                 ? c10d::ProcessGroupGloo::createDefaultDevice()
                                 : c10d::ProcessGroupGloo::createDeviceForHostname(placement.address));
  options->threads = 2;  // as torch.distributed sets it for one device
  auto world = c10::make_intrusive<c10d::PrefixStore>("world/", store);
  return std::make_unique<GlooComm>(world, placement.rank, placement.world, options, exchanges);
}

}  // namespace uniference
