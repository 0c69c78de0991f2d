// "fat-tree": the three-tier k-ary fat-tree of Al-Fares et al. over the InfiniBand-like fabric.
#pragma once

#include "bridge/network_registry.h"

namespace uniference {

Topology fat_tree_topology();

}  // namespace uniference
