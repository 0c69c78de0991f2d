// /workload: one prompt, a batch, or requests arriving over time (kind serving).
#include "apps/scenario_keys/sections.h"

namespace uniference {

std::vector<ScenarioKey> workload_keys() {
  return {
      ScenarioKey("/workload", "object",
                  "What is served: one prompt, a batch of prompts, or requests arriving over time.",
                  R"({"type": "object", "additionalProperties": false})")
          .required(),
      ScenarioKey("/workload/kind", "a [workload kind](#workload-kinds)",
                  "`single` and `batch`: prefill, then decode, of `batch` prompts of one length. "
                  "`serving`: a stream of requests batched by a scheduler (the keys `arrivals`, "
                  "`scheduler` and `slo` belong to it and are refused otherwise; `batch` is "
                  "refused with it). See [Serving](#serving).")
          .defaults_to("`\"batch\"` when `batch` > 1, else `\"single\"`"),
      ScenarioKey("/workload/prompt_tokens",
                  "positive integer; kind `serving`: a [length](#lengths)",
                  "Prompt length (prefill); at most the model's context (`max_seq`, 2048 for the "
                  "presets). For serving, the longest a distribution can give must fit.",
                  R"({"$ref": "#/$defs/length"})")
          .required(),
      ScenarioKey("/workload/new_tokens", "positive integer; kind `serving`: a [length](#lengths)",
                  "Tokens generated; the first comes out of prefill. prompt_tokens + new_tokens − "
                  "1 must fit the model's context (for serving, the longest of each).",
                  R"({"$ref": "#/$defs/length"})")
          .required(),
      ScenarioKey("/workload/batch", "positive integer",
                  "Prompts served together, each `prompt_tokens` long; prompt 0 is the same for "
                  "every batch size, the others drawn from seeds derived from `/seed`.",
                  R"({"type": "integer", "minimum": 1, "maximum": 2147483647, "default": 1})"),
      ScenarioKey("/workload/arrivals", "object",
                  "The request stream, drawn before the run from `/seed`: arrival times, prompt "
                  "lengths and output lengths from three streams of their own.",
                  R"({"type": "object", "additionalProperties": false})")
          .defaults_to("*required* for `serving`"),
      ScenarioKey("/workload/arrivals/process", "`\"poisson\"`",
                  "Exponential gaps between arrivals.",
                  R"({"enum": ["poisson"], "default": "poisson"})"),
      ScenarioKey("/workload/arrivals/rate", "number > 0",
                  "Mean arrivals per second (over all replicas).",
                  R"({"type": "number", "exclusiveMinimum": 0})")
          .required(),
      ScenarioKey("/workload/arrivals/requests", "integer 1 … 10^7", "How many requests arrive.",
                  R"({"type": "integer", "minimum": 1, "maximum": 10000000})")
          .defaults_to("one of the two"),
      ScenarioKey("/workload/arrivals/duration", "string, [duration](#durations)",
                  "Requests arrive until this time; the run then finishes serving them.",
                  R"({"type": "string"})")
          .defaults_to("one of the two"),
      ScenarioKey("/workload/scheduler", "object",
                  "How each replica batches its requests into forward steps.",
                  R"({"type": "object", "additionalProperties": false})")
          .defaults_to("all defaults"),
      ScenarioKey("/workload/scheduler/name", "a [scheduler](#schedulers)",
                  "`static` or `continuous` batching.", R"({"default": "continuous"})"),
      ScenarioKey("/workload/scheduler/max_batch", "integer 1 … 4096",
                  "Requests running at once: the KV-cache slots of every rank.",
                  R"({"type": "integer", "minimum": 1, "maximum": 4096, "default": 8})"),
      ScenarioKey("/workload/scheduler/kv_cache_tokens", "positive integer",
                  "KV-cache positions over all slots; at least the longest request's. With fewer, "
                  "continuous batching preempts (the newest running request gives its cache back "
                  "and is recomputed later).",
                  R"({"type": "integer", "minimum": 1})")
          .defaults_to("max_batch × (longest prompt + longest output − 1)"),
      ScenarioKey("/workload/disaggregation", "object",
                  "Prefill/decode disaggregation: `{\"prefill\": P, \"decode\": D}` replicas, each "
                  "of `/parallel/tp` ranks (strategy `tp`, `dp` 1): the world is tp × (P + D) "
                  "ranks, the prefill replicas first. Request i is prefilled by prefill replica i "
                  "mod P and decoded by decode replica i mod D; see [Serving](#serving).",
                  R"({"type": "object", "additionalProperties": false})")
          .defaults_to("none"),
      ScenarioKey("/workload/disaggregation/prefill", "", "Replicas in the prefill pool.",
                  R"({"type": "integer", "minimum": 1, "maximum": 2147483647})")
          .required()
          .in_parent_row(),
      ScenarioKey("/workload/disaggregation/decode", "", "Replicas in the decode pool.",
                  R"({"type": "integer", "minimum": 1, "maximum": 2147483647})")
          .required()
          .in_parent_row(),
      ScenarioKey("/workload/slo", "object",
                  "Latency objectives; goodput counts the requests that meet every one given.",
                  R"({"type": "object", "additionalProperties": false})")
          .defaults_to("none"),
      ScenarioKey("/workload/slo/ttft", "string, [duration](#durations)",
                  "Time to first token, arrival to first token.", R"({"type": "string"})")
          .defaults_to("none"),
      ScenarioKey("/workload/slo/tpot", "string, [duration](#durations)",
                  "Time per output token after the first.", R"({"type": "string"})")
          .defaults_to("none"),
  };
}

}  // namespace uniference
