// Which requests run in the next forward step: the serving engine's scheduler, run on a
// replica's first rank (the driver, as in vLLM) and handed to every rank of the replica.
//
// Every scheduler admits waiting requests first-come first-served, prefills what it
// admitted in one step (prefill first, as vLLM's default scheduler does), and otherwise
// runs one decode step over every running request. They differ in when they admit and how
// much KV cache they reserve:
// - static: a new batch only once the last one has finished wholly, each request reserving
//   its whole length up front (no preemption);
// - continuous: at every step boundary, while a KV-cache slot and room for the prompt are
//   free; the cache grows a token at a time, and when a decode step does not fit, the
//   request admitted last is preempted (its cache freed, recomputed later from its prompt
//   and the tokens it already has, vLLM's recompute preemption).
#pragma once

#include "compute/registry.h"
#include "compute/serving/requests.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace uniference {

struct SchedulerConfig {
  std::string name = "continuous";
  int64_t max_batch = 8;        // requests running at once (KV-cache slots)
  int64_t kv_cache_tokens = 0;  // positions the KV cache holds over all slots
};

// One request's part of a step. Prefill feeds its context (the prompt, then any tokens it
// generated before a preemption) from position 0; decode feeds its latest token.
struct StepItem {
  int64_t request = 0;
  int64_t slot = 0;                // KV-cache slot
  int64_t start = 0;               // first position fed
  int64_t prompt_tokens = 0;
  std::vector<int64_t> generated;  // prefill: every token so far; decode: the latest one

  int64_t length() const {  // positions fed
    return start == 0 ? prompt_tokens + int64_t(generated.size()) : 1;
  }
};

struct StepPlan {
  bool prefill = false;
  // A load step: requests handed over with their prompt's KV cache already computed (by a
  // prefill pool) move into their slots; nothing is computed and no token comes out.
  bool load = false;
  std::vector<StepItem> items;
};

// What a completed step did to one request.
struct StepResult {
  int64_t request = 0;
  int64_t generated = 0;  // tokens it has now
  bool first_scheduled = false;  // this step was its first
  bool finished = false;
};

class Scheduler {
 public:
  virtual ~Scheduler();

  void arrive(const Request& request);
  // A request handed over by a prefill pool: its prompt's KV cache is computed and waits to
  // be loaded (a load step), and it has generated `generated` tokens already.
  void arrive_prefilled(const Request& request, const std::vector<int64_t>& generated);
  bool has_work() const { return !waiting_.empty() || !running_.empty(); }
  size_t waiting() const { return waiting_.size(); }
  size_t running() const { return running_.size(); }

  // The next step. Throws std::logic_error without work, or when the head of the queue can
  // never fit the cache (the scenario check refuses such workloads first).
  StepPlan next();
  // The step's tokens, one per item, in order.
  std::vector<StepResult> complete(const StepPlan& plan, const std::vector<int64_t>& tokens);

  // Every token request `id` generated (finished requests included).
  const std::vector<int64_t>& tokens(int64_t id) const;
  int64_t preemptions(int64_t id) const;

 protected:
  explicit Scheduler(const SchedulerConfig& config);
  // Whether waiting requests may join now (running_ may be non-empty).
  virtual bool admits_now() const = 0;
  // Positions of KV cache a request reserves when admitted with `context` positions to fill.
  virtual int64_t reservation(const Request& request, int64_t context) const = 0;
  bool nothing_running() const { return running_.empty(); }

 private:
  struct Sequence {
    Request request;
    int64_t slot = -1;
    int64_t reserved = 0;  // KV positions held for it
    bool scheduled = false;
    bool prefilled = false;  // its KV cache is computed elsewhere, waiting to be loaded
  };
  int64_t context(const Sequence& s) const;
  void preempt_last();

  SchedulerConfig config_;
  std::deque<Sequence> waiting_;
  std::vector<Sequence> running_;  // in admission order
  std::vector<int64_t> free_slots_;
  int64_t reserved_ = 0;
  std::vector<std::vector<int64_t>> tokens_;  // by request id
  std::vector<int64_t> preemptions_;
};

struct SchedulerEntry {
  std::string name;
  std::string description;
  std::function<std::unique_ptr<Scheduler>(const SchedulerConfig&)> make;
};

const NamedRegistry<SchedulerEntry>& schedulers();

// The KV-cache positions a workload's longest request needs (prompt + new tokens - 1: the
// last token is never fed back).
int64_t kv_positions(const Request& request);

}  // namespace uniference
