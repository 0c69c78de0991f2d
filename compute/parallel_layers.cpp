#include "compute/parallel_layers.h"

#include "compute/mappings.h"

#include <ATen/Parallel.h>


#include "compute/counter_hash.h"

#include <cmath>
#include <stdexcept>

namespace uniference {
namespace {


// FNV-1a: a hash of the name that, unlike std::hash, is the same on every platform.
uint64_t hash_name(const std::string& name) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : name) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

uint64_t key_hash(const ParamKey& key) {
  return mix64(mix64(mix64(key.seed) ^ static_cast<uint64_t>(key.layer)) ^ hash_name(key.name));
}

// Rows first_row.. and columns first_col.. of the [rows, cols] weight of `key`.
at::Tensor weight_block(const ParamKey& key, int64_t cols, int64_t first_row, int64_t block_rows,
                        int64_t first_col, int64_t block_cols, double stddev) {
  const auto options = at::TensorOptions().dtype(at::kFloat);
  if (key.shapes_only) return at::empty({block_rows, block_cols}, options.device(at::kMeta));
  at::Tensor block = at::empty({block_rows, block_cols}, options);
  float* out = block.data_ptr<float>();
  const uint64_t base = key_hash(key);
  // Irwin-Hall: four 16-bit uniforms (k + 0.5) / 65536 sum to mean 2 and variance 1/3.
  const float scale = float(stddev * std::sqrt(3.0) / 65536.0);
  at::parallel_for(0, block_rows, 64, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      float* row = out + i * block_cols;
      const uint64_t first = static_cast<uint64_t>(first_row + i) * static_cast<uint64_t>(cols) +
                             static_cast<uint64_t>(first_col);
      for (int64_t j = 0; j < block_cols; ++j) {
        // Element `index` is output index + 1 of the SplitMix64 stream seeded with the key.
        const uint64_t h = mix64(base + (first + static_cast<uint64_t>(j)) * 0x9e3779b97f4a7c15ULL);
        const uint32_t sum = uint32_t(h & 0xffff) + uint32_t((h >> 16) & 0xffff) +
                             uint32_t((h >> 32) & 0xffff) + uint32_t(h >> 48);
        row[j] = (float(sum) + 2.0f - 131072.0f) * scale;
      }
    }
  });
  return block;
}

void check_divides(int world, int64_t size, const char* what) {
  if (world < 1 || size % world != 0) {
    throw std::invalid_argument("tensor parallelism over " + std::to_string(world) +
                                " ranks cannot split " + what + "=" + std::to_string(size));
  }
}

// Linear weights scaled so each output has about the variance of one input feature.
double linear_std(int64_t in_features) { return 1.0 / std::sqrt(static_cast<double>(in_features)); }

}  // namespace

at::Tensor full_weight(const ParamKey& key, int64_t rows, int64_t cols, double stddev) {
  return weight_block(key, cols, 0, rows, 0, cols, stddev);
}

at::Tensor weight_shard(const ParamKey& key, int64_t rows, int64_t cols, double stddev,
                        int64_t split_dim, int rank, int world) {
  if (split_dim != 0 && split_dim != 1) {
    throw std::invalid_argument("weight_shard: split_dim must be 0 or 1");
  }
  const int64_t split_size = split_dim == 0 ? rows : cols;
  check_divides(world, split_size, (key.name + (split_dim == 0 ? " rows" : " columns")).c_str());
  if (rank < 0 || rank >= world) {
    throw std::invalid_argument("weight_shard: rank " + std::to_string(rank) + " of " +
                                std::to_string(world));
  }
  const int64_t shard = split_size / world;
  if (split_dim == 0) return weight_block(key, cols, rank * shard, shard, 0, cols, stddev);
  return weight_block(key, cols, 0, rows, rank * shard, shard, stddev);
}

TpGroup::TpGroup(Comm* communicator) : comm(communicator) {
  if (comm != nullptr) {
    rank = comm->rank();
    size = comm->size();
  }
}

TpGroup TpGroup::detached(int rank, int size) {
  if (size < 1 || rank < 0 || rank >= size) {
    throw std::invalid_argument("TpGroup::detached: rank " + std::to_string(rank) + " of " +
                                std::to_string(size));
  }
  TpGroup group;
  group.rank = rank;
  group.size = size;
  return group;
}

ColumnParallelLinear::ColumnParallelLinear(int64_t in_features, int64_t out_features,
                                           const ParamKey& key, TpGroup group, bool gather_output)
    : group_(group),
      gather_output_(gather_output),
      weight_(weight_shard(key, out_features, in_features, linear_std(in_features), 0, group.rank,
                           group.size)) {}

at::Tensor ColumnParallelLinear::forward(const at::Tensor& x) const {
  at::Tensor local = at::linear(x, weight_);
  if (!gather_output_ || !group_.runs_collectives()) return local;
  return gather_from_tensor_parallel_region(*group_.comm, local);
}

RowParallelLinear::RowParallelLinear(int64_t in_features, int64_t out_features, const ParamKey& key,
                                     TpGroup group, bool input_is_parallel)
    : group_(group),
      input_is_parallel_(input_is_parallel),
      in_features_(in_features),
      weight_(weight_shard(key, out_features, in_features, linear_std(in_features), 1, group.rank,
                           group.size)) {}

at::Tensor RowParallelLinear::forward(const at::Tensor& x) const {
  const int64_t shard = in_features_ / group_.size;
  const at::Tensor input = input_is_parallel_ ? x : x.narrow(-1, group_.rank * shard, shard);
  at::Tensor partial = at::linear(input, weight_);
  if (!group_.runs_collectives()) return partial;
  partial = partial.contiguous();
  reduce_from_tensor_parallel_region(*group_.comm, partial);
  return partial;
}

VocabParallelEmbedding::VocabParallelEmbedding(int64_t vocab, int64_t dim, const ParamKey& key,
                                               TpGroup group)
    : group_(group),
      vocab_start_(vocab / group.size * group.rank),
      // Unit variance: the first RMSNorm rescales the residual stream anyway.
      weight_(weight_shard(key, vocab, dim, 1.0, 0, group.rank, group.size)) {}

at::Tensor VocabParallelEmbedding::forward(const at::Tensor& ids) const {
  if (weight_.is_meta()) {
    // libtorch 1.13 has no meta kernel for embedding: the output's shape is all there is.
    std::vector<int64_t> sizes = ids.sizes().vec();
    sizes.push_back(weight_.size(1));
    at::Tensor rows = at::empty(sizes, weight_.options());
    if (group_.runs_collectives()) reduce_from_tensor_parallel_region(*group_.comm, rows);
    return rows;
  }
  if (group_.size == 1) return at::embedding(weight_, ids);
  const int64_t shard = weight_.size(0);
  const at::Tensor outside = (ids < vocab_start_).logical_or_(ids >= vocab_start_ + shard);
  const at::Tensor local_ids = (ids - vocab_start_).masked_fill_(outside, 0);
  at::Tensor rows = at::embedding(weight_, local_ids).masked_fill_(outside.unsqueeze(-1), 0.0);
  if (group_.runs_collectives()) reduce_from_tensor_parallel_region(*group_.comm, rows);
  return rows;
}

}  // namespace uniference
