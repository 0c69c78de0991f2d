#include "compute/memory_estimate.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "compute/strategies/pipeline_parallel.h"

namespace uniference {
namespace {

constexpr uint64_t kBytes = sizeof(float);  // LlamaModel holds everything in float32

// What one rank builds (its LlamaModel's ModelShard), and the arguments its strategy passes
// model_built for the activation estimate.
struct RankShard {
  int tp = 1;  // the tensor-parallel degree its layers are cut by
  int64_t first_layer = 0;
  int64_t end_layer = 0;
  int ep = 1;  // the ranks its MoE layers' routed experts are spread over
  CacheShape cache;
  int64_t batch = 0, queries = 0, keys = 0;  // activation_bytes(batch, queries, keys)
};

// DecoderLayer::weight_bytes of layer `layer` cut by tp, its experts spread over ep.
uint64_t layer_weight_bytes(const ModelConfig& m, int64_t layer, int tp, int ep) {
  const uint64_t dim = uint64_t(m.dim);
  const uint64_t q = uint64_t(m.n_heads * m.head_dim() / tp);
  const uint64_t kv = uint64_t(m.n_kv_heads * m.head_dim() / tp);
  // Two norms [dim]; wq and wo (q features by dim, columns and rows), wk and wv.
  uint64_t elements = 2 * dim + 2 * q * dim + 2 * kv * dim;
  if (m.is_moe_layer(layer)) {
    // The router [n_experts, dim] on every rank; n_experts / ep routed experts (every
    // dispatch scheme places that many on each rank) and the shared experts as one MLP of
    // n_shared widths, none of them cut by tp.
    const uint64_t expert = 3 * dim * uint64_t(m.moe.expert_ffn_dim);
    elements += uint64_t(m.moe.n_experts) * dim + uint64_t(m.moe.n_experts / ep) * expert +
                uint64_t(m.moe.n_shared_experts) * expert;
  } else {
    elements += 3 * dim * uint64_t(m.ffn_dim / tp);  // w1, w3 column-, w2 row-parallel
  }
  return elements * kBytes;
}

// What LlamaModel's weight_bytes, cache_bytes and activation_bytes return for the shard.
MemoryUse memory_of(const ModelConfig& m, const RankShard& s) {
  const uint64_t dim = uint64_t(m.dim), local_vocab = uint64_t(m.vocab / s.tp);
  MemoryUse use;
  use.weights = dim * kBytes;  // the final norm: every shard builds it, head or not
  if (s.first_layer == 0) use.weights += local_vocab * dim * kBytes;         // embedding
  if (s.end_layer == m.n_layers) use.weights += local_vocab * dim * kBytes;  // output
  for (int64_t l = s.first_layer; l < s.end_layer; ++l) {
    use.weights += layer_weight_bytes(m, l, s.tp, s.ep);
  }
  // Keys and values of the local KV heads, every layer; length 0 means max_seq.
  const uint64_t length = uint64_t(s.cache.length > 0 ? s.cache.length : m.max_seq);
  use.kv_cache = uint64_t(s.end_layer - s.first_layer) * 2 * uint64_t(s.cache.batch) * length *
                 uint64_t(m.n_kv_heads / s.tp) * uint64_t(m.head_dim()) * kBytes;
  const uint64_t batch = uint64_t(s.batch), queries = uint64_t(s.queries);
  const uint64_t rows = batch * queries;
  use.activations = (3 * rows * dim + 3 * rows * uint64_t(m.ffn_dim / s.tp) +
                     batch * uint64_t(m.n_heads / s.tp) * queries * uint64_t(s.keys) +
                     batch * uint64_t(m.vocab)) *
                    kBytes;
  return use;
}

// Rank `rank` (of its replica) of a strategy family, its replica dealt `prompts` prompts
// (batch runs; serving runs read in.serving instead).
using Family = RankShard (*)(const MemoryEstimateInputs& in, int rank, int64_t prompts);

// cache_length(): the prompt, then every new token fed back.
int64_t batch_cache_length(const WorkloadShape& w) {
  return w.prompt_tokens + std::max<int64_t>(w.new_tokens - 1, 0);
}

RankShard whole_model(const ModelConfig& m, int tp) {
  RankShard s;
  s.tp = tp;
  s.end_layer = m.n_layers;
  return s;
}

// Batch runs build the cache for the replica's prompts (or this rank's) over
// cache_length(); the serving engines build the cache they are given and pass its batch and
// length (as written: 0 stays 0 there) as queries and keys alike.
void batch_cache(RankShard& s, const WorkloadShape& w, int64_t prompts, int64_t queries) {
  s.cache = CacheShape{prompts, batch_cache_length(w)};
  s.batch = prompts;
  s.queries = queries;
  s.keys = batch_cache_length(w);
}

void serving_cache(RankShard& s, const CacheShape& cache) {
  s.cache = cache;
  s.batch = cache.batch;
  s.queries = cache.length;
  s.keys = cache.length;
}

// tp: the whole model cut over the tensor-parallel group.
RankShard tensor_parallel(const MemoryEstimateInputs& in, int, int64_t prompts) {
  RankShard s = whole_model(in.model, in.degrees.tp);
  if (in.serving) {
    serving_cache(s, *in.serving);
  } else {
    batch_cache(s, in.workload, prompts, in.workload.prompt_tokens);
  }
  return s;
}

// pp and tp-pp: stage rank / tp's layers, cut over tp. A batch run's activations are those
// of its first (largest) prefill micro-batch.
RankShard pipeline(const MemoryEstimateInputs& in, int rank, int64_t prompts) {
  const ParallelDegrees& d = in.degrees;
  const std::vector<int64_t> bounds = stage_boundaries(in.model.n_layers, d.pp, d.stages);
  const int stage = rank / (d.tp * d.sp * d.ep);
  RankShard s;
  s.tp = d.tp;
  s.first_layer = bounds[size_t(stage)];
  s.end_layer = bounds[size_t(stage) + 1];
  if (in.serving) {
    serving_cache(s, *in.serving);
  } else {
    const MicroBatch first =
        prefill_micro_batches(prompts, in.workload.prompt_tokens, d.micro_batches).front();
    batch_cache(s, in.workload, prompts, first.positions);
    s.batch = first.prompts;  // the cache still holds every prompt of the replica
  }
  return s;
}

// voltage and kilovolts: the whole model on every rank, its queries the largest slice of
// the prompt (every rank reports that one, not its own).
RankShard positions(const MemoryEstimateInputs& in, int, int64_t prompts) {
  RankShard s = whole_model(in.model, 1);
  const int64_t sp = in.degrees.sp;
  batch_cache(s, in.workload, prompts, (in.workload.prompt_tokens + sp - 1) / sp);
  return s;
}

// dp: the whole model on the replica's one rank.
RankShard data_parallel(const MemoryEstimateInputs& in, int, int64_t prompts) {
  RankShard s = whole_model(in.model, 1);
  batch_cache(s, in.workload, prompts, in.workload.prompt_tokens);
  return s;
}

// ep: attention replicated, each rank serving its own prompts (replica prompt p on rank
// p mod ep; serving: cache slot s on rank s mod ep), the experts spread.
RankShard expert_parallel(const MemoryEstimateInputs& in, int rank, int64_t prompts) {
  const int ep = in.degrees.ep;
  const int ep_rank = (rank / (in.degrees.tp * in.degrees.sp)) % ep;
  RankShard s = whole_model(in.model, 1);
  s.ep = ep;
  if (in.serving) {
    serving_cache(s, CacheShape{(in.serving->batch + ep - 1) / ep, in.serving->length});
  } else {
    const int64_t mine = prompts / ep + (ep_rank < prompts % ep ? 1 : 0);
    batch_cache(s, in.workload, mine, in.workload.prompt_tokens);
  }
  return s;
}

Family family_of(const std::string& strategy) {
  static const std::map<std::string, Family> families = {
      {"tp", tensor_parallel}, {"pp", pipeline},         {"tp-pp", pipeline},
      {"voltage", positions},  {"kilovolts", positions}, {"dp", data_parallel},
      {"ep", expert_parallel},
  };
  const auto it = families.find(strategy);
  if (it == families.end()) {
    throw std::invalid_argument("no memory estimate for strategy '" + strategy + "'");
  }
  return it->second;
}

// What checking a scenario refuses (apps/compute_check: the model, check_strategy, and
// serving's own conditions), so an estimate is never given for a layout that cannot run.
void check(const Strategy& strategy, const MemoryEstimateInputs& in) {
  if (std::string problem = check_model_config(in.model); !problem.empty()) {
    throw std::invalid_argument(problem);
  }
  WorkloadShape workload = in.workload;
  if (in.serving) {
    if (!strategy.serve) {
      throw std::invalid_argument("/parallel/strategy: strategy " + strategy.name +
                                  " cannot serve requests as they arrive");
    }
    if (in.degrees.micro_batches != 1) {
      throw std::invalid_argument(
          "/parallel/micro_batches: serving runs each step's requests "
          "through the pipeline together");
    }
    // A serving replica forms its own batches: nothing to split (as apps/compute_check).
    workload.batch = int64_t(in.degrees.dp) * in.degrees.ep;
  }
  const StrategyProblem problem = check_strategy(strategy, in.model, in.degrees, workload);
  if (!problem.detail.empty()) {
    throw std::invalid_argument("/parallel" + (problem.key.empty() ? "" : "/" + problem.key) +
                                ": " + problem.detail);
  }
}

}  // namespace

std::vector<MemoryUse> estimate_memory(const MemoryEstimateInputs& in) {
  const Strategy& strategy = strategies().at(in.strategy);
  const Family family = family_of(in.strategy);
  check(strategy, in);
  const ParallelDegrees& d = in.degrees;
  // ParallelState's layout: replica r is world ranks r * M .. r * M + M - 1, and
  // run_strategy deals prompt p to replica p mod dp.
  const int replica_size = d.tp * d.sp * d.ep * d.pp;
  std::vector<MemoryUse> out;
  for (int w = 0; w < d.world(); ++w) {
    const int replica = w / replica_size;
    const int64_t prompts = in.workload.batch / d.dp + (replica < in.workload.batch % d.dp ? 1 : 0);
    const RankShard shard = family(in, w % replica_size, prompts);
    // LlamaModel's own refusal of a cache it cannot hold.
    const int64_t length = shard.cache.length > 0 ? shard.cache.length : in.model.max_seq;
    if (shard.cache.batch < 1 || length > in.model.max_seq) {
      throw std::invalid_argument("rank " + std::to_string(w) + "'s KV cache of " +
                                  std::to_string(shard.cache.batch) + " sequences x " +
                                  std::to_string(length) + " positions (max_seq " +
                                  std::to_string(in.model.max_seq) + ")");
    }
    out.push_back(memory_of(in.model, shard));
  }
  return out;
}

}  // namespace uniference
