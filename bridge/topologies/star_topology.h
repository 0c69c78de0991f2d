// "star": every rank on its own link to one switch: a layer-2 Ethernet switch with all ranks
// in one IP subnet (tcp), or an InfiniBand-like switch (rdma).
#pragma once

#include "bridge/network_registry.h"

namespace uniference {

Topology star_topology();

}  // namespace uniference
