#include "compute/moe/router.h"

#include <algorithm>

namespace uniference {

namespace {

// SplitMix64's finaliser: a well-mixed 64-bit hash of a counter.
uint64_t mix(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

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
  const uint64_t base = mix(mix(mix(mix(seed) ^ uint64_t(layer)) ^ uint64_t(rank)) ^ call);
  for (int64_t t = 0; t < tokens; ++t) {
    const size_t first = experts.size();
    for (uint64_t draw = 0; int64_t(experts.size() - first) < top_k; ++draw) {
      const int64_t e = int64_t(mix(base ^ mix(uint64_t(t) * 0x10000ULL + draw)) % uint64_t(n_experts));
      if (std::find(experts.begin() + long(first), experts.end(), e) == experts.end()) {
        experts.push_back(e);
      }
    }
  }
  return experts;
}

}  // namespace uniference
