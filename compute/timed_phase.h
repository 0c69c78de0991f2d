// Phases: stretches of shard code it names so that their duration is reported, such as an
// expert-parallel dispatch ("moe.dispatch") from the first byte packed to the last token in
// place. Like compute labels, phases go to a sink: the simulator installs one that reads
// each LP's simulated clock, a deployment one that reads the wall clock; with none
// installed a phase costs a call.
#pragma once

#include <functional>
#include <string>

namespace uniference {

// Called when a phase begins (begins = true) and when it ends, on the device running it.
using PhaseSink = std::function<void(const std::string& name, bool begins)>;

// Installs the process's sink (an empty function removes it).
void set_phase_sink(PhaseSink sink);

// Phases of one name do not nest on one device: every begin is followed by its end before
// the next begin. Every device runs the same phases in the same order, so the k-th phase of
// a name on each device is one collective step (its latency: first begin to last end).
void phase_begins(const std::string& name);
void phase_ends(const std::string& name);

}  // namespace uniference
