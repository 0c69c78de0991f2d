// "wifi-cell": every rank an edge device on one ad hoc 802.11ax cell (ns-3's own Wi-Fi), so
// tensor parallelism across phones or boards runs over a real radio stack.
#pragma once

#include "bridge/network_registry.h"

namespace uniference {

Topology wifi_cell_topology();

}  // namespace uniference
