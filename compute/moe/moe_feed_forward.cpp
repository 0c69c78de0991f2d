#include "compute/moe/moe_feed_forward.h"

#include "compute/compute_label.h"
#include "compute/moe/router.h"
#include "compute/timed_phase.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace uniference {

namespace {

const DispatchScheme& scheme_of(const ExpertGroup& group) {
  return group.scheme != nullptr ? *group.scheme : dispatch_schemes().entries().front();
}

int ranks_of(const ExpertGroup& group) { return group.comm == nullptr ? 1 : group.comm->size(); }

}  // namespace

MoeFeedForward::MoeFeedForward(const ModelConfig& config, const WeightSource& weights,
                               int64_t layer, const ExpertGroup& group)
    : layer_(layer),
      top_k_(config.moe.top_k),
      n_experts_(config.moe.n_experts),
      seed_(weights.seed),
      comm_(group.comm),
      scheme_(&scheme_of(group)),
      ranks_(ranks_of(group)),
      ranks_per_server_(std::max(group.ranks_per_server, 1)),
      router_(config.dim, config.moe.n_experts,
              ParamKey{weights.seed, layer, "moe.router", weights.shapes_only}, TpGroup{}) {
  if (n_experts_ % ranks_ != 0) {
    throw std::invalid_argument(check_expert_parallel(config, ranks_));
  }
  const int rank = comm_ == nullptr ? 0 : comm_->rank();
  std::vector<int64_t> mine(size_t(n_experts_ / ranks_), -1);
  for (int64_t e = 0; e < n_experts_; ++e) {
    slots_.push_back(scheme_->place(e, n_experts_, ranks_));
    if (slots_.back().rank == rank) mine.at(size_t(slots_.back().local)) = e;
  }
  for (int64_t e : mine) {
    experts_.emplace_back(config.dim, config.moe.expert_ffn_dim, weights, layer,
                          "moe.expert" + std::to_string(e), TpGroup{}, "experts");
  }
  if (config.moe.n_shared_experts > 0) {
    shared_.emplace(config.dim, config.moe.expert_ffn_dim * config.moe.n_shared_experts, weights,
                    layer, "moe.shared", TpGroup{}, "shared_expert");
  }
}

uint64_t MoeFeedForward::weight_bytes() const {
  uint64_t bytes = router_.weight().nbytes();
  for (const FeedForward& expert : experts_) bytes += expert.weight_bytes();
  if (shared_) bytes += shared_->weight_bytes();
  return bytes;
}

Routing MoeFeedForward::route(const at::Tensor& tokens) {
  label_compute(layer_label(layer_, "router"));
  Routing routing = route_top_k(router_.forward(tokens), top_k_);
  if (tokens.is_meta()) {
    routing.experts = drawn_experts(seed_, layer_, comm_ == nullptr ? 0 : comm_->rank(), calls_,
                                    tokens.size(0), top_k_, n_experts_);
  }
  return routing;
}

at::Tensor MoeFeedForward::forward(const at::Tensor& x) {
  const int64_t dim = x.size(-1);
  // Explicit row counts throughout: a rank may have no tokens in a pass, and -1 is no size
  // of an empty tensor.
  const at::Tensor tokens = x.reshape({x.numel() / dim, dim});
  const int64_t copies = tokens.size(0) * top_k_;
  const int64_t local = n_experts_ / ranks_;
  const Routing routing = route(tokens);
  ++calls_;

  // Copies travel ordered by destination rank, then its local expert, then token.
  ExchangeCounts counts;
  counts.ranks = ranks_;
  counts.local_experts = local;
  counts.sent.assign(size_t(ranks_ * local), 0);
  std::vector<int64_t> bucket(static_cast<size_t>(copies)), order(static_cast<size_t>(copies));
  for (int64_t i = 0; i < copies; ++i) {
    const ExpertSlot& slot = slots_[size_t(routing.experts[size_t(i)])];
    bucket[size_t(i)] = slot.rank * local + slot.local;
    ++counts.sent[size_t(bucket[size_t(i)])];
  }
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return bucket[size_t(a)] < bucket[size_t(b)]; });
  std::vector<int64_t> token_of(static_cast<size_t>(copies));
  for (int64_t i = 0; i < copies; ++i) token_of[size_t(i)] = order[size_t(i)] / top_k_;

  const ExchangeSite site{layer_, ranks_per_server_, float(calls_ % (1 << 20) + 1)};
  phase_begins("moe.dispatch");
  label_compute(layer_label(layer_, "dispatch.pack"));
  const at::Tensor rows = gather_rows(tokens, token_of);
  at::Tensor arrived = rows;
  if (comm_ != nullptr && ranks_ > 1) {
    arrived = scheme_->exchange->dispatch(*comm_, rows, counts, site);
  } else {
    counts.received = counts.sent;
  }
  // Arrivals are ordered by source, then expert: regroup them by expert (the prefix sums
  // over the counts give every block's place).
  label_compute(layer_label(layer_, "dispatch.reorder"));
  std::vector<int64_t> source_offset(size_t(ranks_ * local) + 1, 0);
  for (size_t b = 0; b < counts.received.size(); ++b) {
    source_offset[b + 1] = source_offset[b] + counts.received[b];
  }
  std::vector<int64_t> by_expert, expert_rows(static_cast<size_t>(local), 0);
  for (int64_t l = 0; l < local; ++l) {
    for (int p = 0; p < ranks_; ++p) {
      const size_t block = size_t(p * local + l);
      for (int64_t r = source_offset[block]; r < source_offset[block + 1]; ++r) by_expert.push_back(r);
      expert_rows[size_t(l)] += counts.received[block];
    }
  }
  const at::Tensor grouped = gather_rows(arrived, by_expert);
  phase_ends("moe.dispatch");

  std::vector<at::Tensor> outputs;
  int64_t first = 0;
  for (int64_t l = 0; l < local; ++l) {
    if (expert_rows[size_t(l)] == 0) continue;
    outputs.push_back(experts_[size_t(l)].forward(grouped.narrow(0, first, expert_rows[size_t(l)])));
    first += expert_rows[size_t(l)];
  }
  const at::Tensor expert_out = outputs.empty() ? at::empty({0, dim}, tokens.options()) : at::cat(outputs);

  phase_begins("moe.combine");
  label_compute(layer_label(layer_, "combine.unpack"));
  at::Tensor returned = scatter_rows(expert_out, by_expert, int64_t(by_expert.size()));
  if (comm_ != nullptr && ranks_ > 1) {
    returned = scheme_->exchange->combine(*comm_, returned, counts, site);
  }
  label_compute(layer_label(layer_, "combine.weigh"));
  const at::Tensor per_copy = scatter_rows(returned, order, copies).view({tokens.size(0), top_k_, dim});
  at::Tensor out = (per_copy * routing.weights.unsqueeze(-1)).sum(1);
  phase_ends("moe.combine");
  if (shared_) out = out + shared_->forward(tokens);
  return out.view(x.sizes());
}

}  // namespace uniference
