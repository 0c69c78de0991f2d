// The bridge's overhead in measured mode: a TP-4 `tiny` prefill of 512 tokens, simulated
// (fibers, SimComm, measured compute, ns-3 TCP), against the same shard code on an in-memory
// Comm that takes no time (four fibers on one thread exchanging tensors through memory).
//
// Accounting: the simulated run's cost is the wall time the kernel spent running LPs
// (Kernel::lp_wall_ns: the shard code and the bridge's work in its calls), so ns-3's own
// packet events are excluded. Model construction is excluded from both sides by running
// each side twice, once building the model only, and taking the difference. Prints the
// ratio (goal: at most 1.05), the median of --reps repetitions.
//
//   measured-overhead [--tokens=512] [--reps=3]
#include "bridge/sim_cluster.h"
#include "compute/llama.h"
#include "compute/model_config.h"

#include <ns3/command-line.h>

#include <boost/fiber/barrier.hpp>
#include <boost/fiber/fiber.hpp>
#include <boost/fiber/fixedsize_stack.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace uniference;

namespace {

constexpr int kRanks = 4;

// A zero-time communicator for ranks that are fibers of one thread: all_reduce and
// all_gather, the operations a TP forward pass makes, through shared memory.
class InMemoryComm : public Comm {
 public:
  struct Shared {
    explicit Shared(int n) : barrier(size_t(n)), slots(size_t(n)) {}
    boost::fibers::barrier barrier;
    std::vector<at::Tensor> slots;
  };
  InMemoryComm(Shared& shared, int rank) : shared_(shared), rank_(rank) {}

  int rank() const override { return rank_; }
  int size() const override { return int(shared_.slots.size()); }

  std::shared_ptr<Comm> split(const std::vector<int>&) override {
    throw std::logic_error("InMemoryComm: split is not needed by a TP forward pass");
  }

 protected:
  WorkPtr start(const CommCall& call) override {
    if (call.op == OpType::kAllReduce) {
      exchange(call.output);
      at::Tensor sum = shared_.slots[0].clone();
      for (size_t r = 1; r < shared_.slots.size(); ++r) sum.add_(shared_.slots[r]);
      shared_.barrier.wait();  // everyone has read the slots
      at::Tensor tensor = call.output;
      tensor.copy_(sum);
      return done();
    }
    if (call.op == OpType::kAllGather) {
      exchange(call.input);
      at::Tensor output = call.output;
      at::cat_out(output, shared_.slots, 0);
      shared_.barrier.wait();
      return done();
    }
    throw std::logic_error(std::string("InMemoryComm: ") + op_name(call.op) +
                           " is not needed by a TP forward pass");
  }

 private:
  struct Done : Work {
    void wait() override {}
    bool is_completed() override { return true; }
  };
  void exchange(const at::Tensor& tensor) {
    shared_.slots[size_t(rank_)] = tensor.contiguous();
    shared_.barrier.wait();
  }
  static WorkPtr done() { return std::make_shared<Done>(); }

  Shared& shared_;
  int rank_;
};

double seconds(int64_t ns) { return double(ns) / 1e9; }

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// One rank's shard code: build its TP shard, then (unless build_only) prefill.
void shard(Comm& comm, int64_t tokens, bool build_only) {
  const ModelConfig config = model_preset("tiny");
  LlamaModel model(config, 1, &comm);
  if (build_only) return;
  model.forward(at::arange(tokens, at::TensorOptions().dtype(at::kLong)), 0, Logits::kLast);
}

// Wall time of the four ranks on the in-memory Comm (a thread of its own, so its fibers
// use Boost's own scheduler).
int64_t in_memory_ns(int64_t tokens, bool build_only) {
  int64_t elapsed = 0;
  std::thread([&] {
    InMemoryComm::Shared shared(kRanks);
    const int64_t start = now_ns();
    std::vector<boost::fibers::fiber> fibers;
    for (int r = 0; r < kRanks; ++r) {
      // libtorch's kernels need more stack than a fiber's default.
      fibers.emplace_back(std::allocator_arg, boost::fibers::fixedsize_stack(1 << 20), [&, r] {
        InMemoryComm comm(shared, r);
        shard(comm, tokens, build_only);
      });
    }
    for (auto& fiber : fibers) fiber.join();
    elapsed = now_ns() - start;
  }).join();
  return elapsed;
}

// Wall time the kernel spent in LPs for the simulated run.
int64_t simulated_ns(int64_t tokens, bool build_only) {
  KernelConfig kernel;
  kernel.account_lp_wall = true;
  SimCluster cluster(NetworkConfig{}, kernel);
  for (int r = 0; r < kRanks; ++r) {
    cluster.add_rank(make_measured_meter(1.0), [&](Comm& comm) { shard(comm, tokens, build_only); });
  }
  const RunOutcome outcome = cluster.run();
  if (outcome.status != RunOutcome::Status::kCompleted) throw std::runtime_error(outcome.report);
  return cluster.kernel().lp_wall_ns();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int64_t tokens = 512;
  int reps = 3;
  ns3::CommandLine cmd(__FILE__);
  cmd.AddValue("tokens", "prompt tokens of the prefill", tokens);
  cmd.AddValue("reps", "repetitions (the median is printed)", reps);
  cmd.Parse(argc, argv);
  try {
    in_memory_ns(tokens, false);  // warm-up: allocator, thread pools
    std::vector<double> simulated, in_memory, ratio;
    for (int i = 0; i < reps; ++i) {
      const int64_t sim = simulated_ns(tokens, false) - simulated_ns(tokens, true);
      const int64_t mem = in_memory_ns(tokens, false) - in_memory_ns(tokens, true);
      simulated.push_back(seconds(sim));
      in_memory.push_back(seconds(mem));
      ratio.push_back(double(sim) / double(mem));
    }
    std::printf("TP-4 tiny prefill of %lld tokens, measured compute, median of %d\n",
                static_cast<long long>(tokens), reps);
    std::printf("  simulated, wall time in LPs      %8.3f s\n", median(simulated));
    std::printf("  in-memory zero-time Comm         %8.3f s\n", median(in_memory));
    std::printf("  overhead ratio                   %8.3f (goal: at most 1.05)\n", median(ratio));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "measured-overhead: %s\n", e.what());
    return 1;
  }
  return 0;
}
