#include "compute/serving/disaggregation.h"

#include "compute/compute_label.h"
#include "compute/parallel_state.h"
#include "compute/pending_sends.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace uniference {

namespace {

constexpr int kKvTag = 20;        // a request's KV cache slice, prefill rank -> decode rank
constexpr int kHandoverTag = 21;  // [first token, scheduled_ns, first_token_ns], driver -> driver

// Where pools sit in the world: replica i holds ranks i * tp .. i * tp + tp - 1, the prefill
// replicas first.
struct Layout {
  int tp = 1;
  Disaggregation pools;
  int prefill_rank(int64_t id, int tp_rank) const { return int(id % pools.prefill) * tp + tp_rank; }
  int decode_rank(int64_t id, int tp_rank) const {
    return (pools.prefill + int(id % pools.decode)) * tp + tp_rank;
  }
};

// A request's cache slice on its way in: [layers, 2, prompt, local KV heads, head_dim].
struct Incoming {
  int64_t id = -1;
  at::Tensor kv;
  WorkPtr kv_work;
  at::Tensor handover;  // the decode driver's only
  WorkPtr handover_work;
};

void serve_prefill(Comm& world, Comm& replica, int index, ServingEngine& engine,
                   const ServingInputs& serving, const std::vector<Request>& by_id,
                   const Layout& layout) {
  const int tp_rank = world.rank() % layout.tp;
  ServingInputs mine = serving;
  mine.replica = index;
  mine.requests.clear();
  for (Request r : serving.requests) {
    if (r.id % layout.pools.prefill != index) continue;
    r.new_tokens = 1;  // the prefill pool's part: the first token
    mine.requests.push_back(r);
  }
  PendingSends outbox;
  const auto needs_decode = [&](int64_t id) { return by_id[size_t(id)].new_tokens > 1; };
  mine.after_step = [&](const StepPlan& plan, const std::vector<int64_t>&) {
    label_compute("kv_transfer");
    for (const StepItem& item : plan.items) {
      if (!needs_decode(item.request)) continue;
      outbox.send(world, engine.kv_cache(item.slot, item.length()),
                  layout.decode_rank(item.request, tp_rank), kKvTag);
    }
  };
  mine.on_finished = [&](const RequestRecord& record) {
    if (!needs_decode(record.id)) {
      if (serving.on_finished) serving.on_finished(record);
      return;
    }
    label_compute("handover");
    const std::vector<int64_t> words{record.tokens.front(), record.scheduled_ns,
                                     record.first_token_ns};
    outbox.send(world, at::tensor(at::ArrayRef<int64_t>(words), at::kLong),
                layout.decode_rank(record.id, 0), kHandoverTag);
  };
  serve_requests(replica, engine, mine);
  outbox.wait_all();
}

void serve_decode(Comm& world, Comm& replica, int index, ServingEngine& engine,
                  const StrategyInputs& inputs, const ServingInputs& serving,
                  const std::vector<Request>& by_id, const Layout& layout) {
  const int tp_rank = world.rank() % layout.tp;
  const bool driver = replica.rank() == 0;
  const ModelConfig& m = inputs.model;
  const auto options = at::TensorOptions().dtype(at::kFloat).device(
      inputs.shapes_only ? at::kMeta : at::kCPU);

  ServingInputs mine = serving;
  mine.replica = layout.pools.prefill + index;
  mine.requests.clear();
  const int sources = layout.pools.prefill;
  std::vector<std::vector<int64_t>> expected(static_cast<size_t>(sources));  // ids per prefill replica, in order
  for (const Request& r : serving.requests) {
    if (r.id % layout.pools.decode != index || r.new_tokens == 1) continue;
    mine.requests.push_back(r);
    expected[size_t(r.id % sources)].push_back(r.id);
  }
  std::vector<size_t> posted(static_cast<size_t>(sources), 0);
  std::vector<std::optional<Incoming>> next(static_cast<size_t>(sources));
  // Each rank keeps one receive posted per prefill replica, in that replica's order.
  const auto post = [&](int source) {
    std::optional<Incoming>& slot = next[size_t(source)];
    slot.reset();
    if (posted[size_t(source)] == expected[size_t(source)].size()) return;
    Incoming in;
    in.id = expected[size_t(source)][posted[size_t(source)]++];
    const Request& r = by_id[size_t(in.id)];
    in.kv = at::empty({m.n_layers, 2, r.prompt_tokens, m.n_kv_heads / layout.tp, m.head_dim()},
                      options);
    in.kv_work = world.irecv(in.kv, layout.prefill_rank(in.id, tp_rank), kKvTag);
    if (driver) {
      in.handover = at::zeros({3}, at::kLong);
      in.handover_work = world.irecv(in.handover, layout.prefill_rank(in.id, 0), kHandoverTag);
    }
    slot = std::move(in);
  };
  for (int s = 0; s < sources; ++s) post(s);

  std::vector<std::optional<Incoming>> admitted(by_id.size());  // the driver's, until loaded
  RequestSource source;
  source.admit = [&](int64_t, Scheduler& scheduler, std::vector<RequestRecord>& records) {
    for (int s = 0; s < sources; ++s) {
      while (next[size_t(s)] && next[size_t(s)]->handover_work->is_completed()) {
        Incoming in = std::move(*next[size_t(s)]);
        const int64_t* words = in.handover.data_ptr<int64_t>();
        const Request& r = by_id[size_t(in.id)];
        scheduler.arrive_prefilled(r, {words[0]});
        records[size_t(r.id)] = RequestRecord{r.id, mine.replica, r.arrival_ns, words[1], words[2],
                                              0, r.prompt_tokens, r.new_tokens, 0, {}};
        admitted[size_t(in.id)] = std::move(in);
        post(s);
      }
    }
  };
  source.exhausted = [&] {
    return std::none_of(next.begin(), next.end(), [](const auto& in) { return in.has_value(); });
  };
  source.idle = [&] {
    // The lowest id still to come: prefill replicas hand their requests over in id order.
    std::optional<Incoming>* first = nullptr;
    for (auto& in : next) {
      if (in && (first == nullptr || in->id < (*first)->id)) first = &in;
    }
    (*first)->handover_work->wait();
  };
  mine.source = source;
  mine.on_load = [&](const StepPlan& plan) {
    for (const StepItem& item : plan.items) {
      Incoming in;
      if (driver) {
        in = std::move(*admitted[size_t(item.request)]);
        admitted[size_t(item.request)].reset();
      } else {
        const int s = int(item.request % sources);
        if (!next[size_t(s)] || next[size_t(s)]->id != item.request) {
          throw std::logic_error("decode pool: request " + std::to_string(item.request) +
                                 " loaded out of its prefill replica's order");
        }
        in = std::move(*next[size_t(s)]);
        post(s);
      }
      in.kv_work->wait();
      engine.load_kv_cache(item.slot, in.kv);
    }
  };
  serve_requests(replica, engine, mine);
}

}  // namespace

void serve_disaggregated(const Strategy& strategy, Comm& world, const StrategyInputs& inputs,
                         const ServingInputs& serving, const CacheShape& cache,
                         const Disaggregation& pools) {
  if (!strategy.serve || !strategy.hands_over_kv) {
    throw std::invalid_argument("strategy " + strategy.name +
                                " cannot hand KV caches between a prefill and a decode pool");
  }
  const Layout layout{inputs.degrees.tp, pools};
  ParallelDegrees replicas = inputs.degrees;  // the pools' replicas, the prefill ones first
  replicas.dp = pools.prefill + pools.decode;
  const ParallelState state(world, replicas, strategy.groups);
  Comm& replica = state.model_parallel_group();
  const int index = state.data_parallel_rank();
  const std::vector<Request> by_id = requests_by_id(serving.requests);
  const std::unique_ptr<ServingEngine> engine = strategy.serve(state, inputs, cache);
  if (index < pools.prefill) {
    serve_prefill(world, replica, index, *engine, serving, by_id, layout);
  } else {
    serve_decode(world, replica, index - pools.prefill, *engine, inputs, serving, by_id, layout);
  }
}

}  // namespace uniference
