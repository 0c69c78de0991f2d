// What a serving run tells its user: latency percentiles, throughput, goodput against the
// scenario's objectives, and what queueing theory predicts for the same load, in the
// summary, in results.json's "serving" object, and as one CSV row per request.
#pragma once

#include "apps/scenario.h"
#include "bridge/run_record.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace uniference {

// Nearest-rank percentiles (the smallest value with at least p% of the values at or below
// it) and the mean of one metric over requests, in nanoseconds.
struct Percentiles {
  size_t count = 0;
  double mean_ns = 0;
  int64_t p50_ns = 0, p90_ns = 0, p99_ns = 0, max_ns = 0;
};
Percentiles percentiles(std::vector<int64_t> values_ns);

// One server at batch 1 fed by Poisson arrivals at `rate_per_s`, with the requests'
// measured service times (first step to last token): utilisation rho = rate x mean
// service, and the mean wait before service by Pollaczek-Khinchine for deterministic
// (M/D/1: rho S / 2(1 - rho)) and exponential (M/M/1: rho S / (1 - rho)) service; the
// waits are 0 when rho >= 1 (no steady state).
struct QueueingModel {
  double rate_per_s = 0;
  double mean_service_ns = 0;
  double service_cv = 0;  // standard deviation / mean of the service times
  double utilisation = 0;
  double md1_wait_ns = 0;
  double mm1_wait_ns = 0;
};
QueueingModel queueing_model(double rate_per_s, const std::vector<RequestRecord>& requests);

struct ServingMetrics {
  size_t requests = 0;
  uint64_t output_tokens = 0;
  int64_t span_ns = 0;  // first arrival to last finish
  Percentiles ttft, tpot, e2e, queueing;
  double requests_per_s = 0;
  double tokens_per_s = 0;
  size_t within_slo = 0;  // requests meeting every objective the scenario gives
  double goodput_per_s = 0;
  QueueingModel model;
};
ServingMetrics serving_metrics(const Scenario& scenario, const RunRecord& record);

// A request's time per output token after its first, ns (integer); it needs two or more tokens.
int64_t tpot_of(const RequestRecord& r);

// The summary's serving lines (each "  label  value\n").
std::string serving_summary(const Scenario& scenario, const RunRecord& record);

// results.json's "serving" object.
nlohmann::json serving_json(const Scenario& scenario, const RunRecord& record);

// requests.csv: a header, then one row per request in id order: id, replica, arrival_ns,
// scheduled_ns, first_token_ns, finish_ns, prompt_tokens, new_tokens, queueing_ns, ttft_ns,
// tpot_ns (empty for one new token), e2e_ns, preemptions.
std::string requests_csv(const RunRecord& record);

}  // namespace uniference
