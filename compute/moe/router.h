// The router of an MoE layer: which top_k experts each token goes to, and with what weight.
#pragma once

#include <ATen/ATen.h>

#include <cstdint>
#include <vector>

namespace uniference {

struct Routing {
  std::vector<int64_t> experts;  // tokens x top_k expert ids, token by token
  at::Tensor weights;            // [tokens, top_k] float32 gate weights, each row summing to 1
};

// Softmax over the router's logits [tokens, n_experts], the top_k largest kept and
// renormalised to sum 1 (Mixtral's gating, and Qwen3's with norm_topk_prob). On meta
// logits the weights are shapes only and the experts must come from drawn_experts.
Routing route_top_k(const at::Tensor& logits, int64_t top_k);

// Shape-only runs, whose logits hold no numbers: top_k distinct experts per token drawn
// uniformly from a counter-based hash of (seed, layer, rank, call, token), as a router with
// random scores would pick them (DeepEP's benchmarks route so). Every rank draws its own.
std::vector<int64_t> drawn_experts(uint64_t seed, int64_t layer, int rank, uint64_t call,
                                   int64_t tokens, int64_t top_k, int64_t n_experts);

}  // namespace uniference
