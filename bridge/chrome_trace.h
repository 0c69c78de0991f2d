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
// every platform: events are sorted by a total order. The time text and its reading back are
// bridge/trace_time.h; a checker that every viewer nests the slices alike is
// bridge/test/trace_nesting.h (tests use it).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "bridge/run_record.h"
#include "bridge/trace_time.h"

namespace uniference {

// The trace as a JSON value: timestamps ("ts") are doubles of microseconds, equal to what
// parsing chrome_trace_text() gives. For inspection and tests; files use the text.
nlohmann::json chrome_trace(const RunRecord& record, const std::string& title);

// The trace as deterministic JSON text, one event per line.
std::string chrome_trace_text(const RunRecord& record, const std::string& title);

}  // namespace uniference
