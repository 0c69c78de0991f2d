// /outputs: which files a run writes.
#include "apps/scenario_keys/sections.h"

namespace uniference {

std::vector<ScenarioKey> outputs_keys() {
  return {
      ScenarioKey("/outputs", "object", "Which files the run writes into its output folder.",
                  R"({"type": "object", "additionalProperties": false})")
          .defaults_to("all defaults"),
      ScenarioKey("/outputs/trace", "boolean", "Write `trace.json` (Chrome trace event format).",
                  R"({"type": "boolean", "default": true})"),
      ScenarioKey("/outputs/results", "boolean", "Write `results.json`.",
                  R"({"type": "boolean", "default": true})"),
      ScenarioKey(
          "/outputs/link_samples", "integer 0 to 10000",
          "Intervals of the trace's link counters (see [trace.json](#tracejson)); `0` for none.",
          R"({"type": "integer", "minimum": 0, "maximum": 10000, "default": 200})"),
      ScenarioKey(
          "/outputs/trace_max_events", "positive integer",
          "Spans and network messages `trace.json` keeps. A run with more keeps its beginning, "
          "every span and message that starts before the time the count is reached, and says so in "
          "the trace's title (\"first 1.2 s of 60 s\") and on stderr; the summary and "
          "`results.json` still cover the whole run. Bounds the trace of long serving runs.",
          R"({"type": "integer", "minimum": 1, "default": 1000000})"),
      ScenarioKey("/outputs/pcap", "boolean",
                  "Write one pcap file per network device, `<name>-<node>-<device>.pcap` (Ethernet "
                  "or PPP framing, as the star's links carry it). Transport `tcp` only.",
                  R"({"type": "boolean", "default": false})"),
      ScenarioKey(
          "/outputs/flow_monitor", "boolean",
          "Write `flowmon.xml`, ns-3's FlowMonitor statistics per IP flow. Transport `tcp` only.",
          R"({"type": "boolean", "default": false})"),
      ScenarioKey("/outputs/report", "boolean",
                  "Write `report.html` when the run ends: setup, headline figures and plots in one "
                  "self-contained page (docs/report.md); the same page as `uniference report` makes "
                  "from the folder. Needs `results`.",
                  R"({"type": "boolean", "default": false})"),
  };
}

}  // namespace uniference
