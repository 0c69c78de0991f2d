#include "apps/fresh_process.h"

#include "apps/scenario_error.h"

#include <gtest/gtest.h>

#include <csignal>
#include <stdexcept>
#include <string>

namespace uniference {
namespace {

TEST(FreshProcess, TheChildsRecordComesBackAndItsMemoryStaysItsOwn) {
  int touched = 0;
  const RunRecord record = run_in_fresh_process([&] {
    touched = 1;  // in the child's copy of this frame
    RunRecord r;
    r.total_ns = 1234;
    r.token_times_ns = {5, 6};
    r.tokens = {7, 8};
    r.token_prompts = {0, 0};
    r.ranks.push_back(RankStats{});
    r.ranks.back().compute_ns = 99;
    return r;
  });
  EXPECT_EQ(touched, 0) << "the run shared this process's memory";
  EXPECT_EQ(record.total_ns, 1234);
  EXPECT_EQ(record.token_times_ns, (std::vector<int64_t>{5, 6}));
  ASSERT_EQ(record.ranks.size(), 1u);
  EXPECT_EQ(record.ranks[0].compute_ns, 99);
}

TEST(FreshProcess, TheChildsErrorsAreThrownHere) {
  try {
    run_in_fresh_process([]() -> RunRecord { throw ScenarioError("s.json", "/network/link/rate", "too fast"); });
    ADD_FAILURE() << "no scenario error";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.source(), "s.json");
    EXPECT_EQ(e.pointer(), "/network/link/rate");
    EXPECT_EQ(e.detail(), "too fast");
  }
  try {
    run_in_fresh_process([]() -> RunRecord { throw std::invalid_argument("no such rank"); });
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "no such rank");
  }
  try {
    run_in_fresh_process([]() -> RunRecord {
      std::raise(SIGKILL);
      return {};
    });
    ADD_FAILURE() << "a killed child went unnoticed";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("killed by signal 9"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace uniference
