// A RunRecord as a Chrome trace (the JSON "Trace Event Format"), which Perfetto
// (ui.perfetto.dev), speedscope and chrome://tracing open as they are.
//
// Layout: process 1, named after the run, has one thread track per LP ("rank N") holding
// its compute spans (category "compute", named by the shard code's compute label) and
// communication spans (category "comm", args bytes and peer). The flight of an async call
// the LP did not wait for at once (category "comm", args flight and issued_in) never goes
// on the rank's own track: it overlaps the LP's work by nature, so it takes an extra lane. Process 2, "network", holds one slice per message (category "net",
// args src, dst, bytes) on one track per sender -> receiver pair, with extra lanes where
// messages of one pair overlap. A flow arrow (ph "s" -> "f", category "flow") joins the
// sender's track at send time to the receiver's track at delivery. When the record has
// link activity (bridge/link_sampler.h), the network process also holds one counter ("ph"
// "C", category "link") per busy cable direction, named "sender -> receiver", with args
// bytes and utilisation (busy line time / interval) per sampling interval.
//
// Every slice is a "B"/"E" pair, not an "X" event, so that every boundary is one literal
// timestamp. With "X", a viewer computes the end as ts + dur itself: speedscope does so
// in binary floating point, where 12941.384 + 1.280 can exceed the next span's 12942.664,
// so a span that only abuts the next one appears to contain it and never closes (a
// staircase). An "E" and the "B" after it carry the same text, which every viewer parses
// to the same number. Slices of zero length are instant events ("i"): a "B" and an "E" at
// one timestamp would be reordered by viewers that sort ends first at equal times.
//
// On each track, slices nest or are disjoint: a span that would overlap another span on
// its rank's track goes to an extra lane ("rank N (2)", a track of its own), and network
// lanes never hold two messages at once. At one timestamp on one track the events come in
// the order viewers need: ends (innermost first), flow ends, instants, begins (outermost
// first), flow starts.
//
// Timestamps are microseconds with exactly three decimals, i.e. whole nanoseconds, written
// from integers (never through a double). The text is byte-identical for equal records on
// every platform: events are sorted by a total order.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "bridge/run_record.h"

namespace uniference {

// The trace as a JSON value: timestamps ("ts") are doubles of microseconds, equal to what
// parsing chrome_trace_text() gives. For inspection and tests; files use the text.
nlohmann::json chrome_trace(const RunRecord& record, const std::string& title);

// The trace as deterministic JSON text, one event per line.
std::string chrome_trace_text(const RunRecord& record, const std::string& title);

// Nanoseconds as trace microseconds: 1500 -> "1.500", -2 -> "-0.002".
std::string trace_microseconds(int64_t ns);

// A trace timestamp or duration (microseconds: a JSON integer, a double, or a string of
// digits) as whole nanoseconds. A double is read through its shortest decimal form, so a
// value parsed from "2.003" gives exactly 2003; digits past the nanosecond are rounded half
// away from zero. Throws std::invalid_argument for anything else.
int64_t trace_time_ns(const nlohmann::json& value);

// Checks that a trace (an object with "traceEvents", or the bare array) has slices that
// every viewer nests the same way. Per track (pid, tid):
//  - "B"/"E" in file order form a stack: timestamps never decrease, each "E" ends the
//    innermost open "B" (and has its name if it has one), later than it began, and no "B"
//    is left open;
//  - all slices ("X" and "B"/"E" pairs) nest or are disjoint, in integer nanoseconds and
//    also as a viewer computes an "X" event's end in floating point (ts + dur as doubles).
// Returns "" when the trace passes, otherwise a message naming the track, the two events
// and their times in nanoseconds.
std::string check_trace_nesting(const nlohmann::json& trace);

}  // namespace uniference
