// The 70B shape on 64 logical processes (TP-8 x PP-8) without its weights: the decode step's
// simulated compute on every rank against the roofline of its shard's matrix products,
// computed here from the model's shape and the device profile alone.
#include "apps/run_scenario.h"
#include "apps/scenario.h"
#include "compute/compute_meter.h"
#include "compute/model_config.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace uniference {
namespace {

constexpr int kTp = 8;
constexpr int kPp = 8;

Scenario seventy_b(int new_tokens) {
  const std::string text = R"({
    "name": "70b-shapes",
    "model": { "preset": "70b" },
    "parallel": { "strategy": "tp-pp", "tp": 8, "pp": 8 },
    "workload": { "prompt_tokens": 8, "new_tokens": )" + std::to_string(new_tokens) + R"( },
    "devices": { "profile": "h100" },
    "compute": { "mode": "modeled", "shapes_only": true },
    "network": { "topology": "star", "link": { "preset": "ndr" }, "transport": { "kind": "rdma" } },
    "outputs": { "trace": false, "results": false }
  })";
  return parse_scenario_text(text, "70b-shapes.json");
}

// max(FLOPs / peak, bytes / bandwidth) of y[1, n] = x[1, k] W^T with W [n, k], float32.
double linear_roofline_ns(const DeviceProfile& device, double k, double n) {
  const double flops = 2 * k * n;
  const double bytes = 4 * (k + k * n + n);
  return std::max(flops / device.peak_flops, bytes / device.memory_bandwidth) * 1e9;
}

TEST(ShapeOnly70b, DecodeStepComputeIsTheRooflineOfTheShardsProjections) {
  const ScenarioRun prefill = run_scenario(seventy_b(1), false);
  const ScenarioRun both = run_scenario(seventy_b(2), false);
  ASSERT_EQ(prefill.outcome.status, RunOutcome::Status::kCompleted) << prefill.outcome.report;
  ASSERT_EQ(both.outcome.status, RunOutcome::Status::kCompleted) << both.outcome.report;
  ASSERT_EQ(both.record.ranks.size(), size_t(kTp * kPp));

  const ModelConfig m = model_preset("70b");
  const DeviceProfile h100 = device_profile("h100");
  const double d = double(m.dim), hd = double(m.head_dim());
  // One layer's shard: q and o over n_heads / tp heads, k and v over n_kv_heads / tp, the
  // MLP's gate, up and down over ffn_dim / tp.
  const double q_width = m.n_heads / kTp * hd, kv_width = m.n_kv_heads / kTp * hd;
  const double ffn = double(m.ffn_dim / kTp);
  const double layer = linear_roofline_ns(h100, d, q_width) + 2 * linear_roofline_ns(h100, d, kv_width) +
                       linear_roofline_ns(h100, q_width, d) + 2 * linear_roofline_ns(h100, d, ffn) +
                       linear_roofline_ns(h100, ffn, d);
  const double head = linear_roofline_ns(h100, d, double(m.vocab / kTp));
  const double layers_per_stage = double(m.n_layers / kPp);
  for (int r = 0; r < kTp * kPp; ++r) {
    const int stage = r / kTp;
    const double expected = layers_per_stage * layer + (stage == kPp - 1 ? head : 0.0);
    const int64_t decode = both.record.ranks[size_t(r)].compute_ns -
                           prefill.record.ranks[size_t(r)].compute_ns;
    // Norms, rotary embedding, attention over 9 keys and the residual adds read vectors of
    // dim floats: well under 2% of the weights the projections read.
    EXPECT_GE(double(decode), expected) << "rank " << r;
    EXPECT_LE(double(decode), expected * 1.02) << "rank " << r;
  }
}

}  // namespace
}  // namespace uniference
