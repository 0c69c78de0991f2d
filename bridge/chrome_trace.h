// A RunRecord as a Chrome trace (the JSON "Trace Event Format"), which Perfetto
// (ui.perfetto.dev) and chrome://tracing open as they are.
//
// Layout: process 1, named after the run, has one thread track per LP ("rank N") holding
// its compute spans (category "compute") and communication spans (category "comm", args
// bytes and peer). Process 2, "network", holds one X event per message (category "net",
// args src, dst, bytes) on one track per sender -> receiver pair, with extra lanes where
// messages of one pair overlap, since a track must nest its slices. A flow arrow
// (ph "s" -> "f", category "flow") joins the sender's track at send time to the receiver's
// track at delivery.
//
// Timestamps are microseconds with exactly three decimals, i.e. whole nanoseconds. The
// text is byte-identical for equal records on every platform: events are sorted by a total
// order and numbers are formatted from integers, never through printf of a double.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "bridge/run_record.h"

namespace uniference {

// The trace as a JSON value: timestamps ("ts", "dur") are doubles of microseconds, equal to
// what parsing chrome_trace_text() gives. For inspection and tests; files use the text.
nlohmann::json chrome_trace(const RunRecord& record, const std::string& title);

// The trace as deterministic JSON text, one event per line.
std::string chrome_trace_text(const RunRecord& record, const std::string& title);

// Nanoseconds as trace microseconds: 1500 -> "1.500", -2 -> "-0.002".
std::string trace_microseconds(int64_t ns);

}  // namespace uniference
