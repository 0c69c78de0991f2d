#include "compute/generation.h"

#include "compute/compute_label.h"

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>

#include <stdexcept>
#include <string>

namespace uniference {
at::Tensor token_batch(const std::vector<std::vector<int64_t>>& prompts) {
  const int64_t batch = static_cast<int64_t>(prompts.size());
  const int64_t seq = batch == 0 ? 0 : static_cast<int64_t>(prompts.front().size());
  at::Tensor ids = at::empty({batch, seq}, at::TensorOptions().dtype(at::kLong));
  int64_t* out = ids.data_ptr<int64_t>();
  for (const std::vector<int64_t>& prompt : prompts) out = std::copy(prompt.begin(), prompt.end(), out);
  return ids;
}

std::vector<int64_t> greedy_tokens(const at::Tensor& logits) {
  label_compute("sample");
  const at::Tensor ids = logits.reshape({logits.size(0), logits.size(-1)}).argmax(-1).contiguous();
  // Shape-only runs have no numbers to choose from: token 0 stands for every choice.
  if (ids.is_meta()) return std::vector<int64_t>(size_t(ids.numel()), 0);
  const int64_t* data = ids.data_ptr<int64_t>();
  return std::vector<int64_t>(data, data + ids.numel());
}

void check_generation(const std::vector<std::vector<int64_t>>& prompts, int64_t new_tokens,
                      int64_t max_seq) {
  if (prompts.empty() || prompts.front().empty() || new_tokens < 0) {
    throw std::invalid_argument("generate: needs a non-empty prompt and new_tokens >= 0");
  }
  const size_t length = prompts.front().size();
  for (const std::vector<int64_t>& prompt : prompts) {
    if (prompt.size() != length) {
      throw std::invalid_argument("generate: the prompts of a batch must have one length");
    }
  }
  // The last new token is returned but never fed back, so it needs no cache slot.
  const int64_t prompt_len = static_cast<int64_t>(length);
  if (new_tokens > 0 && prompt_len + new_tokens - 1 > max_seq) {
    throw std::invalid_argument("generate: prompt of " + std::to_string(prompt_len) + " + " +
                                std::to_string(new_tokens) + " new tokens exceeds max_seq=" +
                                std::to_string(max_seq));
  }
}

std::vector<std::vector<int64_t>> generate_batch(
    LlamaModel& model, const std::vector<std::vector<int64_t>>& prompts, int64_t new_tokens,
    const std::function<void(int64_t prompt, int64_t step, int64_t token)>& on_token) {
  check_generation(prompts, new_tokens, model.config().max_seq);
  const int64_t prompt_len = static_cast<int64_t>(prompts.front().size());
  std::vector<std::vector<int64_t>> generated(prompts.size());
  if (new_tokens == 0) return generated;
  at::Tensor logits = model.forward(token_batch(prompts), 0, Logits::kLast);
  for (int64_t step = 0; step < new_tokens; ++step) {
    const std::vector<int64_t> tokens = greedy_tokens(logits);
    for (size_t p = 0; p < tokens.size(); ++p) {
      generated[p].push_back(tokens[p]);
      if (on_token) on_token(static_cast<int64_t>(p), step, tokens[p]);
    }
    if (step + 1 < new_tokens) {
      const at::Tensor next =
          at::tensor(at::ArrayRef<int64_t>(tokens), at::TensorOptions().dtype(at::kLong))
              .view({static_cast<int64_t>(tokens.size()), 1});
      logits = model.forward(next, prompt_len + step, Logits::kLast);
    }
  }
  return generated;
}

std::vector<int64_t> generate(LlamaModel& model, const std::vector<int64_t>& prompt,
                              int64_t new_tokens,
                              const std::function<void(int64_t step, int64_t token)>& on_token) {
  std::function<void(int64_t, int64_t, int64_t)> each;
  if (on_token) each = [&](int64_t, int64_t step, int64_t token) { on_token(step, token); };
  return generate_batch(model, {prompt}, new_tokens, each).front();
}

std::vector<int64_t> make_prompt(int64_t length, int64_t vocab, uint64_t seed) {
  if (length < 0 || vocab < 1) throw std::invalid_argument("make_prompt: length >= 0, vocab >= 1");
  // ATen's mt19937 keeps only the low 32 bits of its seed: fold the high half in.
  at::Generator generator =
      at::make_generator<at::CPUGeneratorImpl>((seed ^ (seed >> 32)) & 0xffffffffULL);
  const at::Tensor ids =
      at::randint(vocab, {length}, generator, at::TensorOptions().dtype(at::kLong));
  const int64_t* data = ids.data_ptr<int64_t>();
  return std::vector<int64_t>(data, data + length);
}

uint64_t prompt_seed(uint64_t seed, int64_t index) {
  return seed ^ (uint64_t(index) * 0x9e3779b97f4a7c15ULL);
}

std::vector<std::vector<int64_t>> make_prompts(int64_t batch, int64_t length, int64_t vocab,
                                               uint64_t seed) {
  std::vector<std::vector<int64_t>> prompts;
  for (int64_t i = 0; i < batch; ++i) {
    prompts.push_back(make_prompt(length, vocab, prompt_seed(seed, i)));
  }
  return prompts;
}

}  // namespace uniference
