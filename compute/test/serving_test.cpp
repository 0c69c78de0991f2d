// The serving parts that need no simulator: the request stream, the schedulers, the
// model's ragged forward pass, and the serving loop on one device.
#include "compute/serving/requests.h"
#include "compute/serving/scheduler.h"
#include "compute/serving/serving_loop.h"

#include "compute/generation.h"
#include "compute/llama.h"

#include "compute/test/small_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <stdexcept>

namespace uniference {
namespace {

ServingWorkload poisson(double rate, int64_t count) {
  ServingWorkload w;
  w.arrivals.rate_per_s = rate;
  w.arrivals.count = count;
  w.prompt.value = 8;
  w.output.value = 4;
  return w;
}

TEST(Requests, PoissonGapsHaveMeanAndSpreadOfAnExponential) {
  const std::vector<Request> requests = make_requests(poisson(50, 20000), 7);
  ASSERT_EQ(requests.size(), 20000u);
  double sum = 0, sum_sq = 0;
  int64_t previous = 0;
  for (const Request& r : requests) {
    const double gap = double(r.arrival_ns - previous) * 1e-9;
    ASSERT_GE(gap, 0);
    sum += gap;
    sum_sq += gap * gap;
    previous = r.arrival_ns;
  }
  const double n = double(requests.size()), mean = sum / n;
  const double sd = std::sqrt(sum_sq / n - mean * mean);
  // Exponential(50/s): mean = sd = 20 ms; the standard error of the mean is 20 ms / sqrt(n).
  EXPECT_NEAR(mean, 0.02, 4 * 0.02 / std::sqrt(n));
  EXPECT_NEAR(sd, 0.02, 0.001);
}

TEST(Requests, DurationBoundsTheStreamAndTheSeedFixesIt) {
  ServingWorkload w = poisson(100, 0);
  w.arrivals.duration_ns = 2'000'000'000;
  const std::vector<Request> a = make_requests(w, 3), b = make_requests(w, 3);
  ASSERT_FALSE(a.empty());
  EXPECT_LT(a.back().arrival_ns, w.arrivals.duration_ns);
  EXPECT_NEAR(double(a.size()), 200.0, 4 * std::sqrt(200.0));
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].arrival_ns, b[i].arrival_ns);
  EXPECT_NE(make_requests(w, 4).front().arrival_ns, a.front().arrival_ns);
}

TEST(Requests, LengthDistributionsKeepTheirBoundsAndShape) {
  ServingWorkload w = poisson(10, 4000);
  w.prompt = LengthSpec{"uniform", 0, 5, 9};
  w.output.distribution = "lognormal";
  w.output.median = 20;
  w.output.sigma = 0.5;
  w.output.min = 1;
  w.output.max = 1000;
  const std::vector<Request> requests = make_requests(w, 11);
  std::map<int64_t, int> counts;
  std::vector<int64_t> outputs;
  for (const Request& r : requests) {
    ++counts[r.prompt_tokens];
    outputs.push_back(r.new_tokens);
  }
  ASSERT_EQ(counts.size(), 5u);
  EXPECT_EQ(counts.begin()->first, 5);
  EXPECT_EQ(counts.rbegin()->first, 9);
  for (const auto& [length, count] : counts) EXPECT_NEAR(count, 800, 4 * std::sqrt(800.0));
  std::nth_element(outputs.begin(), outputs.begin() + 2000, outputs.end());
  EXPECT_NEAR(double(outputs[2000]), 20.0, 1.0);  // the median of a lognormal is exp(mu)

  w.prompt = LengthSpec{"trace"};
  w.prompt.trace = {3, 1, 4};
  const std::vector<Request> traced = make_requests(w, 11);
  EXPECT_EQ(traced[0].prompt_tokens, 3);
  EXPECT_EQ(traced[4].prompt_tokens, 1);
  EXPECT_EQ(traced[5].prompt_tokens, 4);
}

TEST(Requests, BadStreamsAreRefused) {
  EXPECT_THROW(make_requests(poisson(0, 5), 1), std::invalid_argument);
  EXPECT_THROW(make_requests(poisson(1, 0), 1), std::invalid_argument);
  ServingWorkload w = poisson(1, 5);
  w.prompt.distribution = "trace";
  EXPECT_THROW(make_requests(w, 1), std::invalid_argument);
}

Request request(int64_t id, int64_t prompt, int64_t out) { return Request{id, 0, prompt, out}; }

// Runs a scheduler with every request arrived at once and fake tokens (7s); returns the
// steps as (prefill?, request ids).
std::vector<std::pair<bool, std::vector<int64_t>>> schedule(const std::string& name,
                                                            const std::vector<Request>& requests,
                                                            int64_t max_batch, int64_t kv) {
  std::unique_ptr<Scheduler> s = schedulers().at(name).make(SchedulerConfig{name, max_batch, kv});
  for (const Request& r : requests) s->arrive(r);
  std::vector<std::pair<bool, std::vector<int64_t>>> steps;
  while (s->has_work()) {
    const StepPlan plan = s->next();
    std::vector<int64_t> ids;
    for (const StepItem& item : plan.items) ids.push_back(item.request);
    steps.emplace_back(plan.prefill, ids);
    s->complete(plan, std::vector<int64_t>(plan.items.size(), 7));
    if (steps.size() > 1000) ADD_FAILURE() << "scheduler does not finish";
    if (steps.size() > 1000) break;
  }
  return steps;
}

TEST(Scheduler, StaticWaitsForTheWholeBatch) {
  const auto steps = schedule("static", {request(0, 4, 3), request(1, 4, 1), request(2, 4, 1)},
                              2, 1000);
  // {0,1} prefill (1 finishes), 0 decodes twice alone, then 2 is admitted.
  using Step = std::pair<bool, std::vector<int64_t>>;
  const std::vector<Step> expected{{true, {0, 1}}, {false, {0}}, {false, {0}}, {true, {2}}};
  EXPECT_EQ(steps, expected);
}

TEST(Scheduler, ContinuousFillsFreedSlotsAtOnce) {
  const auto steps = schedule(
      "continuous", {request(0, 4, 3), request(1, 4, 1), request(2, 4, 2)}, 2, 1000);
  using Step = std::pair<bool, std::vector<int64_t>>;
  const std::vector<Step> expected{{true, {0, 1}}, {true, {2}}, {false, {0, 2}}, {false, {0}}};
  EXPECT_EQ(steps, expected);
}

TEST(Scheduler, ContinuousPreemptsTheNewestWhenTheCacheIsFull) {
  // 10 positions: two prompts of 4 fit (8), their first decode needs 10, the second 12.
  std::unique_ptr<Scheduler> s = schedulers().at("continuous").make({"continuous", 4, 10});
  s->arrive(request(0, 4, 4));
  s->arrive(request(1, 4, 4));
  StepPlan plan = s->next();
  ASSERT_TRUE(plan.prefill);
  s->complete(plan, {11, 21});
  plan = s->next();  // positions 4 of both: 10 held
  ASSERT_EQ(plan.items.size(), 2u);
  s->complete(plan, {12, 22});
  plan = s->next();  // both need a sixth position: 1 is preempted
  ASSERT_FALSE(plan.prefill);
  ASSERT_EQ(plan.items.size(), 1u);
  EXPECT_EQ(plan.items[0].request, 0);
  EXPECT_EQ(s->preemptions(1), 1);
  s->complete(plan, {13});
  plan = s->next();
  s->complete(plan, {14});  // request 0 finished: 1 comes back with its context
  plan = s->next();
  ASSERT_TRUE(plan.prefill);
  ASSERT_EQ(plan.items.size(), 1u);
  EXPECT_EQ(plan.items[0].request, 1);
  EXPECT_EQ(plan.items[0].generated, (std::vector<int64_t>{21, 22}));
  EXPECT_EQ(plan.items[0].length(), 6);
}

TEST(Scheduler, ARequestLargerThanTheCacheIsAnError) {
  std::unique_ptr<Scheduler> s = schedulers().at("static").make({"static", 2, 5});
  s->arrive(request(0, 4, 4));
  EXPECT_THROW(s->next(), std::logic_error);
}

TEST(ForwardRows, RaggedDecodeGivesEachSequenceItsOwnTokens) {
  const ModelConfig config = small_config();
  const std::vector<int64_t> a = make_prompt(5, config.vocab, 1), b = make_prompt(9, config.vocab, 2);
  LlamaModel reference(config, 3);
  const std::vector<int64_t> want_a = generate(reference, a, 6);
  const std::vector<int64_t> want_b = generate(reference, b, 6);

  // Slots 1 and 0 (not in order); prefilled one by one, decoded together.
  LlamaModel model(config, 3, ModelShard{TpGroup{}, 0, -1, CacheShape{2, 32}});
  std::vector<int64_t> got_a, got_b;
  got_a.push_back(greedy_tokens(model.forward_rows(token_batch({a}), SequenceRows{{1}, {0}}))[0]);
  got_b.push_back(greedy_tokens(model.forward_rows(token_batch({b}), SequenceRows{{0}, {0}}))[0]);
  for (int step = 1; step < 6; ++step) {
    const at::Tensor ids = token_batch({{got_a.back()}, {got_b.back()}});
    const SequenceRows rows{{1, 0}, {int64_t(a.size()) + step - 1, int64_t(b.size()) + step - 1}};
    const std::vector<int64_t> next = greedy_tokens(model.forward_rows(ids, rows));
    got_a.push_back(next[0]);
    got_b.push_back(next[1]);
  }
  EXPECT_EQ(got_a, want_a);
  EXPECT_EQ(got_b, want_b);
  EXPECT_THROW(model.forward_rows(token_batch({a}), SequenceRows{{2}, {0}}), std::invalid_argument);
  EXPECT_THROW(model.forward_rows(token_batch({a}), SequenceRows{{0}, {30}}), std::invalid_argument);
}

}  // namespace
}  // namespace uniference
