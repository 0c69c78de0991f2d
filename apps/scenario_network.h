// Reading /network: the topology, its links, switches and transport, the placement of the
// ranks, ns-3 defaults and the wide-area link, with every key's place, type and range checked
// (names are kept as written, for scenario_check.h). A network preset's keys are filled in as
// if written, the written ones winning.
#pragma once

#include "apps/json_checker.h"
#include "apps/scenario.h"

#include <string>

namespace uniference {

// `source` is the scenario's file, which side files (/network/link/profile, /network/wan/trace)
// are relative to.
// "packed", or each rank's endpoint (/network/placement, /jobs/<n>/placement); "spread" too
// where `spread_too` (a job's).
PlacementSpec read_placement(const Checker& check, const json& value, const std::string& pointer,
                             bool spread_too = false);

NetworkSpec read_network(const Checker& check, const json& written, const std::string& pointer,
                         const std::string& source);

}  // namespace uniference
