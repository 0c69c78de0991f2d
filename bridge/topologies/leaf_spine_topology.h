// "leaf-spine": endpoints on leaf switches, every leaf cabled to every spine, over the
// InfiniBand-like fabric.
#pragma once

#include "bridge/network_registry.h"

namespace uniference {

Topology leaf_spine_topology();

}  // namespace uniference
