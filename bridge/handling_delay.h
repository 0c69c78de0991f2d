// The endpoints' message handling delay (NetworkConfig::handling_*) put on their transports
// as ns-3 random variables: an ExponentialRandomVariable of the mean, or an
// EmpiricalRandomVariable that returns each measured delay as often as it was measured.
#pragma once

#include "bridge/network_config.h"

#include <ns3/message-transport.h>
#include <ns3/ptr.h>
#include <ns3/random-variable-stream.h>

#include <cstdint>
#include <vector>

namespace uniference {

// Delays in seconds, each of `samples_ns` drawn equally often (ns-3's sampling, not its
// interpolating, mode); null for no samples.
ns3::Ptr<ns3::RandomVariableStream> measured_delays(const std::vector<int64_t>& samples_ns);

// Gives every transport a variable of its own, when the network has a handling delay.
void set_handling_delay(const NetworkConfig& network,
                        const std::vector<ns3::Ptr<ns3::MessageTransport>>& transports);

}  // namespace uniference
