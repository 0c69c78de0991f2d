#include "compute/strategies/voltage.h"

#include "compute/compute_label.h"
#include "compute/generation.h"
#include "compute/llama.h"
#include "compute/strategies/pipeline_parallel.h"

#include <string>

namespace uniference {

namespace {

// The all-gather of every rank's output slice [batch, own positions, dim] into the whole
// [batch, positions, dim]. Comm gathers along dim 0 in equal blocks, so each rank sends its
// slice position-major and padded to the largest slice; the padding is dropped after.
class SliceGather {
 public:
  SliceGather(Comm& comm, const at::Tensor& slice, const std::vector<int64_t>& bounds)
      : bounds_(bounds) {
    int64_t largest = 0;
    for (size_t r = 0; r + 1 < bounds.size(); ++r) largest = std::max(largest, bounds[r + 1] - bounds[r]);
    const int64_t batch = slice.size(0), dim = slice.size(2);
    input_ = at::zeros({largest, batch, dim}, slice.options());
    input_.narrow(0, 0, slice.size(1)).copy_(slice.transpose(0, 1));
    output_ = empty_gather_output(input_, comm.size());
    work_ = comm.iall_gather(output_, input_);
  }

  // Waits for the gather; the whole [batch, positions, dim].
  at::Tensor finish() {
    work_->wait();
    const int64_t largest = input_.size(0);
    std::vector<at::Tensor> parts;
    for (size_t r = 0; r + 1 < bounds_.size(); ++r) {
      parts.push_back(output_.narrow(0, int64_t(r) * largest, bounds_[r + 1] - bounds_[r]));
    }
    return at::cat(parts, 0).transpose(0, 1).contiguous();
  }

 private:
  std::vector<int64_t> bounds_;
  at::Tensor input_, output_;
  WorkPtr work_;
};

// One forward pass of `ids` [batch, positions] at start_pos.. on every rank; returns the
// logits of the last position, the same on every rank.
at::Tensor forward_positions(Comm& comm, LlamaModel& model, const at::Tensor& ids,
                             int64_t start_pos, bool overlap) {
  const int64_t positions = ids.size(1);
  const std::vector<int64_t> bounds = even_split(positions, comm.size());
  const int64_t own_first = bounds[comm.rank()], own = bounds[comm.rank() + 1] - own_first;
  const int64_t end_pos = start_pos + positions;

  at::Tensor whole = model.embed(ids, start_pos);  // every position: each rank has the ids
  at::Tensor slice = whole.narrow(1, own_first, own);
  std::optional<SliceGather> gather;
  for (int64_t l = 0; l < model.config().n_layers; ++l) {
    DecoderLayer& layer = model.layer(l);
    Attention& attention = layer.attention();
    at::Tensor q;
    // Kilovolts: the query needs only this rank's slice, so it is computed while the
    // gather of the whole input is still in flight.
    if (overlap) q = attention.query(layer.attention_normed(slice), start_pos + own_first, model.rope());
    if (gather) {
      whole = gather->finish();
      gather.reset();
    }
    if (!overlap) q = attention.query(layer.attention_normed(slice), start_pos + own_first, model.rope());
    attention.store_keys_values(layer.attention_normed(whole), start_pos, model.rope(), CacheSlots{});
    const at::Tensor h = slice + attention.attend(q, start_pos + own_first, end_pos, CacheSlots{});
    slice = h + layer.mlp(layer.ffn_normed(h));
    label_compute(layer_label(l, "all_gather"));
    gather.emplace(comm, slice, bounds);
    if (!overlap) {
      whole = gather->finish();
      gather.reset();
    }
  }
  if (gather) whole = gather->finish();
  return model.logits(whole, Logits::kLast);
}

void run_positions(const ParallelState& state, const StrategyInputs& in, bool overlap) {
  Comm& group = state.sequence_parallel_group();
  ModelShard shard;  // the whole model on every rank
  shard.cache = CacheShape{int64_t(in.prompts.size()), cache_length(in)};
  shard.shapes_only = in.shapes_only;
  LlamaModel model(in.model, in.seed, shard);
  // A rank's queries are its slice; its keys and values, and the gathered input, are whole.
  const int64_t prompt = int64_t(in.prompts.front().size());
  const int64_t slice = (prompt + group.size() - 1) / group.size();
  model_built(in, model, int64_t(in.prompts.size()), slice, cache_length(in));
  check_generation(in.prompts, in.new_tokens, in.model.max_seq);
  const bool reports = group.rank() == 0 && in.on_token;
  const int64_t prompt_tokens = prompt;
  at::Tensor ids = token_batch(in.prompts);
  at::NoGradGuard no_grad;
  for (int64_t step = 0; step < in.new_tokens; ++step) {
    const int64_t start_pos = step == 0 ? 0 : prompt_tokens + step - 1;
    const std::vector<int64_t> tokens =
        greedy_tokens(forward_positions(group, model, ids, start_pos, overlap));
    for (size_t p = 0; p < tokens.size() && reports; ++p) in.on_token(int64_t(p), step, tokens[p]);
    ids = at::tensor(at::ArrayRef<int64_t>(tokens), at::TensorOptions().dtype(at::kLong))
              .view({int64_t(tokens.size()), 1});
  }
}

Strategy positions_strategy(const char* name, const char* description, bool overlap) {
  Strategy s;
  s.name = name;
  s.description = description;
  s.check = [](const ModelConfig&, const ParallelDegrees& d, const WorkloadShape&) {
    return require_defaults(d, {"tp", "pp", "micro_batches", "stages"},
                            "Voltage replicates the weights and partitions positions only "
                            "(/parallel/sp)");
  };
  s.groups.sequence = true;  // the whole replica: no split of its own
  s.run = [overlap](const ParallelState& state, const StrategyInputs& in) {
    run_positions(state, in, overlap);
  };
  return s;
}

}  // namespace

Strategy voltage_strategy() {
  return positions_strategy(
      "voltage", "Voltage: positions partitioned over /parallel/sp ranks, one all-gather per layer",
      /*overlap=*/false);
}

Strategy kilovolts_strategy() {
  return positions_strategy(
      "kilovolts",
      "Voltage with each layer's all-gather overlapped with the next layer's query projection",
      /*overlap=*/true);
}

}  // namespace uniference
