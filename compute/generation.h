// Greedy decoding over a LlamaModel, the workload of a serving step.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "compute/llama.h"

namespace uniference {

// Prefills the whole prompt (positions 0..), then runs new_tokens - 1 decode steps of one
// token each; token i is the argmax of the last logits. Returns the new tokens (not the
// prompt). on_token(step, token) is called as soon as each token is known: step 0 right
// after the prefill. Throws std::invalid_argument for an empty prompt, a negative count,
// or a sequence longer than the model's max_seq.
std::vector<int64_t> generate(
    LlamaModel& model, const std::vector<int64_t>& prompt, int64_t new_tokens,
    const std::function<void(int64_t step, int64_t token)>& on_token = {});

// Prompts of one length served together as a batch: prefill of all, then one decode step
// per new token for all. Returns the new tokens of each prompt; on_token(prompt, step,
// token) is called as soon as each is known. The model's KV cache must hold the batch.
std::vector<std::vector<int64_t>> generate_batch(
    LlamaModel& model, const std::vector<std::vector<int64_t>>& prompts, int64_t new_tokens,
    const std::function<void(int64_t prompt, int64_t step, int64_t token)>& on_token = {});

// The greedy choice for each row of logits [batch, 1, vocab] (or [batch, vocab]); 0 for
// every row of meta logits (shape-only runs).
std::vector<int64_t> greedy_tokens(const at::Tensor& logits);

// Checks a batch of prompts against a model's context: non-empty, one length, and room for
// new_tokens after it. Throws std::invalid_argument saying what is wrong.
void check_generation(const std::vector<std::vector<int64_t>>& prompts, int64_t new_tokens,
                      int64_t max_seq);

// The prompts as an int64 [batch, seq] tensor.
at::Tensor token_batch(const std::vector<std::vector<int64_t>>& prompts);

// length token ids uniform in [0, vocab), from a generator of its own seeded by seed.
std::vector<int64_t> make_prompt(int64_t length, int64_t vocab, uint64_t seed);

// The seed of prompt number `index` of a workload seeded by `seed`.
uint64_t prompt_seed(uint64_t seed, int64_t index);

// `batch` prompts of `length` ids: prompt 0 is make_prompt(length, vocab, seed), and each
// later one comes from a seed of its own derived from seed and its index.
std::vector<std::vector<int64_t>> make_prompts(int64_t batch, int64_t length, int64_t vocab,
                                               uint64_t seed);

}  // namespace uniference
