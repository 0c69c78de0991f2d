#include "compute/serving/serving_loop.h"

#include "compute/compute_label.h"
#include "compute/generation.h"
#include "compute/parallel_state.h"

#include <stdexcept>

namespace uniference {

ServingEngine::~ServingEngine() = default;

at::Tensor ServingEngine::kv_cache(int64_t, int64_t) {
  throw std::logic_error("this serving engine cannot hand KV caches over");
}

void ServingEngine::load_kv_cache(int64_t, const at::Tensor&) {
  throw std::logic_error("this serving engine cannot take KV caches over");
}

std::vector<int64_t> request_prompt(const Request& request, int64_t vocab, uint64_t seed) {
  return make_prompt(request.prompt_tokens, vocab, prompt_seed(seed, request.id));
}

std::vector<RowGroup> row_groups(const StepPlan& plan,
                                 const std::vector<std::vector<int64_t>>& ids) {
  std::vector<RowGroup> groups;
  for (size_t i = 0; i < plan.items.size(); ++i) {
    const int64_t length = int64_t(ids[i].size());
    RowGroup* group = nullptr;
    for (RowGroup& g : groups) {
      if (int64_t(ids[g.items.front()].size()) == length) group = &g;
    }
    if (group == nullptr) group = &groups.emplace_back();
    group->items.push_back(i);
    group->rows.slots.push_back(plan.items[i].slot);
    group->rows.starts.push_back(plan.items[i].start);
  }
  for (RowGroup& g : groups) {
    const int64_t length = int64_t(ids[g.items.front()].size());
    g.ids = at::empty({int64_t(g.items.size()), length}, at::TensorOptions().dtype(at::kLong));
    int64_t* out = g.ids.data_ptr<int64_t>();
    for (size_t i : g.items) out = std::copy(ids[i].begin(), ids[i].end(), out);
  }
  return groups;
}

namespace {

// A plan as int64 words for a broadcast: [prefill, items, then per item request, slot,
// start, prompt_tokens, count, count generated tokens].
std::vector<int64_t> encode(const StepPlan& plan) {
  std::vector<int64_t> words{plan.load ? 2 : plan.prefill ? 1 : 0, int64_t(plan.items.size())};
  for (const StepItem& item : plan.items) {
    words.insert(words.end(), {item.request, item.slot, item.start, item.prompt_tokens,
                               int64_t(item.generated.size())});
    words.insert(words.end(), item.generated.begin(), item.generated.end());
  }
  return words;
}

StepPlan decode(const std::vector<int64_t>& words) {
  StepPlan plan;
  plan.prefill = words.at(0) == 1;
  plan.load = words.at(0) == 2;
  size_t at = 2;
  for (int64_t i = 0; i < words.at(1); ++i) {
    StepItem item{words.at(at), words.at(at + 1), words.at(at + 2), words.at(at + 3), {}};
    const int64_t count = words.at(at + 4);
    at += 5;
    item.generated.assign(words.begin() + long(at), words.begin() + long(at + size_t(count)));
    at += size_t(count);
    plan.items.push_back(std::move(item));
  }
  return plan;
}

// The driver's plan to every rank: its length, then its words; length 0 ends serving.
void send_plan(Comm& replica, const std::vector<int64_t>& words) {
  if (replica.size() == 1) return;
  const auto longs = at::TensorOptions().dtype(at::kLong);
  at::Tensor length = at::full({1}, int64_t(words.size()), longs);
  replica.broadcast(length, 0);
  if (words.empty()) return;
  at::Tensor body = at::tensor(at::ArrayRef<int64_t>(words), longs);
  replica.broadcast(body, 0);
}

std::vector<int64_t> receive_plan(Comm& replica) {
  const auto longs = at::TensorOptions().dtype(at::kLong);
  at::Tensor length = at::zeros({1}, longs);
  replica.broadcast(length, 0);
  const int64_t n = length.item<int64_t>();
  if (n == 0) return {};
  at::Tensor body = at::zeros({n}, longs);
  replica.broadcast(body, 0);
  return std::vector<int64_t>(body.data_ptr<int64_t>(), body.data_ptr<int64_t>() + n);
}

std::vector<std::vector<int64_t>> step_ids(const StepPlan& plan, const ServingInputs& in,
                                           const std::vector<Request>& by_id) {
  std::vector<std::vector<int64_t>> ids;
  for (const StepItem& item : plan.items) {
    if (!plan.prefill) {
      ids.push_back(item.generated);
      continue;
    }
    std::vector<int64_t> context = in.prompt_ids(by_id.at(size_t(item.request)));
    context.insert(context.end(), item.generated.begin(), item.generated.end());
    ids.push_back(std::move(context));
  }
  return ids;
}

// The arrival stream of `in`: requests join the scheduler once their time has come.
RequestSource arrival_source(const ServingInputs& in) {
  auto next = std::make_shared<size_t>(0);
  const std::vector<Request>* requests = &in.requests;
  RequestSource source;
  source.admit = [next, requests, &in](int64_t now, Scheduler& scheduler,
                                       std::vector<RequestRecord>& records) {
    for (; *next < requests->size() && (*requests)[*next].arrival_ns <= now; ++*next) {
      const Request& r = (*requests)[*next];
      scheduler.arrive(r);
      records[size_t(r.id)] = RequestRecord{r.id, in.replica, r.arrival_ns, 0, 0, 0,
                                            r.prompt_tokens, r.new_tokens, 0, {}};
    }
  };
  source.exhausted = [next, requests] { return *next >= requests->size(); };
  source.idle = [next, requests, &in] { in.clock.sleep_until_ns((*requests)[*next].arrival_ns); };
  return source;
}

// Every rank's part of one step.
std::vector<int64_t> run_step(const StepPlan& plan, ServingEngine& engine, const ServingInputs& in,
                              const std::vector<Request>& by_id) {
  if (plan.load) {
    in.on_load(plan);
    return {};
  }
  std::vector<int64_t> tokens = engine.step(plan, step_ids(plan, in, by_id));
  if (in.after_step) in.after_step(plan, tokens);
  return tokens;
}

void drive(Comm& replica, ServingEngine& engine, const ServingInputs& in,
           const std::vector<Request>& by_id) {
  std::unique_ptr<Scheduler> scheduler = schedulers().at(in.scheduler.name).make(in.scheduler);
  std::vector<RequestRecord> records(by_id.size());
  const RequestSource source = in.source ? *in.source : arrival_source(in);
  while (!source.exhausted() || scheduler->has_work()) {
    label_compute("schedule");
    const int64_t now = in.clock.now_ns();
    source.admit(now, *scheduler, records);
    if (!scheduler->has_work()) {
      source.idle();
      continue;
    }
    const StepPlan plan = scheduler->next();
    send_plan(replica, encode(plan));
    const std::vector<int64_t> tokens = run_step(plan, engine, in, by_id);
    const int64_t done = in.clock.now_ns();
    for (const StepResult& result : scheduler->complete(plan, tokens)) {
      RequestRecord& record = records[size_t(result.request)];
      if (result.first_scheduled) record.scheduled_ns = now;
      if (result.generated == 1) record.first_token_ns = done;
      if (!result.finished) continue;
      record.finish_ns = done;
      record.preemptions += scheduler->preemptions(result.request);
      record.tokens = scheduler->tokens(result.request);
      if (in.on_finished) in.on_finished(record);
    }
  }
  send_plan(replica, {});
}

}  // namespace

std::vector<Request> requests_by_id(const std::vector<Request>& requests) {
  std::vector<Request> by_id;
  for (const Request& r : requests) {
    if (size_t(r.id) >= by_id.size()) by_id.resize(size_t(r.id) + 1);
    by_id[size_t(r.id)] = r;
  }
  return by_id;
}

void serve_requests(Comm& replica, ServingEngine& engine, const ServingInputs& in) {
  const std::vector<Request> by_id = requests_by_id(in.requests);
  if (replica.rank() == 0) return drive(replica, engine, in, by_id);
  for (;;) {
    label_compute("schedule");
    const std::vector<int64_t> words = receive_plan(replica);
    if (words.empty()) break;
    run_step(decode(words), engine, in, by_id);
  }
}

}  // namespace uniference

namespace uniference {

void serve_strategy(const Strategy& strategy, Comm& world, const StrategyInputs& inputs,
                    const ServingInputs& serving, const CacheShape& cache) {
  if (!strategy.serve) {
    throw std::invalid_argument("strategy " + strategy.name + " cannot serve requests as they arrive");
  }
  const ParallelState state(world, inputs.degrees, strategy.groups);
  const int replicas = state.data_parallel_size();
  ServingInputs mine = serving;
  mine.replica = state.data_parallel_rank();
  mine.requests.clear();
  for (const Request& r : serving.requests) {
    if (r.id % replicas == mine.replica) mine.requests.push_back(r);
  }
  const std::unique_ptr<ServingEngine> engine = strategy.serve(state, inputs, cache);
  serve_requests(state.model_parallel_group(), *engine, mine);
}

}  // namespace uniference
