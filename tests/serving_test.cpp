// Serving in simulation, against what does not come from the simulator: queueing theory
// (M/D/1), the single-device model's tokens, and the direction a scheduler change must move
// the tail.
#include "apps/compute_check.h"
#include "apps/report.h"
#include "apps/run_scenario.h"
#include "apps/scenario.h"
#include "apps/serving_report.h"
#include "bridge/chrome_trace.h"
#include "compute/generation.h"
#include "compute/llama.h"
#include "compute/model_config.h"
#include "compute/replay_profile.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <iostream>
#include <map>
#include <numeric>

namespace uniference {
namespace {

Scenario serving_scenario(const std::string& parallel, const std::string& workload,
                          bool shapes_only, const std::string& model = "tiny") {
  const std::string text = R"({
    "name": "serving-test", "seed": 9,
    "model": { "preset": ")" + model + R"(" },
    "parallel": )" + parallel + R"(,
    "workload": )" + workload + R"(,
    "compute": { "mode": "modeled", "shapes_only": )" + (shapes_only ? "true" : "false") + R"( },
    "network": { "topology": "star", "link": { "rate": "10Gbps", "delay": "5us" } },
    "outputs": { "trace": false, "link_samples": 0 }
  })";
  return parse_scenario_text(text, "serving-test.json");
}

ScenarioRun run(const Scenario& scenario) {
  ScenarioRun result = run_scenario(scenario, false);
  EXPECT_EQ(result.outcome.status, RunOutcome::Status::kCompleted) << result.outcome.report;
  return result;
}

// One rank, FCFS at batch 1, one prefill step per request: a deterministic server.
std::string md1_workload(double rate, int requests) {
  return R"({ "kind": "serving", "arrivals": { "rate": )" + std::to_string(rate) +
         R"(, "requests": )" + std::to_string(requests) +
         R"( }, "prompt_tokens": 4, "new_tokens": 1,
           "scheduler": { "name": "static", "max_batch": 1 } })";
}

TEST(ServingQueueing, MeanWaitMatchesMD1AtHalfLoad) {
  const std::string one_rank = R"({ "strategy": "tp", "tp": 1 })";
  // The service time, from a run of one request (nothing to queue behind).
  const ScenarioRun alone = run(serving_scenario(one_rank, md1_workload(1, 1), true));
  ASSERT_EQ(alone.record.requests.size(), 1u);
  const RequestRecord& only = alone.record.requests.front();
  const double service_ns = double(only.finish_ns - only.scheduled_ns);
  ASSERT_GT(service_ns, 0);

  const double rho = 0.5;
  const double rate = rho / (service_ns * 1e-9);
  const int requests = 10000;
  const ScenarioRun loaded = run(serving_scenario(one_rank, md1_workload(rate, requests), true));
  ASSERT_EQ(loaded.record.requests.size(), size_t(requests));
  std::vector<RequestRecord> by_id = loaded.record.requests;
  std::sort(by_id.begin(), by_id.end(),
            [](const RequestRecord& a, const RequestRecord& b) { return a.id < b.id; });
  std::vector<double> waits;
  for (const RequestRecord& r : by_id) {
    ASSERT_EQ(double(r.finish_ns - r.scheduled_ns), service_ns) << "request " << r.id;
    waits.push_back(double(r.scheduled_ns - r.arrival_ns));
  }
  // M/D/1 (Pollaczek-Khinchine with no service variance): Wq = rho S / (2 (1 - rho)).
  const double expected = rho * service_ns / (2 * (1 - rho));
  const double mean = std::accumulate(waits.begin(), waits.end(), 0.0) / double(waits.size());
  // The run is long enough when the standard error of its mean, from 20 batch means (waits
  // are correlated, so single samples would understate it), is well inside the tolerance.
  const size_t batches = 20, per_batch = waits.size() / batches;
  std::vector<double> batch_means;
  for (size_t b = 0; b < batches; ++b) {
    batch_means.push_back(std::accumulate(waits.begin() + long(b * per_batch),
                                          waits.begin() + long((b + 1) * per_batch), 0.0) /
                          double(per_batch));
  }
  double spread = 0;
  for (double m : batch_means) spread += (m - mean) * (m - mean);
  const double standard_error = std::sqrt(spread / double(batches - 1) / double(batches));
  std::cout << "mean wait " << mean << " ns, M/D/1 " << expected << " ns, standard error "
            << standard_error << " ns (service " << service_ns << " ns)\n";
  EXPECT_LT(2.5 * standard_error, 0.1 * expected) << "run too short to test within 10%";
  EXPECT_NEAR(mean, expected, 0.1 * expected);
  // The report's prediction is the same formula over the run's own service times.
  const QueueingModel model = queueing_model(rate, loaded.record.requests);
  EXPECT_NEAR(model.md1_wait_ns, expected, 1e-6 * expected);
}

// Every request's tokens against the single-device model generating its prompt alone.
void expect_single_device_tokens(const Scenario& scenario, const ScenarioRun& result) {
  const CheckedCompute checked = check_compute(scenario);
  const ServingInputs inputs = serving_inputs(scenario, checked);
  ASSERT_EQ(result.record.requests.size(), inputs.requests.size());
  std::map<int64_t, std::vector<int64_t>> served;
  for (const RequestRecord& r : result.record.requests) served[r.id] = r.tokens;
  LlamaModel reference(checked.model, scenario.seed);
  for (const Request& r : inputs.requests) {
    const std::vector<int64_t> prompt = request_prompt(r, checked.model.vocab, scenario.seed);
    EXPECT_EQ(served[r.id], generate(reference, prompt, r.new_tokens)) << "request " << r.id;
  }
}

const char* kMixedLengths = R"({ "kind": "serving", "arrivals": { "rate": 400, "requests": 6 },
    "prompt_tokens": { "distribution": "uniform", "min": 3, "max": 12 },
    "new_tokens": { "distribution": "uniform", "min": 2, "max": 6 },
    "scheduler": { "name": "continuous", "max_batch": 4 } })";

TEST(ServingTokens, TensorParallelContinuousBatchingGivesEachRequestItsOwnTokens) {
  const Scenario scenario = serving_scenario(R"({ "strategy": "tp", "tp": 2 })", kMixedLengths, false);
  const ScenarioRun result = run(scenario);
  expect_single_device_tokens(scenario, result);
}

TEST(ServingTokens, PipelineStagesOfTensorParallelGroupsServeTheSameTokens) {
  const Scenario scenario =
      serving_scenario(R"({ "strategy": "tp-pp", "tp": 2, "pp": 2 })", kMixedLengths, false);
  const ScenarioRun result = run(scenario);
  expect_single_device_tokens(scenario, result);
}

// Data-parallel attention: each rank serves the requests in its own cache slots, and ranks
// with none in a pass still join its MoE exchanges.
TEST(ServingTokens, ExpertParallelServingGivesEachRequestItsOwnTokens) {
  for (const char* parallel : {R"({ "strategy": "ep", "ep": 2 })",
                               R"({ "strategy": "ep", "ep": 4, "dispatch": "decomposed" })"}) {
    const Scenario scenario = serving_scenario(parallel, kMixedLengths, false, "tiny-moe");
    const ScenarioRun result = run(scenario);
    expect_single_device_tokens(scenario, result);
  }
}

TEST(ServingTokens, ReplicasSplitTheStreamAndPreemptedRequestsResumeExactly) {
  // 24 positions per replica: three requests' prompts fit, their growth does not.
  const std::string workload = R"({ "kind": "serving", "arrivals": { "rate": 2000, "requests": 8 },
      "prompt_tokens": 6, "new_tokens": 5,
      "scheduler": { "name": "continuous", "max_batch": 4, "kv_cache_tokens": 24 } })";
  const Scenario scenario = serving_scenario(R"({ "strategy": "tp", "dp": 2 })", workload, false);
  const ScenarioRun result = run(scenario);
  expect_single_device_tokens(scenario, result);
  int64_t preemptions = 0;
  std::map<int, int> per_replica;
  for (const RequestRecord& r : result.record.requests) {
    preemptions += r.preemptions;
    ++per_replica[r.replica];
    EXPECT_EQ(r.replica, int(r.id % 2));
  }
  EXPECT_GT(preemptions, 0);
  EXPECT_EQ(per_replica[0], 4);
  EXPECT_EQ(per_replica[1], 4);
}

Scenario shipped(const std::vector<std::string>& overrides) {
  return load_scenario(std::string(UNIFERENCE_SCENARIOS_DIR) + "/serving.json", overrides);
}

TEST(ServingSchedulers, ContinuousBatchingBeatsStaticOnTailTimeToFirstToken) {
  const std::vector<std::string> common = {"/outputs/trace=false",
                                           "/workload/arrivals/requests=20"};
  std::vector<std::string> as_static = common, as_continuous = common;
  as_static.push_back("/workload/scheduler/name=static");
  as_continuous.push_back("/workload/scheduler/name=continuous");
  const Scenario s = shipped(as_static), c = shipped(as_continuous);
  const ServingMetrics static_metrics = serving_metrics(s, run(s).record);
  const ServingMetrics continuous_metrics = serving_metrics(c, run(c).record);
  ASSERT_EQ(static_metrics.requests, continuous_metrics.requests);
  std::cout << "p99 TTFT: continuous " << continuous_metrics.ttft.p99_ns << " ns, static "
            << static_metrics.ttft.p99_ns << " ns\n";
  EXPECT_LT(continuous_metrics.ttft.p99_ns, static_metrics.ttft.p99_ns);
}

void expect_identical_runs(const Scenario& scenario) {
  const ScenarioRun a = run(scenario), b = run(scenario);
  EXPECT_EQ(results_json(scenario, a.record).dump(), results_json(scenario, b.record).dump());
  EXPECT_EQ(requests_csv(a.record), requests_csv(b.record));
  EXPECT_EQ(chrome_trace_text(a.record, "x"), chrome_trace_text(b.record, "x"));
}

TEST(ServingDeterminism, TwoModeledRunsWriteIdenticalOutputs) {
  expect_identical_runs(shipped({"/workload/arrivals/requests=8"}));
}

TEST(ServingDeterminism, TwoReplayRunsWriteIdenticalOutputs) {
  // A table measured here and now: whatever its numbers, two runs charge the same.
  const std::string table = (std::filesystem::temp_directory_path() /
                             ("uniference-replay-" + std::to_string(::getpid()) + ".csv")).string();
  const ReplayTable measured = profile_model(model_preset("tiny"), 1, ProfileShapes{8, 4, 1});
  std::ofstream(table) << measured.csv();
  const Scenario scenario = shipped({"/workload/arrivals/requests=6", "/compute/mode=replay",
                                     "/compute/table=" + table});
  ASSERT_EQ(scenario.compute_mode, ComputeMode::kReplay);
  expect_identical_runs(scenario);
  std::filesystem::remove(table);
}

TEST(ServingDisaggregation, KvCachesCrossTheNetworkAndDecodeContinuesExactly) {
  const std::string workload = R"({ "kind": "serving", "arrivals": { "rate": 300, "requests": 7 },
      "prompt_tokens": { "distribution": "uniform", "min": 3, "max": 12 },
      "new_tokens": { "distribution": "uniform", "min": 1, "max": 5 },
      "scheduler": { "name": "continuous", "max_batch": 4 },
      "disaggregation": { "prefill": 1, "decode": 2 } })";
  const Scenario scenario = serving_scenario(R"({ "strategy": "tp", "tp": 2 })", workload, false);
  const ScenarioRun result = run(scenario);
  ASSERT_EQ(result.record.ranks.size(), 6u);
  expect_single_device_tokens(scenario, result);

  // Each request that needs decoding moves 2 (keys, values) x layers x kv_heads x head_dim
  // x prompt positions of float32, all TP slices together, from the prefill pool.
  const ModelConfig m = model_preset("tiny");
  const ServingInputs inputs = serving_inputs(scenario, check_compute(scenario));
  uint64_t expected = 0;
  for (const Request& r : inputs.requests) {
    if (r.new_tokens > 1) {
      expected += 2ull * m.n_layers * m.n_kv_heads * m.head_dim() * r.prompt_tokens * 4;
    }
  }
  uint64_t sent = 0;
  for (const RankStats& rank : result.record.ranks) {
    const auto it = rank.bytes_by_label.find("kv_transfer");
    if (it == rank.bytes_by_label.end()) continue;
    EXPECT_LT(rank.rank, 2) << "only the prefill pool sends caches";
    sent += it->second.at("send");
  }
  EXPECT_EQ(sent, expected);
  // The transfers are packet flows of the run: messages from the prefill ranks to the decode
  // ranks, which the trace draws on the network process.
  size_t handed = 0;
  for (const NetMessage& message : result.record.messages) {
    if (message.src < 2 && message.dst >= 2) ++handed;
  }
  EXPECT_GE(handed, 2 * inputs.requests.size() - 2);
  const std::string trace = chrome_trace_text(result.record, "t");
  EXPECT_NE(trace.find("\"rank 0 -> rank 2\""), std::string::npos);
}

}  // namespace
}  // namespace uniference
