// "lte-cell": edge devices as UEs of one LTE cell (ns-3's own LTE and EPC), servers behind the
// core's packet gateway: split inference from a phone to a server over a real radio stack.
#pragma once

#include "bridge/network_registry.h"

namespace uniference {

Topology lte_cell_topology();

}  // namespace uniference
