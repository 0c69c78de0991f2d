// A scenario chooses a collective algorithm by name, and the run uses it: the toy
// algorithm of toy_direct_all_reduce.cc, added in one file and one registration line.
#include "apps/scenario.h"
#include "apps/scenario_check.h"
#include "test_support.h"

#include <gtest/gtest.h>

namespace uniference::test {
namespace {

const char* kScenario = R"({
  "model": {"preset": "tiny"},
  "parallel": {"strategy": "tp", "tp": 4},
  "workload": {"prompt_tokens": 4, "new_tokens": 1},
  "network": {"topology": "star", "link": {"rate": "1Gbps", "delay": "50us"}},
  "collectives": {"all_reduce": {"algorithm": "toy-direct"}}
})";

// Messages one all-reduce of 4 ranks puts on the network, counted from the record.
size_t all_reduce_messages(const NetworkConfig& network, at::Tensor* result) {
  RunRecord record;
  std::vector<at::Tensor> results(4);
  auto outcome = run_star(
      4, network,
      [&](Comm& comm) {
        at::Tensor x = at::full({1024}, float(comm.rank() + 1));
        comm.all_reduce(x);
        results[size_t(comm.rank())] = x;
      },
      &record);
  EXPECT_EQ(outcome.status, RunOutcome::Status::kCompleted) << outcome.report;
  for (const at::Tensor& r : results) EXPECT_TRUE(at::equal(r, results[0]));
  *result = results[0];
  return record.messages.size();
}

TEST(ScenarioCollectives, ToyAlgorithmChosenByNameRuns) {
  const CheckedScenario checked = check_scenario(parse_scenario_text(kScenario, "toy.json"));
  ASSERT_EQ(checked.network.collectives.count(OpType::kAllReduce), 1u);
  at::Tensor sum;
  // One-shot direct: every rank sends to every other, n (n - 1) messages.
  EXPECT_EQ(all_reduce_messages(checked.network, &sum), 4u * 3u);
  EXPECT_TRUE(at::equal(sum, at::full({1024}, 1.0f + 2 + 3 + 4)));
  // The default (ring): 2 (n - 1) steps, each rank sending one chunk per step.
  EXPECT_EQ(all_reduce_messages(NetworkConfig{}, &sum), 2u * 3u * 4u);
}

}  // namespace
}  // namespace uniference::test
