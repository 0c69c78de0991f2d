// gather_v, the operation added through its description alone: SimComm's result against the
// concatenation computed here, its time against an alpha-beta formula from the link physics,
// and the shared checks' refusals.
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

namespace uniference::test {
namespace {

constexpr int64_t kRow = 4;  // elements per row

// Rank r's rows: values that tell ranks and rows apart.
at::Tensor rows_of(int rank, int64_t rows) {
  return at::arange(rows * kRow, at::kFloat).reshape({rows, kRow}) + float(1000 * (rank + 1));
}

TEST(GatherV, RootReceivesEveryRanksRowsInRankOrder) {
  const std::vector<int64_t> splits = {3, 0, 5, 2};  // rank 1 sends nothing
  const int n = static_cast<int>(splits.size());
  const int root = 2;
  at::Tensor got;
  std::vector<bool> untouched(static_cast<size_t>(n), false);
  auto outcome = run_star(n, NetworkConfig{}, [&](Comm& comm) {
    const int r = comm.rank();
    const at::Tensor input = rows_of(r, splits[static_cast<size_t>(r)]);
    const int64_t total = std::accumulate(splits.begin(), splits.end(), int64_t{0});
    at::Tensor output = at::full({total, kRow}, -1.0f);
    comm.gather_v(output, input, splits, root);
    if (r == root) {
      got = output;
    } else {
      untouched[static_cast<size_t>(r)] = at::equal(output, at::full({total, kRow}, -1.0f));
    }
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  std::vector<at::Tensor> parts;
  for (int j = 0; j < n; ++j) parts.push_back(rows_of(j, splits[static_cast<size_t>(j)]));
  const at::Tensor want = at::cat(parts);
  ASSERT_TRUE(got.defined());
  EXPECT_TRUE(at::equal(got, want)) << "got " << got << " want " << want;
  for (int r = 0; r < n; ++r) {
    if (r != root) EXPECT_TRUE(untouched[static_cast<size_t>(r)]) << "rank " << r;
  }
}

// One sender on the star (the root's own rows and the empty ranks move nothing): its rows
// cross two links through the hub, so the time is two propagation delays, the hub's
// store-and-forward of the last frame, and the bytes at the TCP payload rate of a link.
TEST(GatherV, TimeIsTheOneSendersAlphaBeta) {
  const std::vector<int64_t> rows = {5, 0, 3, 0};
  const int64_t row = 256 * 1024;  // float32 elements: 1 MiB a row
  const int n = static_cast<int>(rows.size());
  NetworkConfig net;
  net.topology = "star-routed";  // PPP framing, store-and-forward at the hub
  net.link_rate = ns3::DataRate("1Gbps");
  net.link_delay = ns3::MicroSeconds(50);
  RunRecord record;
  auto outcome = run_star(
      n, net,
      [&](Comm& comm) {
        const auto meta = at::TensorOptions().dtype(at::kFloat).device(at::kMeta);
        const at::Tensor input = at::empty({rows[static_cast<size_t>(comm.rank())], row}, meta);
        at::Tensor output = at::empty({8, row}, meta);
        comm.gather_v(output, input, rows, 0);
      },
      &record);
  ASSERT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  int64_t start = INT64_MAX, end = 0;
  for (const Span& s : record.spans) {
    if (s.name != "gather_v") continue;
    start = std::min(start, s.start_ns);
    end = std::max(end, s.end_ns);
  }
  ASSERT_LT(start, end);
  const double measured = double(end - start) * 1e-9;

  const double rate = 1e9, delay = 50e-6;
  const double mss = 1448, frame = 1448 + 32 + 20 + 2;  // TCP with timestamps, IPv4, PPP
  const double payload_rate = rate / 8 * (mss / frame);
  const double bytes = 3.0 * row * 4;  // rank 2's rows, the only ones on the wire
  const double formula = 2 * delay + frame * 8 / rate + bytes / payload_rate;
  EXPECT_NEAR(measured, formula, 0.05 * formula)
      << "measured " << measured << " s, alpha-beta " << formula << " s";
}

TEST(GatherV, RefusesSplitsThatDoNotFit) {
  auto outcome = run_star(2, NetworkConfig{}, [&](Comm& comm) {
    at::Tensor output = at::zeros({4, kRow});
    // Every rank says it sends 2 rows but holds 1.
    const at::Tensor input = rows_of(comm.rank(), 1);
    comm.gather_v(output, input, {2, 2}, 0);
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kError);
  EXPECT_NE(outcome.report.find("gather_v on rank 0: splits[0] is 2 rows, but the input [1, 4] "
                                "has 4 elements, expected 8"),
            std::string::npos)
      << outcome.report;
}

TEST(GatherV, RefusesASplitListOfTheWrongLength) {
  auto outcome = run_star(2, NetworkConfig{}, [&](Comm& comm) {
    at::Tensor output = at::zeros({2, kRow});
    comm.gather_v(output, rows_of(comm.rank(), 1), {1, 1, 0}, 0);
  });
  ASSERT_EQ(outcome.status, RunOutcome::Status::kError);
  EXPECT_NE(outcome.report.find("splits has 3 entries for a group of 2"), std::string::npos)
      << outcome.report;
}

}  // namespace
}  // namespace uniference::test
