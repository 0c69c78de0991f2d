// The sharded math, checked without any communicator: each rank's share is computed by a
// detached shard, and the test combines the shares the way the collective would.
#include "compute/parallel_layers.h"

#include <ATen/CPUGeneratorImpl.h>
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace uniference {
namespace {

at::Tensor random_input(std::vector<int64_t> sizes, uint64_t seed) {
  at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(seed);
  return at::randn(sizes, generator, at::TensorOptions().dtype(at::kFloat));
}

TEST(Weights, SameKeySameNumbers) {
  const ParamKey key{42, 3, "attention.wq"};
  EXPECT_TRUE(at::equal(full_weight(key, 64, 32, 0.1), full_weight(key, 64, 32, 0.1)));
  EXPECT_FALSE(
      at::equal(full_weight(key, 64, 32, 0.1), full_weight({42, 4, "attention.wq"}, 64, 32, 0.1)));
  EXPECT_FALSE(
      at::equal(full_weight(key, 64, 32, 0.1), full_weight({42, 3, "attention.wk"}, 64, 32, 0.1)));
  EXPECT_FALSE(
      at::equal(full_weight(key, 64, 32, 0.1), full_weight({43, 3, "attention.wq"}, 64, 32, 0.1)));
}

TEST(Weights, DrawnFromTheRequestedNormal) {
  const at::Tensor w = full_weight({7, 0, "w"}, 256, 256, 0.25);
  EXPECT_EQ(w.scalar_type(), at::kFloat);
  // 65536 samples: the sample mean and std are within a few 1/sqrt(n) of the truth.
  EXPECT_NEAR(w.mean().item<double>(), 0.0, 0.25 * 0.02);
  EXPECT_NEAR(w.std().item<double>(), 0.25, 0.25 * 0.02);
}

TEST(Weights, DoesNotTouchTheGlobalGenerator) {
  at::manual_seed(123);
  const at::Tensor before = at::randn({4});
  at::manual_seed(123);
  full_weight({1, 0, "w"}, 16, 16, 1.0);
  EXPECT_TRUE(at::equal(at::randn({4}), before));
}

TEST(Weights, ShardsConcatenateToTheFullWeight) {
  const ParamKey key{5, 1, "feed_forward.w1"};
  const at::Tensor full = full_weight(key, 48, 16, 0.5);
  for (int64_t dim : {0, 1}) {
    for (int tp : {1, 2, 4, 8}) {
      std::vector<at::Tensor> shards;
      for (int rank = 0; rank < tp; ++rank) {
        shards.push_back(weight_shard(key, 48, 16, 0.5, dim, rank, tp));
        EXPECT_TRUE(shards.back().is_contiguous());
      }
      EXPECT_TRUE(at::equal(at::cat(shards, dim), full)) << "dim " << dim << " tp " << tp;
    }
  }
  EXPECT_THROW(weight_shard(key, 48, 16, 0.5, 1, 0, 3), std::invalid_argument);
  EXPECT_THROW(weight_shard(key, 48, 16, 0.5, 0, 4, 4), std::invalid_argument);
}

TEST(ColumnParallelLinear, SingleDeviceIsXTimesWTransposed) {
  const ParamKey key{9, 0, "w"};
  const ColumnParallelLinear layer(32, 24, key, nullptr);
  const at::Tensor w = full_weight(key, 24, 32, 1.0 / std::sqrt(32.0));
  EXPECT_TRUE(at::equal(layer.weight(), w));
  const at::Tensor x = random_input({5, 32}, 1);
  EXPECT_TRUE(at::allclose(layer.forward(x), at::matmul(x, w.t()), 1e-5, 1e-6));
}

TEST(ColumnParallelLinear, RankSlicesSideBySideAreTheFullOutput) {
  const ParamKey key{9, 0, "w"};
  const at::Tensor x = random_input({5, 32}, 2);
  const at::Tensor expected = ColumnParallelLinear(32, 24, key, nullptr, true).forward(x);
  for (int tp : {2, 4}) {
    std::vector<at::Tensor> slices;
    for (int rank = 0; rank < tp; ++rank) {
      const ColumnParallelLinear shard(32, 24, key, TpGroup::detached(rank, tp), true);
      EXPECT_EQ(shard.weight().size(0), 24 / tp);
      slices.push_back(shard.forward(x));
    }
    EXPECT_TRUE(at::allclose(at::cat(slices, -1), expected, 1e-5, 1e-6)) << "tp " << tp;
  }
}

TEST(RowParallelLinear, PartialProductsSumToTheFullOutput) {
  const ParamKey key{11, 2, "w"};
  const at::Tensor x = random_input({3, 4, 32}, 3);  // leading dims pass through
  const at::Tensor w = full_weight(key, 16, 32, 1.0 / std::sqrt(32.0));
  const at::Tensor expected = at::matmul(x, w.t());
  EXPECT_TRUE(
      at::allclose(RowParallelLinear(32, 16, key, nullptr).forward(x), expected, 1e-5, 1e-6));
  for (int tp : {2, 4}) {
    at::Tensor parallel_input_sum = at::zeros_like(expected);
    at::Tensor full_input_sum = at::zeros_like(expected);
    for (int rank = 0; rank < tp; ++rank) {
      const int64_t shard = 32 / tp;
      const RowParallelLinear parallel_in(32, 16, key, TpGroup::detached(rank, tp), true);
      parallel_input_sum += parallel_in.forward(x.narrow(-1, rank * shard, shard));
      const RowParallelLinear full_in(32, 16, key, TpGroup::detached(rank, tp), false);
      full_input_sum += full_in.forward(x);
    }
    EXPECT_TRUE(at::allclose(parallel_input_sum, expected, 1e-5, 1e-5)) << "tp " << tp;
    EXPECT_TRUE(at::equal(parallel_input_sum, full_input_sum)) << "tp " << tp;
  }
}

TEST(VocabParallelEmbedding, ShardsSumToTheRowsOfTheTable) {
  const ParamKey key{13, -1, "tok_embeddings"};
  const at::Tensor table = full_weight(key, 64, 8, 1.0);
  const at::Tensor ids = at::tensor(std::vector<int64_t>{0, 15, 16, 31, 32, 47, 48, 63, 5},
                                    at::TensorOptions().dtype(at::kLong));
  const at::Tensor expected = table.index_select(0, ids);
  EXPECT_TRUE(at::equal(VocabParallelEmbedding(64, 8, key, nullptr).forward(ids), expected));
  for (int tp : {2, 4}) {
    at::Tensor sum = at::zeros_like(expected);
    for (int rank = 0; rank < tp; ++rank) {
      const VocabParallelEmbedding shard(64, 8, key, TpGroup::detached(rank, tp));
      EXPECT_EQ(shard.vocab_start(), 64 / tp * rank);
      const at::Tensor rows = shard.forward(ids);
      // Every id is in exactly one shard; the others contribute exact zeros.
      const int64_t owned = ((ids >= shard.vocab_start()) & (ids < shard.vocab_start() + 64 / tp))
                                .sum()
                                .item<int64_t>();
      EXPECT_EQ(rows.ne(0).any(-1).sum().item<int64_t>(), owned);
      sum += rows;
    }
    EXPECT_TRUE(at::equal(sum, expected)) << "tp " << tp;
  }
}

TEST(TpGroup, DetachedRejectsImpossibleRanks) {
  EXPECT_THROW(TpGroup::detached(2, 2), std::invalid_argument);
  EXPECT_THROW(TpGroup::detached(0, 0), std::invalid_argument);
  const TpGroup single(nullptr);
  EXPECT_EQ(single.size, 1);
  EXPECT_FALSE(single.runs_collectives());
  EXPECT_TRUE(TpGroup::detached(1, 2).is_detached());
}

}  // namespace
}  // namespace uniference
