// NcclComm against what the Comm interface promises. Every test that needs NCCL and a GPU
// skips with the reason where they are missing; the first test runs everywhere and checks
// that reason. One-rank tests need one GPU; two-rank tests run each rank on a thread and a
// GPU of its own, in one process.
#include "compute/backends/nccl_comm.h"

#include "compute/generation.h"
#include "compute/llama.h"
#include "compute/model_config.h"
#include "compute/strategy.h"

#include <torch/csrc/distributed/c10d/HashStore.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace uniference {
namespace {

constexpr std::chrono::milliseconds kTimeout{60000};
constexpr uint64_t kSeed = 77;
constexpr int64_t kPromptTokens = 12;
constexpr int64_t kNewTokens = 4;

#define SKIP_WITHOUT_NCCL()                                       \
  if (const std::string why = nccl_unavailable(); !why.empty()) { \
    GTEST_SKIP() << why;                                          \
  }

#define SKIP_WITHOUT_TWO_GPUS()                                                                   \
  SKIP_WITHOUT_NCCL();                                                                            \
  if (const int gpus = visible_gpu_count(); gpus < 2) {                                           \
    GTEST_SKIP() << "two ranks need two GPUs (NCCL drives one per rank); " << gpus << " visible"; \
  }

RankPlacement placement(int rank, int world) {
  RankPlacement p;
  p.rank = rank;
  p.world = world;
  p.local_rank = rank;  // one GPU per rank, all in this process
  return p;
}

std::unique_ptr<Comm> one_rank_comm() {
  return make_nccl_comm(c10::make_intrusive<c10d::HashStore>(), placement(0, 1), kTimeout);
}

// body(comm) on `world` ranks, each on a thread and GPU of its own, meeting in one store.
// Returns each rank's error ("" where it finished).
std::vector<std::string> run_ranks(int world, const std::function<void(Comm&)>& body,
                                   std::chrono::milliseconds timeout = kTimeout) {
  auto store = c10::make_intrusive<c10d::HashStore>();
  std::vector<std::string> errors(static_cast<size_t>(world));
  std::vector<std::thread> threads;
  for (int rank = 0; rank < world; ++rank) {
    threads.emplace_back([&, rank] {
      try {
        std::unique_ptr<Comm> comm = make_nccl_comm(store, placement(rank, world), timeout);
        body(*comm);
      } catch (const std::exception& e) {
        errors[size_t(rank)] = e.what();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  return errors;
}

void expect_all_finished(const std::vector<std::string>& errors) {
  for (size_t rank = 0; rank < errors.size(); ++rank) {
    EXPECT_EQ(errors[rank], "") << "rank " << rank;
  }
}

at::Tensor counting(at::ScalarType type, std::vector<int64_t> sizes = {2, 3}) {
  int64_t numel = 1;
  for (int64_t s : sizes) numel *= s;
  return at::arange(numel, at::TensorOptions().dtype(at::kLong)).view(sizes).to(type);
}

// The single device's tokens for each prompt of a batch made by make_prompts: each
// prompt alone on a whole model, no communicator at all.
std::vector<std::vector<int64_t>> reference_tokens(int64_t batch) {
  const ModelConfig config = model_preset("tiny");
  const auto prompts = make_prompts(batch, kPromptTokens, config.vocab, kSeed);
  std::vector<std::vector<int64_t>> tokens;
  for (const auto& prompt : prompts) {
    LlamaModel model(config, kSeed);
    tokens.push_back(generate(model, prompt, kNewTokens));
  }
  return tokens;
}

// The `tp` strategy over the given rank's communicator; `tokens` gets what rank 0 reports.
void run_tensor_parallel(Comm& world, int tp, int64_t batch, std::mutex& mutex,
                         std::map<int64_t, std::vector<int64_t>>& tokens) {
  const Strategy& strategy = strategies().at("tp");
  StrategyInputs inputs;
  inputs.model = model_preset("tiny");
  inputs.seed = kSeed;
  inputs.prompts = make_prompts(batch, kPromptTokens, inputs.model.vocab, kSeed);
  inputs.new_tokens = kNewTokens;
  inputs.degrees.tp = tp;
  const StrategyProblem problem = check_strategy(strategy, inputs.model, inputs.degrees,
                                                 WorkloadShape{batch, kPromptTokens, kNewTokens});
  if (!problem.detail.empty()) throw std::invalid_argument(problem.key + ": " + problem.detail);
  inputs.on_token = [&](int64_t prompt, int64_t step, int64_t token) {
    std::lock_guard<std::mutex> lock(mutex);
    EXPECT_EQ(int64_t(tokens[prompt].size()), step) << "prompt " << prompt << " out of order";
    tokens[prompt].push_back(token);
  };
  run_strategy(strategy, world, inputs);
}

void expect_reference_tokens(const std::map<int64_t, std::vector<int64_t>>& tokens, int64_t batch) {
  const auto expected = reference_tokens(batch);
  ASSERT_EQ(int64_t(tokens.size()), batch) << "every prompt reported";
  for (int64_t p = 0; p < batch; ++p)
    EXPECT_EQ(tokens.at(p), expected[size_t(p)]) << "prompt " << p;
}

TEST(NcclBackend, SaysWhyItIsUnavailable) {
  const std::string why = nccl_unavailable();
  if (!nccl_compiled_in()) {
    EXPECT_NE(why.find("docs/nccl.md"), std::string::npos) << why;
    EXPECT_EQ(nccl_version_text(), "");
  } else {
    EXPECT_EQ(nccl_version_text().rfind("NCCL 2.", 0), 0u) << nccl_version_text();
    if (!why.empty()) {
      EXPECT_NE(why.find("GPU"), std::string::npos) << why;
    }
  }
  if (why.empty()) return;  // NCCL and a GPU: nothing to refuse
  try {
    one_rank_comm();
    FAIL() << "made an NCCL communicator although: " << why;
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
  }
}

TEST(NcclOneRank, AllReduceOfOneRankIsItsInputForEveryType) {
  SKIP_WITHOUT_NCCL();
  std::unique_ptr<Comm> comm = one_rank_comm();
  EXPECT_EQ(comm->rank(), 0);
  EXPECT_EQ(comm->size(), 1);
  for (at::ScalarType type : {at::kFloat, at::kDouble, at::kHalf, at::kBFloat16, at::kInt,
                              at::kLong, at::kByte, at::kChar}) {
    for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kMax, ReduceOp::kMin}) {
      at::Tensor tensor = counting(type);
      comm->all_reduce(tensor, op);
      EXPECT_TRUE(tensor.equal(counting(type))) << c10::toString(type);
    }
  }
  at::Tensor tensor = counting(at::kFloat);
  WorkPtr work = comm->iall_reduce(tensor);
  work->wait();
  EXPECT_TRUE(work->is_completed());
  EXPECT_TRUE(tensor.equal(counting(at::kFloat)));
}

TEST(NcclOneRank, EveryCollectiveOfOneRankCopiesItsInput) {
  SKIP_WITHOUT_NCCL();
  std::unique_ptr<Comm> comm = one_rank_comm();
  const at::Tensor input = counting(at::kFloat, {4, 3});

  at::Tensor gathered = empty_gather_output(input, 1);
  comm->all_gather(gathered, input);
  EXPECT_TRUE(gathered.equal(input)) << "all_gather";

  at::Tensor strided = at::zeros({3, 4}).t();  // not contiguous: written back with copy_
  comm->all_gather(strided, input);
  EXPECT_TRUE(strided.equal(input)) << "all_gather into a transposed output";

  at::Tensor broadcast = input.clone();
  comm->broadcast(broadcast, 0);
  EXPECT_TRUE(broadcast.equal(input)) << "broadcast";

  at::Tensor scattered_sum = at::zeros_like(input);
  comm->reduce_scatter(scattered_sum, input);
  EXPECT_TRUE(scattered_sum.equal(input)) << "reduce_scatter";

  at::Tensor exchanged = at::zeros_like(input);
  comm->all_to_all(exchanged, input);
  EXPECT_TRUE(exchanged.equal(input)) << "all_to_all";

  at::Tensor uneven = at::zeros_like(input);
  comm->all_to_all_v(uneven, input, {4}, {4});
  EXPECT_TRUE(uneven.equal(input)) << "all_to_all_v";

  at::Tensor reduced = input.clone();
  comm->reduce(reduced, 0);
  EXPECT_TRUE(reduced.equal(input)) << "reduce";

  at::Tensor gathered_at_root = at::zeros_like(input);
  comm->gather(gathered_at_root, input, 0);
  EXPECT_TRUE(gathered_at_root.equal(input)) << "gather";

  at::Tensor scattered = at::zeros_like(input);
  comm->scatter(scattered, input, 0);
  EXPECT_TRUE(scattered.equal(input)) << "scatter";

  at::Tensor gathered_rows = at::zeros_like(input);
  comm->gather_v(gathered_rows, input, {4}, 0);
  EXPECT_TRUE(gathered_rows.equal(input)) << "gather_v";

  comm->barrier();
}

TEST(NcclOneRank, RefusesWhatTheInterfaceDoesNotAllow) {
  SKIP_WITHOUT_NCCL();
  std::unique_ptr<Comm> comm = one_rank_comm();
  const at::Tensor input = counting(at::kFloat);
  at::Tensor too_small = at::zeros({5});
  try {
    comm->all_gather(too_small, input);
    FAIL() << "all_gather into 5 elements";
  } catch (const std::invalid_argument& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find("all_gather"), std::string::npos) << text;
    EXPECT_NE(text.find("has 5 elements, expected 6"), std::string::npos) << text;
  }
  at::Tensor flags = at::zeros({3}, at::TensorOptions().dtype(at::kBool));
  try {
    comm->all_reduce(flags);
    FAIL() << "all_reduce of bool";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("Bool"), std::string::npos) << e.what();
  }
  EXPECT_THROW(comm->send(input, 0), std::invalid_argument);
  EXPECT_THROW(comm->split({0, 1}), std::invalid_argument);
  at::Tensor meta = at::empty({2}, at::TensorOptions().device(at::kMeta));
  EXPECT_THROW(comm->all_reduce(meta), std::invalid_argument);
}

TEST(NcclOneRank, SplitMakesAGroupThatWorks) {
  SKIP_WITHOUT_NCCL();
  std::unique_ptr<Comm> comm = one_rank_comm();
  std::shared_ptr<Comm> group = comm->split({0});
  ASSERT_NE(group, nullptr);
  EXPECT_EQ(group->rank(), 0);
  EXPECT_EQ(group->size(), 1);
  at::Tensor tensor = counting(at::kFloat);
  group->all_reduce(tensor);
  EXPECT_TRUE(tensor.equal(counting(at::kFloat)));
}

TEST(NcclOneRank, TensorParallelStrategyGeneratesTheSingleDeviceTokens) {
  SKIP_WITHOUT_NCCL();
  std::unique_ptr<Comm> comm = one_rank_comm();
  std::mutex mutex;
  std::map<int64_t, std::vector<int64_t>> tokens;
  run_tensor_parallel(*comm, /*tp=*/1, /*batch=*/2, mutex, tokens);
  expect_reference_tokens(tokens, 2);
}

TEST(NcclTwoRanks, CollectivesCombineBothRanks) {
  SKIP_WITHOUT_TWO_GPUS();
  expect_all_finished(run_ranks(2, [](Comm& comm) {
    const int rank = comm.rank();
    at::Tensor summed = at::full({4}, float(rank + 1));
    comm.all_reduce(summed);
    EXPECT_TRUE(summed.equal(at::full({4}, 3.0f))) << "all_reduce on rank " << rank;

    const at::Tensor mine = at::full({2, 2}, int64_t(rank), at::TensorOptions().dtype(at::kLong));
    at::Tensor gathered = empty_gather_output(mine, 2);
    comm.all_gather(gathered, mine);
    EXPECT_TRUE(gathered.equal(at::cat({at::zeros_like(mine), at::ones_like(mine)})));

    // Rank 0 sends 1 row to itself and 2 to rank 1; rank 1 sends 3 rows to 0 and none to 1.
    const std::vector<int64_t> input_splits =
        rank == 0 ? std::vector<int64_t>{1, 2} : std::vector<int64_t>{3, 0};
    const std::vector<int64_t> output_splits =
        rank == 0 ? std::vector<int64_t>{1, 3} : std::vector<int64_t>{2, 0};
    const at::Tensor rows = at::full({3, 2}, float(rank));
    at::Tensor received = at::empty({output_splits[0] + output_splits[1], 2});
    comm.all_to_all_v(received, rows, output_splits, input_splits);
    EXPECT_TRUE(received.equal(rank == 0 ? at::cat({at::zeros({1, 2}), at::ones({3, 2})})
                                         : at::zeros({2, 2})))
        << "all_to_all_v on rank " << rank;

    if (rank == 0) {
      comm.send(at::arange(5, at::TensorOptions().dtype(at::kFloat)), 1);
    } else {
      at::Tensor message = at::zeros({5});
      comm.recv(message, 0);
      EXPECT_TRUE(message.equal(at::arange(5, at::TensorOptions().dtype(at::kFloat))));
    }

    at::Tensor at_root = rank == 1 ? at::empty({2, 3}) : at::Tensor();
    comm.gather(at_root, at::full({1, 3}, float(rank)), 1);
    if (rank == 1) {
      EXPECT_TRUE(at_root.equal(at::cat({at::zeros({1, 3}), at::ones({1, 3})}))) << "gather";
    }

    std::shared_ptr<Comm> alone = comm.split({1});
    EXPECT_EQ(alone == nullptr, rank == 0);
    if (alone) {
      EXPECT_EQ(alone->rank(), 0);
    }
    comm.barrier();
  }));
}

// gather_v: rank 0 gives two rows, rank 1 one; root 0 holds them in rank order.
TEST(NcclTwoRanks, GatherVConcatenatesRowsOfDifferentCounts) {
  SKIP_WITHOUT_TWO_GPUS();
  expect_all_finished(run_ranks(2, [](Comm& comm) {
    const int rank = comm.rank();
    const std::vector<int64_t> splits = {2, 1};
    const at::Tensor mine = at::full({splits[size_t(rank)], 3}, float(rank + 1));
    at::Tensor at_root = rank == 0 ? at::empty({3, 3}) : at::Tensor();
    comm.gather_v(at_root, mine, splits, 0);
    if (rank == 0) {
      EXPECT_TRUE(at_root.equal(at::cat({at::full({2, 3}, 1.0f), at::full({1, 3}, 2.0f)})))
          << at_root;
    }
  }));
}

TEST(NcclTwoRanks, TensorParallelStrategyGeneratesTheSingleDeviceTokens) {
  SKIP_WITHOUT_TWO_GPUS();
  std::mutex mutex;
  std::map<int64_t, std::vector<int64_t>> tokens;
  expect_all_finished(run_ranks(
      2, [&](Comm& comm) { run_tensor_parallel(comm, /*tp=*/2, /*batch=*/2, mutex, tokens); }));
  expect_reference_tokens(tokens, 2);
}

TEST(NcclTwoRanks, AnUnmatchedRecvTimesOutNamingItsPeer) {
  SKIP_WITHOUT_TWO_GPUS();
  // Both ranks wait for a message the other never sends; each aborts its communicator.
  const auto errors = run_ranks(
      2,
      [](Comm& comm) {
        at::Tensor message = at::zeros({4});
        comm.recv(message, 1 - comm.rank());
      },
      std::chrono::milliseconds(1000));
  for (int rank = 0; rank < 2; ++rank) {
    const std::string& text = errors[size_t(rank)];
    EXPECT_NE(text.find("recv from rank " + std::to_string(1 - rank)), std::string::npos) << text;
    EXPECT_NE(text.find("1000 ms"), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace uniference
