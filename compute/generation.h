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

// length token ids uniform in [0, vocab), from a generator of its own seeded by seed.
std::vector<int64_t> make_prompt(int64_t length, int64_t vocab, uint64_t seed);

}  // namespace uniference
