// A test's check of a Chrome trace: that its slices nest the same way in every viewer.
// Used by the trace writer's tests and by the tests that read back traces of real runs;
// no part of the simulator calls it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace uniference {

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
