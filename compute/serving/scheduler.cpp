#include "compute/serving/scheduler.h"

#include <algorithm>
#include <stdexcept>

namespace uniference {

int64_t kv_positions(const Request& request) {
  return request.prompt_tokens + request.new_tokens - 1;
}

Scheduler::Scheduler(const SchedulerConfig& config) : config_(config) {
  if (config_.max_batch < 1 || config_.kv_cache_tokens < 1) {
    throw std::invalid_argument("a scheduler needs max_batch >= 1 and kv_cache_tokens >= 1");
  }
  for (int64_t slot = config_.max_batch - 1; slot >= 0; --slot) free_slots_.push_back(slot);
}

Scheduler::~Scheduler() = default;

void Scheduler::arrive(const Request& request) {
  if (request.id < 0) throw std::invalid_argument("a request id must be >= 0");
  if (size_t(request.id) >= tokens_.size()) {
    tokens_.resize(size_t(request.id) + 1);
    preemptions_.resize(size_t(request.id) + 1);
  }
  waiting_.push_back(Sequence{request});
}

void Scheduler::arrive_prefilled(const Request& request, const std::vector<int64_t>& generated) {
  arrive(request);
  tokens_[size_t(request.id)] = generated;
  waiting_.back().prefilled = true;
  waiting_.back().scheduled = true;
}

int64_t Scheduler::context(const Sequence& s) const {
  return s.request.prompt_tokens + int64_t(tokens_[size_t(s.request.id)].size());
}

void Scheduler::preempt_last() {
  Sequence s = running_.back();
  running_.pop_back();
  reserved_ -= s.reserved;
  free_slots_.push_back(s.slot);
  s.slot = -1;
  s.reserved = 0;
  s.prefilled = false;  // its cache is gone: it is recomputed by a prefill
  ++preemptions_[size_t(s.request.id)];
  waiting_.push_front(s);
}

StepPlan Scheduler::next() {
  if (!has_work()) throw std::logic_error("Scheduler::next: no request is waiting or running");
  StepPlan plan;
  if (admits_now()) {
    // Lowest free slot first, so the same arrivals fill the same slots every run.
    std::sort(free_slots_.begin(), free_slots_.end(), std::greater<>());
    while (!waiting_.empty() && !free_slots_.empty()) {
      Sequence& head = waiting_.front();
      // One kind per step: loads of handed-over caches, or prefills.
      if (!plan.items.empty() && head.prefilled != plan.load) break;
      plan.load = head.prefilled;
      const int64_t need = reservation(head.request, context(head));
      if (need > config_.kv_cache_tokens) {
        throw std::logic_error("request " + std::to_string(head.request.id) + " needs " +
                               std::to_string(need) + " KV-cache positions; the cache holds " +
                               std::to_string(config_.kv_cache_tokens));
      }
      if (reserved_ + need > config_.kv_cache_tokens) break;
      head.slot = free_slots_.back();
      free_slots_.pop_back();
      head.reserved = need;
      reserved_ += need;
      const std::vector<int64_t>& generated = tokens_[size_t(head.request.id)];
      plan.items.push_back(StepItem{head.request.id, head.slot, 0, head.request.prompt_tokens,
                                    generated});
      running_.push_back(head);
      waiting_.pop_front();
    }
    if (!plan.items.empty()) {
      plan.prefill = !plan.load;
      return plan;
    }
    plan.load = false;
  }
  if (running_.empty()) {
    throw std::logic_error("Scheduler::next: requests wait but none can be admitted");
  }
  // Each running request writes one more position; preempt from the back until they fit.
  for (;;) {
    int64_t growth = 0;
    for (const Sequence& s : running_) growth += std::max<int64_t>(0, context(s) - s.reserved);
    if (reserved_ + growth <= config_.kv_cache_tokens) {
      reserved_ += growth;
      break;
    }
    if (running_.size() == 1) {
      throw std::logic_error("request " + std::to_string(running_.front().request.id) +
                             " alone outgrows a KV cache of " +
                             std::to_string(config_.kv_cache_tokens) + " positions");
    }
    preempt_last();
  }
  for (Sequence& s : running_) {
    s.reserved = std::max(s.reserved, context(s));
    const std::vector<int64_t>& generated = tokens_[size_t(s.request.id)];
    plan.items.push_back(StepItem{s.request.id, s.slot, context(s) - 1, s.request.prompt_tokens,
                                  {generated.back()}});
  }
  return plan;
}

std::vector<StepResult> Scheduler::complete(const StepPlan& plan,
                                            const std::vector<int64_t>& tokens) {
  if (plan.load) {
    for (const StepItem& item : plan.items) {
      for (Sequence& s : running_) {
        if (s.request.id == item.request) s.prefilled = false;
      }
    }
    return {};
  }
  if (tokens.size() != plan.items.size()) {
    throw std::invalid_argument("Scheduler::complete: " + std::to_string(tokens.size()) +
                                " tokens for a step of " + std::to_string(plan.items.size()));
  }
  std::vector<StepResult> results;
  for (size_t i = 0; i < plan.items.size(); ++i) {
    const int64_t id = plan.items[i].request;
    auto it = std::find_if(running_.begin(), running_.end(),
                           [id](const Sequence& s) { return s.request.id == id; });
    if (it == running_.end()) throw std::logic_error("Scheduler::complete: request not running");
    std::vector<int64_t>& generated = tokens_[size_t(id)];
    generated.push_back(tokens[i]);
    StepResult result{id, int64_t(generated.size()), !it->scheduled,
                      int64_t(generated.size()) >= it->request.new_tokens};
    it->scheduled = true;
    if (result.finished) {
      reserved_ -= it->reserved;
      free_slots_.push_back(it->slot);
      running_.erase(it);
    }
    results.push_back(result);
  }
  return results;
}

const std::vector<int64_t>& Scheduler::tokens(int64_t id) const { return tokens_.at(size_t(id)); }

int64_t Scheduler::preemptions(int64_t id) const { return preemptions_.at(size_t(id)); }

namespace {

class StaticBatching final : public Scheduler {
 public:
  explicit StaticBatching(const SchedulerConfig& config) : Scheduler(config) {}

 private:
  bool admits_now() const override { return nothing_running(); }
  int64_t reservation(const Request& request, int64_t) const override {
    return kv_positions(request);
  }
};

class ContinuousBatching final : public Scheduler {
 public:
  explicit ContinuousBatching(const SchedulerConfig& config) : Scheduler(config) {}

 private:
  bool admits_now() const override { return true; }
  int64_t reservation(const Request&, int64_t context) const override { return context; }
};

template <typename Policy>
std::unique_ptr<Scheduler> make(const SchedulerConfig& config) {
  return std::make_unique<Policy>(config);
}

}  // namespace

const NamedRegistry<SchedulerEntry>& schedulers() {
  static const NamedRegistry<SchedulerEntry> registry(
      "scheduler",
      {
          {"static",
           "FCFS static batching: up to max_batch requests start together and the next batch "
           "waits until all of them finish; each reserves its whole KV cache up front",
           make<StaticBatching>},
          {"continuous",
           "continuous batching (vLLM-like): requests join and leave at every step while a "
           "slot and KV cache are free; when the cache runs out, the newest is preempted and "
           "recomputed later",
           make<ContinuousBatching>},
      });
  return registry;
}

}  // namespace uniference
