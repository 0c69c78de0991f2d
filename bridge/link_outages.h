// The outages of the simulated network's time-varying links (ns3::VaryingLinkChannel: a
// satellite's handovers, a blocked beam), for the trace's network process. Read from the
// channels' conditions once the run is over, so nothing is scheduled while it runs.
#pragma once

#include "bridge/run_record.h"

#include <cstdint>
#include <vector>

namespace uniference {

// Every outage from t = 0 to end_ns of every VaryingLinkChannel ns-3 holds now, in time
// order; a link is named by its two nodes, "edge <-> cloud" (bridge/node_names.h).
std::vector<LinkOutage> link_outages(int64_t end_ns);

}  // namespace uniference
