// "star-routed": every rank on a point-to-point link to one hub node that routes between
// them, each link its own IP subnet.
#pragma once

#include "bridge/network_registry.h"

namespace uniference {

Topology star_routed_topology();

}  // namespace uniference
