#include "compute/replay_profile.h"

#include "compute/compute_meter.h"
#include "compute/generation.h"
#include "compute/llama.h"

#include <algorithm>
#include <stdexcept>

namespace uniference {

ReplayTable profile_model(const ModelConfig& model, uint64_t seed, const ProfileShapes& shapes) {
  if (shapes.max_prompt < 1 || shapes.max_batch < 1 || shapes.repeats < 1) {
    throw std::invalid_argument("profile: max_prompt, max_batch and repeats must be >= 1");
  }
  if (shapes.max_prompt + 1 > model.max_seq) {
    throw std::invalid_argument("profile: a prompt of " + std::to_string(shapes.max_prompt) +
                                " does not fit the model's context of " +
                                std::to_string(model.max_seq));
  }
  LlamaModel llama(model, seed, ModelShard{TpGroup{}, 0, -1,
                                           CacheShape{shapes.max_batch, shapes.max_prompt + 1}});
  std::vector<OperatorTiming> timings;
  const std::unique_ptr<ComputeMeter> meter = make_recording_meter(&timings);
  const auto timed = [&](const at::Tensor& ids, const SequenceRows& rows) {
    for (int r = 0; r < shapes.repeats; ++r) {
      meter->begin();
      llama.greedy_next(llama.forward_layers_rows(llama.embed(ids, 0), rows));
      meter->end();
    }
  };
  for (int64_t length = 1;; length = std::min(length * 2, shapes.max_prompt)) {
    timed(token_batch({make_prompt(length, model.vocab, seed)}), SequenceRows{{0}, {0}});
    if (length == shapes.max_prompt) break;
  }
  // Decode: one new position per sequence after a prompt of max_prompt.
  for (int64_t batch = 1;; batch = std::min(batch * 2, shapes.max_batch)) {
    SequenceRows rows;
    std::vector<std::vector<int64_t>> ids;
    for (int64_t b = 0; b < batch; ++b) {
      rows.slots.push_back(b);
      rows.starts.push_back(shapes.max_prompt);
      ids.push_back({b % model.vocab});
    }
    timed(token_batch(ids), rows);
    if (batch == shapes.max_batch) break;
  }
  return ReplayTable::from_timings(timings);
}

}  // namespace uniference
