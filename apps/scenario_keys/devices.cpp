// /devices: the device every rank runs on, and the host's latencies.
#include "apps/scenario_keys/sections.h"

namespace uniference {

std::vector<ScenarioKey> devices_keys() {
  return {
      ScenarioKey("/devices", "object", "The device every rank runs on.",
                  R"({"type": "object", "additionalProperties": false})")
          .defaults_to("all defaults"),
      ScenarioKey(
          "/devices/profile", "a [device profile](#device-profiles), or a file `*.json`",
          "Peak FLOP/s per dtype, memory bandwidth, per-operator launch overhead and efficiency by "
          "op class. A name ending in `.json` is a profile file of your own (the format of "
          "`devices/*.json`, below), relative to the scenario's folder.",
          R"({"type": "string", "minLength": 1, "default": "cpu", "anyOf": [{}, {"pattern": "\\.json$"}]})"),
      ScenarioKey("/devices/slowdown", "number > 0",
                  "`measured` mode: wall time of the shard code is multiplied by this; `modeled`: "
                  "the charged time is.",
                  R"({"type": "number", "exclusiveMinimum": 0, "default": 1.0})"),
      ScenarioKey("/devices/efficiency", "number in (0, 1]",
                  "`modeled` mode: fraction of the profile's peak the device reaches (on top of "
                  "the profile's own efficiency by op class).",
                  R"({"type": "number", "exclusiveMinimum": 0, "maximum": 1, "default": 1.0})"),
      ScenarioKey(
          "/devices/dtype", "`\"fp32\"` \\| `\"bf16\"` \\| `\"fp16\"`",
          "The dtype compute is charged in: the profile's peak for it (a profile without one is an "
          "error here), and the bytes of floating-point tensors at its element size. The shard "
          "code's tensors stay float32, and so do the bytes of its messages.",
          R"({"enum": ["fp32", "bf16", "fp16"], "default": "fp32"})"),
      ScenarioKey(
          "/devices/wake_latency", "duration ≥ 0, or a file `*.json`",
          "The host's wake-up latency after a blocking wait: a rank whose send, receive or "
          "collective had to wait resumes after a delay drawn from an exponential of this mean "
          "(its own stream, so deterministic for a `/seed`), as a real thread is woken some time "
          "after its completion; a wait whose operation had already completed costs nothing. It "
          "decides races that simulated ranks would otherwise tie, such as Gloo's pairwise "
          "rendezvous (`docs/collectives-backends.md`). A name ending in `.json` is a [file of "
          "measured delays](#wake-up-latency-files), relative to the scenario's folder: each wait "
          "draws one of them, each equally often. A busy host's delays are mostly microseconds and "
          "now and then milliseconds, and which of two ranks resumes last depends on that tail, "
          "not on the mean alone. The testbed scenarios take the mean from measurement: a small "
          "message's one-way time less the wire's (`validation/README.md`); on a host busy with "
          "the run itself, `validation/testbed/sched_delays.py` reads the delays from `perf sched "
          "record`.",
          R"({"type": "string", "pattern": "^([0-9]+(\\.[0-9]+)?(ns|us|ms|s)|.+\\.json)$", "default": "0s"})"),
      ScenarioKey(
          "/devices/handling_latency", "duration ≥ 0, or a file `*.json`",
          "The host's delay in handing an arrived message on: a message (data, or a rendezvous "
          "notice) that finds its rank's endpoint idle reaches the communication library that much "
          "after its last byte arrived, drawn from the endpoint's own stream (ns-3's "
          "`MessageTransport::HandlingDelay`); one that arrives while an earlier one still waits "
          "goes with it, in order. It is the library's event-loop thread being woken on a busy "
          "host, once per message rather than once per call as `wake_latency`. A duration is the "
          "mean of an exponential, a `.json` file measured delays as for `wake_latency` "
          "(`sched_delays.py --handling-samples` writes Gloo's threads').",
          R"({"type": "string", "pattern": "^([0-9]+(\\.[0-9]+)?(ns|us|ms|s)|.+\\.json)$", "default": "0s"})"),
      ScenarioKey(
          "/devices/host_cores", "integer ≥ 1",
          "Ranks that compute on a host's CPU cores instead of devices of their own, as the "
          "emulated testbed's rank processes share its two cores: while more ranks of one host "
          "compute at once than it has cores, each computes at cores/n of its speed (processor "
          "sharing, as Linux's fair scheduler shares cores among runnable threads), and their "
          "compute spans stretch to match. Only the ranks' compute is shared: the communication "
          "library's threads and the kernel's network stack are not modelled as using cores. "
          "Not in runs across processes.",
          R"({"type": "integer", "minimum": 1})")
          .defaults_to("none: every rank has a device of its own"),
      ScenarioKey("/devices/ranks_per_host", "integer ≥ 1",
                  "With `host_cores`: how many consecutive ranks share one host (the last may "
                  "have fewer); with `/jobs`, ranks counted across the jobs in order.",
                  R"({"type": "integer", "minimum": 1})")
          .defaults_to("every rank on one host"),
      ScenarioKey(
          "/devices/ranks", "array of objects",
          "Heterogeneous devices: one object per rank with `profile`, `slowdown` and `efficiency`, "
          "each defaulting to the keys above. Its length must be the number of ranks.",
          R"({"type": "array", "minItems": 1})")
          .defaults_to("none"),
      ScenarioKey("/devices/ranks/<n>", "",
                  "One rank's device: the keys of /devices that may differ between ranks.",
                  R"({"type": "object", "additionalProperties": false})")
          .in_parent_row(),
      ScenarioKey("/devices/ranks/<n>/profile", "", "As /devices/profile.", R"({"type": "string"})")
          .in_parent_row(),
      ScenarioKey("/devices/ranks/<n>/slowdown", "", "",
                  R"({"type": "number", "exclusiveMinimum": 0})")
          .in_parent_row(),
      ScenarioKey("/devices/ranks/<n>/efficiency", "", "",
                  R"({"type": "number", "exclusiveMinimum": 0, "maximum": 1})")
          .in_parent_row(),
  };
}

}  // namespace uniference
