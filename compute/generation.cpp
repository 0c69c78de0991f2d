#include "compute/generation.h"

#include <ATen/CPUGeneratorImpl.h>

#include <stdexcept>
#include <string>

namespace uniference {
namespace {

at::Tensor as_tensor(const std::vector<int64_t>& ids) {
  return at::tensor(at::ArrayRef<int64_t>(ids), at::TensorOptions().dtype(at::kLong));
}

int64_t argmax_last(const at::Tensor& logits) { return logits[-1].argmax().item<int64_t>(); }

}  // namespace

std::vector<int64_t> generate(LlamaModel& model, const std::vector<int64_t>& prompt,
                              int64_t new_tokens,
                              const std::function<void(int64_t step, int64_t token)>& on_token) {
  const int64_t prompt_len = static_cast<int64_t>(prompt.size());
  if (prompt.empty() || new_tokens < 0) {
    throw std::invalid_argument("generate: needs a non-empty prompt and new_tokens >= 0");
  }
  // The last new token is returned but never fed back, so it needs no cache slot.
  if (new_tokens > 0 && prompt_len + new_tokens - 1 > model.config().max_seq) {
    throw std::invalid_argument(
        "generate: prompt of " + std::to_string(prompt_len) + " + " + std::to_string(new_tokens) +
        " new tokens exceeds max_seq=" + std::to_string(model.config().max_seq));
  }
  std::vector<int64_t> generated;
  if (new_tokens == 0) return generated;
  generated.reserve(new_tokens);
  at::Tensor logits = model.forward(as_tensor(prompt), 0, Logits::kLast);
  for (int64_t step = 0; step < new_tokens; ++step) {
    const int64_t token = argmax_last(logits);
    generated.push_back(token);
    if (on_token) on_token(step, token);
    if (step + 1 < new_tokens) {
      logits = model.forward(as_tensor({token}), prompt_len + step, Logits::kLast);
    }
  }
  return generated;
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

}  // namespace uniference
