// "star": every rank on an Ethernet link to one layer-2 switch, all ranks in one IP subnet.
#pragma once

#include "bridge/network_registry.h"

namespace uniference {

Topology star_topology();

}  // namespace uniference
