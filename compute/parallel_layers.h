// Megatron-style tensor-parallel layers over Comm, and the weights they are built from.
//
// Every weight is a pure function of (seed, layer, parameter name), and each element of it
// a pure function of those and its index: a rank computes only its own slice, and a model
// sharded over any degree holds exactly the numbers of the single-device model.
#pragma once

#include <ATen/ATen.h>

#include <cstdint>
#include <string>

#include "compute/comm.h"

namespace uniference {

// Names one parameter of a model.
struct ParamKey {
  uint64_t seed;
  int64_t layer;     // the decoder layer, or -1 for parameters outside the layers
  std::string name;  // for example "attention.wq"
  // Build it on the meta device: its shape, no memory, no numbers (shape-only runs).
  bool shapes_only = false;
};

// The full [rows, cols] float32 weight. Element (i, j) is a mean-0, standard-deviation
// `stddev` draw from a counter-based generator: a 64-bit hash of the key and the index
// i * cols + j, whose four 16-bit quarters are summed (Irwin-Hall) and scaled, so it is
// close to normal within +-3.46 stddev. No generator state, global or other, is touched.
at::Tensor full_weight(const ParamKey& key, int64_t rows, int64_t cols, double stddev);

// Rank `rank` of `world`'s contiguous slice of full_weight along split_dim (0: rows,
// 1: columns), computed without the rest of the matrix. Throws std::invalid_argument
// unless world divides that dimension.
at::Tensor weight_shard(const ParamKey& key, int64_t rows, int64_t cols, double stddev,
                        int64_t split_dim, int rank, int world);

// A shard's place in its tensor-parallel group. It does not own the Comm, which must
// outlive every layer built from the group.
//  - TpGroup(comm): comm's rank and size; the layers' collectives run over comm.
//  - TpGroup(nullptr), or TpGroup{}: a single device (rank 0 of 1), no collectives.
//  - TpGroup::detached(rank, size): rank's share of the math with no communicator. The
//    layers skip their collectives and return this rank's part (partial sums, local
//    slices); the caller combines the parts itself. For checking the sharded math and for
//    cost estimates, never for serving.
struct TpGroup {
  TpGroup(Comm* comm = nullptr);  // NOLINT(runtime/explicit): a Comm* is a group
  static TpGroup detached(int rank, int size);

  bool runs_collectives() const { return comm != nullptr && size > 1; }
  bool is_detached() const { return comm == nullptr && size > 1; }

  Comm* comm = nullptr;
  int rank = 0;
  int size = 1;
};

// y = x W^T, W [out_features, in_features] split by rows: each rank computes
// out_features / size of the outputs. With gather_output the slices are all-gathered so
// every rank returns all out_features.
class ColumnParallelLinear {
 public:
  ColumnParallelLinear(int64_t in_features, int64_t out_features, const ParamKey& key,
                       TpGroup group, bool gather_output = false);

  // [..., in_features] -> [..., out_features / size], or [..., out_features] when gathered.
  at::Tensor forward(const at::Tensor& x) const;

  const at::Tensor& weight() const { return weight_; }  // [out_features / size, in_features]

 private:
  TpGroup group_;
  bool gather_output_;
  at::Tensor weight_;
};

// y = x W^T, W [out_features, in_features] split by columns: each rank multiplies its
// slice of the input features, and an all-reduce sums the partial products.
class RowParallelLinear {
 public:
  // input_is_parallel: x already holds only this rank's in_features / size features (the
  // output of a ColumnParallelLinear); otherwise forward() takes the full x and slices it.
  RowParallelLinear(int64_t in_features, int64_t out_features, const ParamKey& key, TpGroup group,
                    bool input_is_parallel = true);

  // [..., in_features / size] (or [..., in_features]) -> [..., out_features].
  at::Tensor forward(const at::Tensor& x) const;

  const at::Tensor& weight() const { return weight_; }  // [out_features, in_features / size]

 private:
  TpGroup group_;
  bool input_is_parallel_;
  int64_t in_features_;
  at::Tensor weight_;
};

// Embedding table [vocab, dim] split by rows: each rank holds vocab / size consecutive
// token ids. Ids outside the shard look up zeros, and an all-reduce sums the shards.
class VocabParallelEmbedding {
 public:
  VocabParallelEmbedding(int64_t vocab, int64_t dim, const ParamKey& key, TpGroup group);

  // int64 ids of any shape -> [..., dim] float32.
  at::Tensor forward(const at::Tensor& ids) const;

  const at::Tensor& weight() const { return weight_; }  // [vocab / size, dim]
  int64_t vocab_start() const { return vocab_start_; }

 private:
  TpGroup group_;
  int64_t vocab_start_;
  at::Tensor weight_;
};

}  // namespace uniference
