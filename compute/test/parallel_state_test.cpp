// ParallelState over real Gloo: for each layout the strategies use, every rank's groups hold
// the world ranks the layout says, found by an all-gather of world ranks on the group itself.
// The expected members come from the layout's definition here (a world rank is the number
// whose mixed-radix digits, tp fastest, then sp, ep, pp, dp, are its coordinates; a group
// is every rank that agrees with this one on all coordinates but its own), not from the
// stride arithmetic ParallelState splits by.
#include "compute/parallel_state.h"
#include "compute/strategy.h"
#include "compute/test/gloo_world.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

namespace uniference {
namespace {

using test::run_world;

enum Dim { kTp, kSp, kEp, kPp, kDp, kDims };

ParallelDegrees degrees(int tp, int sp, int ep, int pp, int dp) {
  ParallelDegrees d;
  d.tp = tp;
  d.sp = sp;
  d.ep = ep;
  d.pp = pp;
  d.dp = dp;
  return d;
}

std::array<int, kDims> radices(const ParallelDegrees& d) { return {d.tp, d.sp, d.ep, d.pp, d.dp}; }

std::array<int, kDims> coordinates(int rank, const ParallelDegrees& d) {
  std::array<int, kDims> c{};
  const std::array<int, kDims> radix = radices(d);
  for (int dim = 0; dim < kDims; ++dim) {
    c[dim] = rank % radix[dim];
    rank /= radix[dim];
  }
  return c;
}

// The world ranks that agree with `rank` on every coordinate outside `varying`, ascending.
std::vector<int> expected_group(int rank, const ParallelDegrees& d, std::vector<Dim> varying) {
  const std::array<int, kDims> mine = coordinates(rank, d);
  std::vector<int> members;
  for (int other = 0; other < d.world(); ++other) {
    const std::array<int, kDims> theirs = coordinates(other, d);
    bool same = true;
    for (int dim = 0; dim < kDims; ++dim) {
      const bool varies = std::find(varying.begin(), varying.end(), Dim(dim)) != varying.end();
      if (!varies && theirs[dim] != mine[dim]) same = false;
    }
    if (same) members.push_back(other);
  }
  return members;
}

// The world ranks of the group's members, in group-rank order, as the group itself reports
// them (every member must take part: it is a collective).
std::vector<int> gathered_members(Comm& group, int world_rank) {
  const at::Tensor mine = at::full({1}, double(world_rank), at::kFloat);
  at::Tensor all = at::empty({group.size()}, at::kFloat);
  group.all_gather(all, mine);
  std::vector<int> members;
  for (int i = 0; i < group.size(); ++i) members.push_back(int(all[i].item<float>()));
  return members;
}

int index_of(const std::vector<int>& members, int rank) {
  return int(std::find(members.begin(), members.end(), rank) - members.begin());
}

// Checks one group: its members, this rank's place in it, and the accessors' rank and size.
void expect_group(Comm& group, int world_rank, const std::vector<int>& expected, int rank, int size,
                  const std::string& what) {
  EXPECT_EQ(gathered_members(group, world_rank), expected)
      << what << " of world rank " << world_rank;
  EXPECT_EQ(group.rank(), index_of(expected, world_rank))
      << what << " of world rank " << world_rank;
  EXPECT_EQ(rank, group.rank()) << what << "'s rank accessor, world rank " << world_rank;
  EXPECT_EQ(size, int(expected.size())) << what << "'s size accessor";
}

// Builds every group of the layout on every rank of a Gloo world and checks them all.
void expect_layout(const ParallelDegrees& d) {
  run_world(d.world(), [&](Comm& world) {
    const ParallelState state(world, d, ParallelGroups::all());
    const int w = world.rank();
    const std::vector<int> replica = expected_group(w, d, {kTp, kSp, kEp, kPp});
    expect_group(state.model_parallel_group(), w, replica, state.model_parallel_rank(),
                 state.model_parallel_size(), "model-parallel group");
    expect_group(state.tensor_parallel_group(), w, expected_group(w, d, {kTp}),
                 state.tensor_parallel_rank(), state.tensor_parallel_size(),
                 "tensor-parallel group");
    expect_group(state.sequence_parallel_group(), w, expected_group(w, d, {kSp}),
                 state.sequence_parallel_rank(), state.sequence_parallel_size(),
                 "sequence-parallel group");
    expect_group(state.expert_parallel_group(), w, expected_group(w, d, {kEp}),
                 state.expert_parallel_rank(), state.expert_parallel_size(),
                 "expert-parallel group");
    expect_group(state.data_parallel_group(), w, expected_group(w, d, {kDp}),
                 state.data_parallel_rank(), state.data_parallel_size(), "data-parallel group");

    const std::vector<int> pipeline = expected_group(w, d, {kPp});
    expect_group(state.pipeline_parallel_group(), w, pipeline, state.pipeline_parallel_rank(),
                 state.pipeline_parallel_size(), "pipeline-parallel group");
    // Neighbours are named by their rank in the replica, where pipeline messages go.
    const int stage = index_of(pipeline, w), stages = int(pipeline.size());
    const auto in_replica = [&](int stage_index) {
      return index_of(replica, pipeline[size_t(stage_index)]);
    };
    EXPECT_EQ(state.pipeline_next_rank(), in_replica((stage + 1) % stages)) << "world rank " << w;
    EXPECT_EQ(state.pipeline_previous_rank(), in_replica((stage + stages - 1) % stages))
        << "world rank " << w;
    EXPECT_EQ(state.pipeline_first_rank(), in_replica(0)) << "world rank " << w;
    EXPECT_EQ(state.pipeline_last_rank(), in_replica(stages - 1)) << "world rank " << w;
    EXPECT_EQ(state.is_pipeline_first_stage(), stage == 0) << "world rank " << w;
    EXPECT_EQ(state.is_pipeline_last_stage(), stage == stages - 1) << "world rank " << w;
  });
}

TEST(ParallelState, TensorParallelGroupsAreConsecutiveRanks) {
  expect_layout(degrees(4, 1, 1, 1, 1));
}

TEST(ParallelState, PipelineStagesAreOneRankEach) { expect_layout(degrees(1, 1, 1, 4, 1)); }

TEST(ParallelState, PipelineStagesOfTensorParallelGroupsInReplicas) {
  expect_layout(degrees(2, 1, 1, 2, 2));
}

TEST(ParallelState, DataParallelReplicasOfTensorParallelGroups) {
  expect_layout(degrees(2, 1, 1, 1, 2));
}

TEST(ParallelState, DataParallelReplicasOfOneRank) { expect_layout(degrees(1, 1, 1, 1, 4)); }

TEST(ParallelState, ExpertParallelGroupsInReplicas) { expect_layout(degrees(1, 1, 2, 1, 2)); }

TEST(ParallelState, SequencePartitionsOfTensorParallelGroups) {
  expect_layout(degrees(2, 2, 1, 1, 1));
}

// Only the groups asked for are split, and a group with the replica's ranks is the replica's
// communicator, except the tensor-parallel one: what keeps every strategy's splits (and so a
// simulated run's groups) as they were before ParallelState made them.
TEST(ParallelState, SplitsOnlyWhatIsAskedForAndReusesTheReplica) {
  run_world(4, [](Comm& world) {
    ParallelGroups asked;
    asked.tensor = asked.sequence = true;
    const ParallelState voltage_like(world, degrees(1, 4, 1, 1, 1), asked);
    EXPECT_EQ(&voltage_like.model_parallel_group(), &world);
    EXPECT_EQ(&voltage_like.sequence_parallel_group(), &world);
    EXPECT_NE(&voltage_like.tensor_parallel_group(), &world);
    EXPECT_EQ(voltage_like.tensor_parallel_group().size(), 1);

    ParallelGroups tensor;
    tensor.tensor = true;
    const ParallelState tensor_only(world, degrees(4, 1, 1, 1, 1), tensor);
    EXPECT_NE(&tensor_only.tensor_parallel_group(), &world);
    EXPECT_EQ(tensor_only.tensor_parallel_group().size(), 4);
    try {
      tensor_only.pipeline_parallel_group();
      ADD_FAILURE() << "a pipeline group nobody asked for was handed out";
    } catch (const std::logic_error& e) {
      EXPECT_NE(std::string(e.what()).find("no pipeline-parallel group"), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("ParallelGroups::pipeline"), std::string::npos)
          << e.what();
    }
  });
}

// Degrees that do not make up the world are refused on every rank before any split, so no
// rank waits for a split the others never make.
TEST(ParallelState, RefusesDegreesThatDoNotMakeUpTheWorld) {
  run_world(4, [](Comm& world) {
    try {
      ParallelState state(world, degrees(3, 1, 1, 1, 1), ParallelGroups::all());
      ADD_FAILURE() << "tp 3 accepted on a world of 4";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(
                    "parallel degrees tp 3 x sp 1 x ep 1 x pp 1 x dp 1 make 3 ranks, but the "
                    "world has 4"),
                std::string::npos)
          << e.what();
    }
    try {
      ParallelState state(world, degrees(2, 1, 1, 0, 2), ParallelGroups::all());
      ADD_FAILURE() << "pp 0 accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("every degree must be at least 1"), std::string::npos)
          << e.what();
    }
    // The world is still usable: nothing was split half-way.
    at::Tensor one = at::ones({1}, at::kFloat);
    world.all_reduce(one);
    EXPECT_EQ(one.item<float>(), 4.0f);
  });
}

}  // namespace
}  // namespace uniference
