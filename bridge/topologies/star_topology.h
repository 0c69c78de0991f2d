// "star": every rank on a point-to-point link to one hub node that routes between them.
#pragma once

#include "bridge/network_registry.h"

namespace uniference {

Topology star_topology();

}  // namespace uniference
