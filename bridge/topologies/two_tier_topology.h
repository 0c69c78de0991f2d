// "two-tier": a superpod of multi-GPU servers, each server's GPUs on one NVLink-like switch
// that is cabled to every switch of a second tier, over the InfiniBand-like fabric.
#pragma once

#include "bridge/network_registry.h"

namespace uniference {

Topology two_tier_topology();

}  // namespace uniference
