// Tensor parallelism over SimComm must compute what one device computes: the same
// greedy tokens, and logits equal within float tolerance (the TP all-reduces sum
// partial products in a different order than one big matmul).
#include "compute/generation.h"
#include "compute/llama.h"
#include "compute/model_config.h"
#include "test_support.h"

#include <gtest/gtest.h>

namespace uniference::test {
namespace {

constexpr uint64_t kSeed = 1234;
constexpr int64_t kPromptTokens = 12;
constexpr int64_t kNewTokens = 6;

struct Reference {
  std::vector<int64_t> tokens;
  at::Tensor prefill_logits;
};

Reference single_device() {
  ModelConfig config = model_preset("tiny");
  LlamaModel model(config, kSeed, nullptr);
  auto prompt = make_prompt(kPromptTokens, config.vocab, kSeed);
  Reference ref;
  ref.prefill_logits = model.forward(at::tensor(prompt, at::kLong), 0);
  LlamaModel fresh(config, kSeed, nullptr);
  ref.tokens = generate(fresh, prompt, kNewTokens);
  return ref;
}

class TensorParallel : public ::testing::TestWithParam<int> {};

TEST_P(TensorParallel, GeneratesTheSingleDeviceTokens) {
  const int tp = GetParam();
  Reference ref = single_device();
  ModelConfig config = model_preset("tiny");
  auto prompt = make_prompt(kPromptTokens, config.vocab, kSeed);

  std::vector<std::vector<int64_t>> tokens(static_cast<size_t>(tp));
  std::vector<at::Tensor> logits(static_cast<size_t>(tp));
  auto outcome = run_star(tp, NetworkConfig{}, [&](Comm& comm) {
    LlamaModel model(config, kSeed, &comm);
    logits[static_cast<size_t>(comm.rank())] = model.forward(at::tensor(prompt, at::kLong), 0);
    LlamaModel fresh(config, kSeed, &comm);
    tokens[static_cast<size_t>(comm.rank())] = generate(fresh, prompt, kNewTokens);
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  ASSERT_EQ(ref.tokens.size(), size_t(kNewTokens));
  for (int r = 0; r < tp; ++r) {
    EXPECT_EQ(tokens[static_cast<size_t>(r)], ref.tokens) << "rank " << r;
    EXPECT_TRUE(at::allclose(logits[static_cast<size_t>(r)], ref.prefill_logits, 1e-4, 1e-4))
        << "rank " << r << " max diff "
        << (logits[static_cast<size_t>(r)] - ref.prefill_logits).abs().max().item<float>();
  }
}

INSTANTIATE_TEST_SUITE_P(Degrees, TensorParallel, ::testing::Values(2, 4));

}  // namespace
}  // namespace uniference::test
