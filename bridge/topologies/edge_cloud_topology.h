// "edge-cloud": edge devices and cloud servers on two sites, each a routed star, joined by
// one wide-area link (/network/wan): a LEO or GEO satellite path, a sub-THz beam, a
// replayed trace. Split inference across the link is pipeline parallelism with the first
// stages at the edge.
#pragma once

#include "bridge/network_registry.h"

namespace uniference {

Topology edge_cloud_topology();

}  // namespace uniference
