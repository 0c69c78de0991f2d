// Every registered algorithm of every operation, through SimComm and real tensors, on groups
// of 2, 3, 4, 7, 8 and 16 ranks: each rank's result is what the schedule's own messages and
// partial sums computed, held against the operation's definition computed here.
#include "bridge/collective_ops.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <ns3/collective-helper.h>
#include <ns3/scheduled-collective.h>

#include <string>
#include <tuple>
#include <vector>

namespace uniference::test {
namespace {

// (operation, algorithm, ranks)
using Case = std::tuple<std::string, std::string, int>;

std::vector<Case> every_case() {
  std::vector<Case> cases;
  for (const CollectiveOp& op : collective_ops()) {
    const std::string name = op_name(op.op);
    for (const std::string& algorithm : ns3::CollectiveHelper::GetAlgorithms(name)) {
      if (!ns3::CollectiveHelper::GetTypeId(name, algorithm)
               .IsChildOf(ns3::ScheduledCollective::GetTypeId())) {
        continue;
      }
      for (int n : {2, 3, 4, 7, 8, 16}) cases.emplace_back(name, algorithm, n);
    }
  }
  return cases;
}

// Rank r's value at element e: tells ranks and elements apart, exact in float32 sums.
at::Tensor values(int rank, int64_t first, int64_t count) {
  return at::arange(first, first + count, at::kFloat) + float((rank + 1) * 1000);
}

class AlgorithmExactness : public ::testing::TestWithParam<Case> {};

TEST_P(AlgorithmExactness, ResultIsTheDefinition) {
  const auto& [op, algorithm, n] = GetParam();
  NetworkConfig net;
  net.collectives[find_collective_op(op)->op] = CollectiveChoice{algorithm, {}};
  if (algorithm == "hierarchical") {
    net.collectives[find_collective_op(op)->op].attributes = {
        {"LocalSize", n % 4 == 0 ? "4" : n % 2 == 0 ? "2" : "1"}};
  }
  const int root = n > 2 ? n - 2 : 0;
  const int64_t block = 5;                // elements per rank where the operation has blocks
  const int64_t whole = 5 * int64_t(n) + 3;  // an uneven size elsewhere
  std::vector<at::Tensor> got(static_cast<size_t>(n));
  auto outcome = run_star(n, net, [&](Comm& comm) {
    const int r = comm.rank();
    at::Tensor out;
    if (op == "all_reduce") {
      out = values(r, 0, whole);
      comm.all_reduce(out);
    } else if (op == "broadcast") {
      out = values(r, 0, whole);
      comm.broadcast(out, root);
    } else if (op == "reduce") {
      out = values(r, 0, whole);
      comm.reduce(out, root);
    } else if (op == "all_gather") {
      out = at::zeros({block * n});
      comm.all_gather(out, values(r, 0, block));
    } else if (op == "gather") {
      out = r == root ? at::zeros({block * n}) : at::Tensor();
      comm.gather(out, values(r, 0, block), root);
    } else if (op == "reduce_scatter") {
      out = at::zeros({block});
      comm.reduce_scatter(out, values(r, 0, block * n));
    } else if (op == "scatter") {
      out = at::zeros({block});
      comm.scatter(out, r == root ? values(r, 0, block * n) : at::Tensor(), root);
    } else if (op == "all_to_all") {
      out = at::zeros({block * n});
      comm.all_to_all(out, values(r, 0, block * n));
    } else {
      comm.barrier();
    }
    got[static_cast<size_t>(r)] = out;
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;

  for (int r = 0; r < n; ++r) {
    at::Tensor want;
    if (op == "all_reduce" || (op == "reduce" && r == root)) {
      want = at::zeros({whole});
      for (int j = 0; j < n; ++j) want += values(j, 0, whole);
    } else if (op == "reduce") {
      want = values(r, 0, whole);  // a non-root's tensor is left as it was
    } else if (op == "broadcast") {
      want = values(root, 0, whole);
    } else if (op == "all_gather" || (op == "gather" && r == root)) {
      std::vector<at::Tensor> parts;
      for (int j = 0; j < n; ++j) parts.push_back(values(j, 0, block));
      want = at::cat(parts);
    } else if (op == "reduce_scatter") {
      want = at::zeros({block});
      for (int j = 0; j < n; ++j) want += values(j, r * block, block);
    } else if (op == "scatter") {
      want = values(root, r * block, block);
    } else if (op == "all_to_all") {
      std::vector<at::Tensor> parts;
      for (int j = 0; j < n; ++j) parts.push_back(values(j, r * block, block));
      want = at::cat(parts);
    }
    const at::Tensor& result = got[static_cast<size_t>(r)];
    if (!want.defined()) {
      EXPECT_FALSE(result.defined()) << "rank " << r;
      continue;
    }
    ASSERT_TRUE(result.defined()) << "rank " << r;
    EXPECT_TRUE(at::equal(result, want)) << op << " by " << algorithm << ", rank " << r << ": got "
                                         << result << " want " << want;
  }
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return std::get<0>(info.param) + "_" + std::get<1>(info.param) + "_" +
         std::to_string(std::get<2>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Registered, AlgorithmExactness, ::testing::ValuesIn(every_case()),
                         case_name);

// all_to_all_v: uneven splits, rank i sending (i + j) % 3 rows of 2 elements to rank j.
class AllToAllV : public ::testing::TestWithParam<std::tuple<std::string, int>> {};

TEST_P(AllToAllV, UnevenSplitsArriveInPlace) {
  const auto& [algorithm, n] = GetParam();
  NetworkConfig net;
  net.collectives[OpType::kAllToAll] = CollectiveChoice{algorithm, {}};
  auto rows = [](int from, int to) { return int64_t((from + to) % 3); };
  std::vector<at::Tensor> got(static_cast<size_t>(n));
  auto outcome = run_star(n, net, [&](Comm& comm) {
    const int r = comm.rank();
    std::vector<int64_t> in_splits, out_splits;
    int64_t in_rows = 0, out_rows = 0;
    for (int j = 0; j < n; ++j) {
      in_splits.push_back(rows(r, j));
      out_splits.push_back(rows(j, r));
      in_rows += rows(r, j);
      out_rows += rows(j, r);
    }
    // Row k of rank r's input: 100 r + k, twice.
    at::Tensor in = (at::arange(in_rows, at::kFloat) + float(100 * r)).unsqueeze(1).repeat({1, 2});
    at::Tensor out = at::zeros({out_rows, 2});
    comm.all_to_all_v(out, in, out_splits, in_splits);
    got[static_cast<size_t>(r)] = out;
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  for (int r = 0; r < n; ++r) {
    std::vector<at::Tensor> parts;
    for (int j = 0; j < n; ++j) {
      int64_t first = 0;  // rank j's first row for r
      for (int k = 0; k < r; ++k) first += rows(j, k);
      parts.push_back((at::arange(first, first + rows(j, r), at::kFloat) + float(100 * j))
                          .unsqueeze(1)
                          .repeat({1, 2}));
    }
    EXPECT_TRUE(at::equal(got[static_cast<size_t>(r)], at::cat(parts))) << "rank " << r;
  }
}

INSTANTIATE_TEST_SUITE_P(Algorithms, AllToAllV,
                         ::testing::Combine(::testing::Values("direct", "gloo", "pairwise"),
                                            ::testing::Values(2, 3, 7)));

// The hierarchical all-to-all packs equal blocks per server: uneven splits are refused as an
// error of the calling rank (a run-time error with its rank), not an abort of the process.
TEST(AllToAllV, UnevenSplitsAreRefusedByAnAlgorithmOfEqualBlocks) {
  NetworkConfig net;
  net.collectives[OpType::kAllToAll] = CollectiveChoice{"hierarchical", {{"LocalSize", "2"}}};
  auto outcome = run_star(4, net, [&](Comm& comm) {
    const std::vector<int64_t> splits = {1, 2, 1, 2};
    at::Tensor in = at::zeros({6, 2}), out = at::zeros({6, 2});
    comm.all_to_all_v(out, in, splits, splits);
  });
  EXPECT_EQ(outcome.status, RunOutcome::Status::kError);
  EXPECT_NE(outcome.report.find("takes equal blocks only"), std::string::npos) << outcome.report;
}

// A call on meta tensors moves the same bytes in the same simulated time as one on real
// tensors (the shard code's compute before it may differ).
TEST(DataFree, MetaTensorsTakeTheSameSimulatedTime) {
  const int n = 4;
  auto time_of = [&](bool meta) {
    RunRecord record;
    auto outcome = run_star(
        n, NetworkConfig{},
        [&](Comm& comm) {
          at::Tensor t = meta ? at::empty({1 << 18}, at::TensorOptions().device(at::kMeta))
                              : at::ones({1 << 18});
          comm.all_reduce(t);
        },
        &record);
    EXPECT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
    int64_t start = INT64_MAX, end = 0;
    for (const Span& s : record.spans) {
      if (s.name != "all_reduce") continue;
      start = std::min(start, s.start_ns);
      end = std::max(end, s.end_ns);
    }
    return end - start;
  };
  const int64_t real = time_of(false);
  EXPECT_GT(real, 0);
  EXPECT_EQ(time_of(true), real);
}

}  // namespace
}  // namespace uniference::test
