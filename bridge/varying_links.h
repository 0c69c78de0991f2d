// What the simulated network's time-varying links (ns3::VaryingLinkChannel: a satellite pass,
// a fading beam, a replayed trace) did over a run, for the trace's network process and the
// report: their outages, and their delay and rates over time. Read from the channels'
// conditions once the run is over, so nothing is scheduled while it runs (the conditions
// answer the same for the same time, whenever asked).
#pragma once

#include "bridge/run_record.h"

#include <cstdint>
#include <vector>

namespace uniference {

// Every outage from t = 0 to end_ns of every VaryingLinkChannel ns-3 holds now, in time
// order; a link is named by its two nodes, "edge <-> cloud" (bridge/node_names.h).
std::vector<LinkOutage> link_outages(int64_t end_ns);

// Every VaryingLinkChannel's one-way delay and its two directions' rates at `samples` + 1
// instants from t = 0 to end_ns, evenly spaced (whole nanoseconds).
std::vector<LinkConditionSamples> link_conditions(int64_t end_ns, uint32_t samples);

}  // namespace uniference
