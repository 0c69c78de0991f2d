#include "apps/record_json.h"

#include <gtest/gtest.h>

namespace uniference {
namespace {

// Rank `rank`'s part of a 2-rank deployment: its stats filled in, the other's empty.
RunRecord part(int rank, std::vector<std::tuple<int64_t, int64_t, int64_t>> tokens) {
  RunRecord record;
  record.deployed_on = "gloo";
  record.ranks.resize(2);
  record.ranks[0].rank = 0;
  record.ranks[1].rank = 1;
  RankStats& own = record.ranks[size_t(rank)];
  own.compute_ns = 100 + rank;
  own.comm_wait_ns = 200 + rank;
  own.bytes_sent = 300 + uint64_t(rank);
  own.finish_ns = 1000 * (rank + 1);
  own.weight_bytes = 7;
  own.bytes_by_label["layer0.o_proj"]["all_reduce"] = 64;
  record.total_ns = own.finish_ns;
  record.spans.push_back(Span{rank, Span::Kind::kCompute, "layer0.mlp", 1, 5, 0, -1, ""});
  Span flight{rank, Span::Kind::kFlight, "send", 5, 9, 128, 1 - rank, ""};
  flight.label = "head";
  record.spans.push_back(flight);
  for (const auto& [time, prompt, token] : tokens) {
    record.token_times_ns.push_back(time);
    record.token_prompts.push_back(prompt);
    record.tokens.push_back(token);
  }
  return record;
}

TEST(RecordJson, RoundTripsEveryField) {
  const RunRecord record = part(1, {{50, 0, 11}, {70, 0, 12}});
  const RunRecord back = record_from_json(nlohmann::json::parse(record_to_json(record).dump()));
  EXPECT_EQ(back.deployed_on, "gloo");
  EXPECT_EQ(back.total_ns, 2000);
  EXPECT_EQ(back.tokens, (std::vector<int64_t>{11, 12}));
  EXPECT_EQ(back.token_times_ns, (std::vector<int64_t>{50, 70}));
  ASSERT_EQ(back.ranks.size(), 2u);
  EXPECT_EQ(back.ranks[1].comm_wait_ns, 201);
  EXPECT_EQ(back.ranks[1].bytes_by_label.at("layer0.o_proj").at("all_reduce"), 64u);
  ASSERT_EQ(back.spans.size(), 2u);
  EXPECT_EQ(back.spans[1].kind, Span::Kind::kFlight);
  EXPECT_EQ(back.spans[1].label, "head");
  EXPECT_EQ(back.spans[1].peer, 0);
}

TEST(RecordJson, MalformedRecordsAreRefused) {
  nlohmann::json broken = record_to_json(part(0, {}));
  broken["spans"][0][1] = "nap";
  EXPECT_THROW(record_from_json(broken), std::invalid_argument);
  broken = record_to_json(part(0, {{1, 0, 2}}));
  broken["tokens"].push_back(3);
  EXPECT_THROW(record_from_json(broken), std::invalid_argument);
}

TEST(RecordJson, MergeTakesEachRanksOwnStatsAndOrdersTokensByTime) {
  const RunRecord merged = merge_rank_records({part(0, {{40, 1, 7}}), part(1, {{30, 0, 5}, {60, 0, 6}})});
  ASSERT_EQ(merged.ranks.size(), 2u);
  EXPECT_EQ(merged.ranks[0].compute_ns, 100);
  EXPECT_EQ(merged.ranks[1].compute_ns, 101);
  EXPECT_EQ(merged.total_ns, 2000);
  EXPECT_EQ(merged.spans.size(), 4u);
  EXPECT_EQ(merged.tokens, (std::vector<int64_t>{5, 7, 6}));
  EXPECT_EQ(merged.token_prompts, (std::vector<int64_t>{0, 1, 0}));
  EXPECT_EQ(merged.deployed_on, "gloo");
}

}  // namespace
}  // namespace uniference
