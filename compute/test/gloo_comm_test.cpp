// GlooComm over real Gloo: n ranks, one thread each, connected through a TCPStore on
// loopback. Every expected value is computed here from the inputs, independently of Gloo.
#include "compute/backends/gloo_comm.h"
#include "compute/test/gloo_world.h"

#include <gtest/gtest.h>

#include <functional>
#include <thread>

namespace uniference {
namespace {

using namespace std::chrono_literals;

using test::run_world;
using test::kBothExchanges;

at::Tensor filled(std::vector<int64_t> shape, double value) {
  return at::full(shape, value, at::kFloat);
}

TEST(GlooComm, AllReduceSumsMaxesAndMins) {
  run_world(4, [](Comm& comm) {
    const double r = comm.rank();
    at::Tensor sum = at::arange(6, at::kFloat) + r;
    comm.all_reduce(sum);
    EXPECT_TRUE(at::equal(sum, at::arange(6, at::kFloat) * 4 + (0 + 1 + 2 + 3)));
    at::Tensor max = filled({3}, r);
    comm.all_reduce(max, ReduceOp::kMax);
    EXPECT_TRUE(at::equal(max, filled({3}, 3)));
    at::Tensor min = filled({3}, r + 5);
    comm.all_reduce(min, ReduceOp::kMin);
    EXPECT_TRUE(at::equal(min, filled({3}, 5)));
  });
}

TEST(GlooComm, AllGatherAndReduceScatterUseBlocksAlongDimZero) {
  run_world(3, [](Comm& comm) {
    const int n = comm.size();
    const double r = comm.rank();
    at::Tensor mine = filled({2, 2}, r);
    at::Tensor all = at::empty({2 * n, 2}, at::kFloat);
    comm.all_gather(all, mine);
    for (int j = 0; j < n; ++j) EXPECT_TRUE(at::equal(all.narrow(0, 2 * j, 2), filled({2, 2}, j)));

    // Block j of rank r's input holds 10 j + r: rank j's output is the sum over r.
    at::Tensor input = at::empty({n, 4}, at::kFloat);
    for (int j = 0; j < n; ++j) input[j].fill_(10.0 * j + r);
    at::Tensor output = at::empty({1, 4}, at::kFloat);
    comm.reduce_scatter(output, input);
    EXPECT_TRUE(at::equal(output, filled({1, 4}, 10.0 * r * n + (0 + 1 + 2))));
    // The caller's input is left as it was.
    EXPECT_EQ(input[0][0].item<float>(), float(r));
  });
}

TEST(GlooComm, AllGatherOnTwoRanksExchangesTheBlocks) {
  // Two ranks take GlooComm's exchange (receive-first) or Gloo's ring (stock); the result is
  // the same.
  for (GlooExchanges exchanges : kBothExchanges) {
    SCOPED_TRACE(exchanges_name(exchanges));
    run_world(2, [](Comm& comm) {
      const double r = comm.rank();
      at::Tensor mine = at::arange(6, at::kFloat).view({3, 2}) + 10 * r;
      at::Tensor all = at::zeros({2, 6}, at::kFloat).t();  // [6, 2], not contiguous
      comm.all_gather(all, mine);
      for (int j = 0; j < 2; ++j) {
        EXPECT_TRUE(at::equal(all.narrow(0, 3 * j, 3), at::arange(6, at::kFloat).view({3, 2}) + 10 * j));
      }
    }, std::chrono::milliseconds(20000), exchanges);
  }
}

TEST(GlooComm, RootedOperations) {
  run_world(4, [](Comm& comm) {
    const int n = comm.size();
    const int r = comm.rank();
    at::Tensor value = filled({5}, r == 2 ? 7.0 : -1.0);
    comm.broadcast(value, 2);
    EXPECT_TRUE(at::equal(value, filled({5}, 7)));

    at::Tensor reduced = filled({2}, r + 1);
    comm.reduce(reduced, 1);
    EXPECT_TRUE(at::equal(reduced, filled({2}, r == 1 ? 1 + 2 + 3 + 4 : r + 1)));

    at::Tensor gathered = r == 0 ? at::empty({n, 3}, at::kFloat) : at::Tensor();
    comm.gather(gathered, filled({1, 3}, r), 0);
    if (r == 0) {
      for (int j = 0; j < n; ++j) EXPECT_TRUE(at::equal(gathered[j], filled({3}, j)));
    }

    at::Tensor pieces = r == 3 ? at::arange(n * 2, at::kFloat).view({n, 2}) : at::Tensor();
    at::Tensor piece = at::empty({1, 2}, at::kFloat);
    comm.scatter(piece, pieces, 3);
    EXPECT_TRUE(at::equal(piece, at::arange(2 * r, 2 * r + 2, at::kFloat).view({1, 2})));
  });
}

// gather_v over real Gloo: rank j's rows (splits[j] of them, none for rank 2) land at the
// root in rank order.
TEST(GlooComm, GatherVConcatenatesEveryRanksRowsAtTheRoot) {
  run_world(4, [](Comm& comm) {
    const std::vector<int64_t> splits = {2, 3, 0, 1};
    const int r = comm.rank();
    const int root = 1;
    const at::Tensor mine = filled({splits[size_t(r)], 2}, 10.0 * r);
    at::Tensor gathered = r == root ? at::empty({6, 2}, at::kFloat) : at::Tensor();
    comm.gather_v(gathered, mine, splits, root);
    if (r != root) return;
    std::vector<at::Tensor> parts;
    for (int j = 0; j < comm.size(); ++j) parts.push_back(filled({splits[size_t(j)], 2}, 10.0 * j));
    EXPECT_TRUE(at::equal(gathered, at::cat(parts))) << gathered;
  });
}

TEST(GlooComm, AllToAllEqualAndSplitBlocks) {
  // Receive-first exchanges, or Gloo's own alltoall and alltoallv (stock): the same blocks land.
  for (GlooExchanges exchanges : kBothExchanges) {
    SCOPED_TRACE(exchanges_name(exchanges));
    run_world(3, [](Comm& comm) {
      const int n = comm.size();
      const int r = comm.rank();
      at::Tensor input = at::empty({n, 2}, at::kFloat);
      for (int j = 0; j < n; ++j) input[j].fill_(10.0 * r + j);  // block j goes to rank j
      at::Tensor output = at::empty({n, 2}, at::kFloat);
      comm.all_to_all(output, input);
      for (int j = 0; j < n; ++j) EXPECT_TRUE(at::equal(output[j], filled({2}, 10.0 * j + r)));

      // Rank r sends j + 1 rows to rank j, each row 100 r + j; so rank r gets r + 1 rows from each.
      std::vector<int64_t> in_splits, out_splits;
      std::vector<at::Tensor> rows;
      for (int j = 0; j < n; ++j) {
        in_splits.push_back(j + 1);
        out_splits.push_back(r + 1);
        rows.push_back(filled({j + 1, 1}, 100.0 * r + j));
      }
      at::Tensor sent = at::cat(rows);
      at::Tensor got = at::empty({n * (r + 1), 1}, at::kFloat);
      comm.all_to_all_v(got, sent, out_splits, in_splits);
      for (int j = 0; j < n; ++j) {
        EXPECT_TRUE(at::equal(got.narrow(0, j * (r + 1), r + 1), filled({r + 1, 1}, 100.0 * j + r)));
      }
    }, std::chrono::milliseconds(20000), exchanges);
  }
}

TEST(GlooComm, AllToAllVSkipsEmptyBlocksAndKeepsPointToPointApart) {
  for (GlooExchanges exchanges : kBothExchanges) {
    SCOPED_TRACE(exchanges_name(exchanges));
    run_world(4, [](Comm& comm) {
      const int n = comm.size();
      const int r = comm.rank();
      // Rank r sends (r + j) % 3 rows to rank j, each row 10 r + j: some blocks are empty.
      std::vector<int64_t> in_splits, out_splits;
      std::vector<at::Tensor> rows;
      for (int j = 0; j < n; ++j) {
        in_splits.push_back((r + j) % 3);
        out_splits.push_back((j + r) % 3);
        rows.push_back(filled({(r + j) % 3, 2}, 10.0 * r + j));
      }
      at::Tensor sent = at::cat(rows);
      int64_t received = 0;
      for (int64_t s : out_splits) received += s;
      // A point-to-point message to the next rank is in flight across the exchange.
      at::Tensor note = filled({3}, r);
      WorkPtr noted = comm.isend(note, (r + 1) % n, /*tag=*/0);
      at::Tensor got = at::empty({received, 2}, at::kFloat);
      comm.all_to_all_v(got, sent, out_splits, in_splits);
      int64_t row = 0;
      for (int j = 0; j < n; ++j) {
        EXPECT_TRUE(at::equal(got.narrow(0, row, out_splits[size_t(j)]),
                              filled({out_splits[size_t(j)], 2}, 10.0 * j + r)));
        row += out_splits[size_t(j)];
      }
      at::Tensor heard = at::empty({3}, at::kFloat);
      comm.recv(heard, (r + n - 1) % n, 0);
      noted->wait();
      EXPECT_TRUE(at::equal(heard, filled({3}, (r + n - 1) % n)));
    }, std::chrono::milliseconds(20000), exchanges);
  }
}

TEST(GlooComm, RefusesSplitsThatDoNotFitAndTagsItKeepsForItself) {
  run_world(2, [](Comm& comm) {
    at::Tensor input = filled({4, 1}, 1), output = at::empty({4, 1}, at::kFloat);
    try {
      comm.all_to_all_v(output, input, {2, 2}, {1, 2});
      ADD_FAILURE() << "splits of 3 rows over an input of 4 were accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("input splits add up to 3 rows"), std::string::npos)
          << e.what();
    }
    try {
      comm.isend(input, 1 - comm.rank(), 1 << 30);
      ADD_FAILURE() << "a tag of 2^30 was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("tag 1073741824"), std::string::npos) << e.what();
    }
  });
}

TEST(GlooComm, SendRecvMatchTagsAndAsyncHandlesComplete) {
  run_world(2, [](Comm& comm) {
    if (comm.rank() == 0) {
      at::Tensor a = filled({4}, 1), b = filled({4}, 2);
      WorkPtr second = comm.isend(b, 1, /*tag=*/2);
      WorkPtr first = comm.isend(a, 1, /*tag=*/1);
      first->wait();
      second->wait();
      EXPECT_TRUE(first->is_completed());
    } else {
      at::Tensor one = at::empty({4}, at::kFloat), two = at::empty({4}, at::kFloat);
      comm.recv(one, 0, 1);
      comm.recv(two, 0, 2);
      EXPECT_TRUE(at::equal(one, filled({4}, 1)));
      EXPECT_TRUE(at::equal(two, filled({4}, 2)));
    }
    comm.barrier();
  });
}

TEST(GlooComm, NonContiguousResultsLandInTheCallersTensor) {
  run_world(2, [](Comm& comm) {
    at::Tensor base = at::zeros({3, 2}, at::kFloat);
    at::Tensor view = base.t();  // [2, 3], not contiguous
    view.fill_(comm.rank() + 1);
    comm.all_reduce(view);
    EXPECT_TRUE(at::equal(base, filled({3, 2}, 3)));
  });
}

TEST(GlooComm, SplitGroupsRunTheirOwnCollectives) {
  run_world(4, [](Comm& comm) {
    const int r = comm.rank();
    std::shared_ptr<Comm> evens = comm.split({0, 2});
    std::shared_ptr<Comm> odds = comm.split({1, 3});
    std::shared_ptr<Comm> mine = r % 2 == 0 ? evens : odds;
    ASSERT_TRUE(mine);
    EXPECT_FALSE(r % 2 == 0 ? odds : evens);
    EXPECT_EQ(mine->rank(), r / 2);
    EXPECT_EQ(mine->size(), 2);
    at::Tensor value = filled({2}, r);
    mine->all_reduce(value);
    EXPECT_TRUE(at::equal(value, filled({2}, r % 2 == 0 ? 0 + 2 : 1 + 3)));
  });
}

TEST(GlooComm, AReceiveNobodySendsTimesOutNamingThePeer) {
  const auto start = std::chrono::steady_clock::now();
  try {
    run_world(2, [](Comm& comm) {
      if (comm.rank() == 1) {
        at::Tensor never = at::empty({1}, at::kFloat);
        comm.recv(never, 0, 9);
      } else {
        std::this_thread::sleep_for(3s);  // alive, silent: the receive must time out
      }
    }, 1500ms);
    FAIL() << "the receive completed";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("recv from rank 0"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("imed out"), std::string::npos) << e.what();
  }
  // The failure is seen when rank 0's thread ends too; what matters is that rank 1 gave up.
  EXPECT_LT(std::chrono::steady_clock::now() - start, 30s);
}

TEST(GlooComm, WrongShapesAreRefusedNamingTheOperation) {
  run_world(2, [](Comm& comm) {
    at::Tensor input = filled({2}, 0);
    at::Tensor output = at::empty({3}, at::kFloat);
    try {
      comm.all_gather(output, input);
      FAIL() << "accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("all_gather"), std::string::npos) << e.what();
    }
  });
}

}  // namespace
}  // namespace uniference
