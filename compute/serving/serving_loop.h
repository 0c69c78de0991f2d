// Serving requests as they arrive: the loop every rank of a replica runs. The replica's
// rank 0 is the driver: it admits arrivals, asks the scheduler for each step, broadcasts
// the plan to the other ranks, runs its own part, and keeps each request's times. The
// loop knows time only through a ServingClock, so the same code serves in simulated time
// (the bridge's clock) and for real (the wall clock of a deployment).
#pragma once

#include "compute/comm.h"
#include "compute/serving/request_record.h"
#include "compute/serving/requests.h"
#include "compute/serving/scheduler.h"
#include "compute/serving/serving_engine.h"
#include "compute/strategy.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace uniference {

struct ServingClock {
  std::function<int64_t()> now_ns;               // time since serving started
  std::function<void(int64_t)> sleep_until_ns;   // idles until then
};

// Where a driver's requests come from: by default the arrival stream; a disaggregated
// decode pool takes them as the prefill pool hands them over.
struct RequestSource {
  // Moves every request that has arrived by `now` into the scheduler, with its record.
  std::function<void(int64_t now, Scheduler&, std::vector<RequestRecord>& records)> admit;
  std::function<bool()> exhausted;  // no request is left to come
  std::function<void()> idle;       // nothing runs: waits until one may have come
};

struct ServingInputs {
  std::vector<Request> requests;  // this replica's, in arrival order
  SchedulerConfig scheduler;
  ServingClock clock;
  int replica = 0;
  // The prompt's token ids; called on every rank, so it must be a function of the request.
  std::function<std::vector<int64_t>(const Request&)> prompt_ids;
  // On the driver: a request finished.
  std::function<void(const RequestRecord&)> on_finished;
  // Disaggregation's hooks. On the driver: where requests come from instead of `requests`'
  // arrival times (records are indexed by request id, so `requests` still lists them all).
  std::optional<RequestSource> source;
  // On every rank: a load step (handed-over KV caches into their slots), and after each
  // computed step (tokens as the engine returned them on this rank).
  std::function<void(const StepPlan&)> on_load;
  std::function<void(const StepPlan&, const std::vector<int64_t>& tokens)> after_step;
};

// A request's prompt: make_prompts' prompt number `id` for the workload's seed, so request
// i of a stream reads what prompt i of a batch would.
std::vector<int64_t> request_prompt(const Request& request, int64_t vocab, uint64_t seed);

// Requests indexed by id (ids number the whole stream; a replica holds some of them).
std::vector<Request> requests_by_id(const std::vector<Request>& requests);

// Serves every request of `in` on this rank of `replica`; returns when all have finished.
void serve_requests(Comm& replica, ServingEngine& engine, const ServingInputs& in);

// One world rank's part of serving with a strategy: finds its data-parallel replica (the
// requests are dealt to replicas round robin by id), builds the strategy's engine with a KV
// cache of `cache`, then serves. Throws std::invalid_argument for a strategy that cannot
// serve.
void serve_strategy(const Strategy& strategy, Comm& world, const StrategyInputs& inputs,
                    const ServingInputs& serving, const CacheShape& cache);

}  // namespace uniference
