// The link sampler's taps on radio cells (bridge/link_sampler.h). A cell is one shared medium,
// not cables, so a direction is a station's sending into it:
//  - Wi-Fi: "rank0 -> wifi", its line time the air time of the PPDUs it sends (PhyTxPsduBegin),
//    its rate the data rate of its constant-rate manager's mode;
//  - LTE: "rank0 -> enb" (the device's uplink) and "enb -> rank0" (the cell's downlink to it),
//    its line time each transport block's share of the cell's resource blocks over its 1 ms
//    subframe, its rate the cell's peak (every resource block at the highest MCS, one layer).
#pragma once

#include "bridge/link_sampler.h"

#include <memory>

namespace uniference {

void tap_wifi_stations(const std::shared_ptr<LinkSampler::State>& state);
void tap_lte_cells(const std::shared_ptr<LinkSampler::State>& state);

}  // namespace uniference
