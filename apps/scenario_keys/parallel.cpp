// /parallel: how the model is split over ranks (compute/parallel_degrees.h).
#include "apps/scenario_keys/sections.h"

namespace uniference {

std::vector<ScenarioKey> parallel_keys() {
  return {
      ScenarioKey("/parallel", "object",
                  "How the model is split over ranks. The number of ranks is tp × pp × dp × sp × "
                  "ep; a degree the strategy does not use must be 1 (an error at its pointer says "
                  "which strategy does).",
                  R"({"type": "object", "additionalProperties": false})")
          .required(),
      ScenarioKey("/parallel/strategy", "a [strategy](#strategies)",
                  "The shard program every rank runs.")
          .required(),
      ScenarioKey("/parallel/tp", "positive integer",
                  "Tensor-parallel degree: ranks per tensor-parallel group (`tp`, `tp-pp`). It "
                  "must divide the model's heads and widths; that is checked before the run and "
                  "reported at `/parallel/tp`.",
                  R"({"type": "integer", "minimum": 1, "maximum": 2147483647, "default": 1})"),
      ScenarioKey("/parallel/pp", "positive integer",
                  "Pipeline stages (`pp`, `tp-pp`), at most the model's layers. Stage s is ranks "
                  "s·tp … s·tp + tp − 1 of its replica.",
                  R"({"type": "integer", "minimum": 1, "maximum": 2147483647, "default": 1})"),
      ScenarioKey(
          "/parallel/dp", "positive integer",
          "Data-parallel replicas of any strategy: replica i is ranks i·(tp·pp·sp) … of the world, "
          "and prompt p of the batch goes to replica p mod dp. At most `/workload/batch`.",
          R"({"type": "integer", "minimum": 1, "maximum": 2147483647, "default": 1})"),
      ScenarioKey(
          "/parallel/sp", "positive integer",
          "Sequence partitions (`voltage`, `kilovolts`): each rank computes a contiguous slice of "
          "the positions, the first slices one longer when they do not divide evenly.",
          R"({"type": "integer", "minimum": 1, "maximum": 2147483647, "default": 1})"),
      ScenarioKey("/parallel/ep", "positive integer",
                  "Expert-parallel ranks (strategy `ep`): every rank holds the whole model but "
                  "1/ep of each MoE layer's experts (expert e on rank e / (experts / ep), or round "
                  "robin with `hierarchical`), its attention serving prompts r, r + ep, … of its "
                  "replica; each MoE layer sends every token's top-k copies to their experts' "
                  "ranks and the outputs back (docs/moe.md). It must divide the experts, and "
                  "`/workload/batch` must be a multiple of ep × dp.",
                  R"({"type": "integer", "minimum": 1, "maximum": 2147483647, "default": 1})"),
      ScenarioKey("/parallel/dispatch", "a [dispatch scheme](#dispatch-schemes)",
                  "Strategy `ep`: how tokens reach their experts and come back. Every scheme moves "
                  "the same token rows and gives the same tokens; they differ in their count, flag "
                  "and barrier traffic and in time. Refused with other strategies.",
                  R"({"default": "bsp"})"),
      ScenarioKey(
          "/parallel/stages", "array of positive integers",
          "Layers per pipeline stage, one entry per stage, adding up to the model's layers. "
          "Without it the first stages take one layer more when pp does not divide the layers.",
          R"({"type": "array", "minItems": 1, "items": {"type": "integer", "minimum": 1, "maximum": 2147483647}})")
          .defaults_to("even split"),
      ScenarioKey("/parallel/micro_batches", "positive integer",
                  "Pipeline micro-batches: the batch's prompts in min(micro_batches, batch) groups "
                  "that move through the stages one after another (in decode too), and when "
                  "micro_batches exceeds the batch, each group's prefill cut into micro_batches / "
                  "batch chunks of positions (chunked prefill).",
                  R"({"type": "integer", "minimum": 1, "maximum": 2147483647, "default": 1})"),
  };
}

}  // namespace uniference
