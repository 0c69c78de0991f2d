// Wide-area link models: the path a scenario's /network/wan/model names, as the ns-3
// LinkCondition that gives the link its delay, its defaults, and a fade the model brings
// with it (a sub-THz beam's blockage). Scenario checking, docs and --help read this list.
#pragma once

#include "bridge/network_config.h"
#include "compute/registry.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace uniference {

struct WanModel {
  std::string name;
  std::string description;
  std::string condition;  // ns-3 TypeId name of its ns3::LinkCondition
  // Attributes set before the scenario's own (which win).
  std::vector<std::pair<std::string, std::string>> defaults;
  std::optional<FadeConfig> fade;  // a fade it has unless the scenario says otherwise
  // Whether it replays a file (/network/wan/trace, then required; its Attribute File).
  bool reads_file = false;
};

const NamedRegistry<WanModel>& wan_models();

}  // namespace uniference
