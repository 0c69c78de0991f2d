#include "compute/moe/router.h"

#include "compute/counter_hash.h"

#include <algorithm>

namespace uniference {

Routing route_top_k(const at::Tensor& logits, int64_t top_k) {
  const auto [values, indices] = at::softmax(logits, -1).topk(top_k, -1);
  Routing routing;
  routing.weights = values / values.sum(-1, /*keepdim=*/true);
  if (!indices.is_meta()) {
    const at::Tensor ids = indices.contiguous();
    routing.experts.assign(ids.data_ptr<int64_t>(), ids.data_ptr<int64_t>() + ids.numel());
  }
  return routing;
}

std::vector<int64_t> drawn_experts(uint64_t seed, int64_t layer, int rank, uint64_t call,
                                   int64_t tokens, int64_t top_k, int64_t n_experts) {
  std::vector<int64_t> experts;
  experts.reserve(size_t(tokens * top_k));
  const uint64_t base = mix64(mix64(mix64(mix64(seed) ^ uint64_t(layer)) ^ uint64_t(rank)) ^ call);
  for (int64_t t = 0; t < tokens; ++t) {
    const size_t first = experts.size();
    for (uint64_t draw = 0; int64_t(experts.size() - first) < top_k; ++draw) {
      const int64_t e = int64_t(mix64(base ^ mix64(uint64_t(t) * 0x10000ULL + draw)) % uint64_t(n_experts));
      if (std::find(experts.begin() + long(first), experts.end(), e) == experts.end()) {
        experts.push_back(e);
      }
    }
  }
  return experts;
}

}  // namespace uniference
