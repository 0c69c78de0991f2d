// "rail-optimised": multi-GPU servers whose GPU g has its own NIC on leaf g (its rail), the
// GPUs of a server joined by NVLink-like links, over the InfiniBand-like fabric.
#pragma once

#include "bridge/network_registry.h"

namespace uniference {

Topology rail_optimised_topology();

}  // namespace uniference
