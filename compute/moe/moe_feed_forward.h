// The MLP of an MoE layer: a router picks top_k experts (SwiGLU MLPs) per token, the routed
// copies go to their experts (on this device, or over the expert-parallel group by its
// dispatch scheme), and each token's output is its experts' outputs weighted by the gate,
// plus the shared experts' output.
//
// Expert e's weights are a function of (seed, layer, e), like every weight, so a rank
// builds only the experts it holds and any expert-parallel degree computes the
// single-device model.
#pragma once

#include "compute/llama.h"
#include "compute/moe/expert_exchange.h"
#include "compute/moe/router.h"

#include <optional>
#include <vector>

namespace uniference {

class MoeFeedForward {
 public:
  MoeFeedForward(const ModelConfig& config, const WeightSource& weights, int64_t layer,
                 const ExpertGroup& group);

  // x [..., dim] (normed) -> [..., dim]. Dispatch and combine are timed as phases
  // "moe.dispatch" (packing to the tokens regrouped by expert) and "moe.combine" (expert
  // outputs sent back to the weighted sum).
  at::Tensor forward(const at::Tensor& x);
  uint64_t weight_bytes() const;

 private:
  // Which expert each of the tokens' top_k copies goes to, with its gate weight.
  Routing route(const at::Tensor& tokens);

  int64_t layer_;
  int64_t top_k_;
  int64_t n_experts_;
  uint64_t seed_;
  Comm* comm_;
  const DispatchScheme* scheme_;
  int ranks_;
  int ranks_per_server_;
  std::vector<ExpertSlot> slots_;  // by expert id
  ColumnParallelLinear router_;    // [n_experts, dim], on one device
  std::vector<FeedForward> experts_;  // this rank's, by local index
  std::optional<FeedForward> shared_;
  uint64_t calls_ = 0;  // forward calls so far: every rank's count is the same
};

}  // namespace uniference
