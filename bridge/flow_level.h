// The flow level (/network/transport/level "flow"): the network a topology built for the
// packet level, carried by ns3::FlowNetwork's max-min fair streams instead of packets, and
// what it cannot represent.
#pragma once

#include "bridge/network_config.h"

#include <ns3/flow-network.h>
#include <ns3/message-transport.h>

#include <string>
#include <vector>

namespace uniference {

// Why the flow level cannot carry this network, at the scenario key that asks for what it
// cannot represent; both empty when it can.
struct FlowLevelProblem {
  std::string pointer;
  std::string reason;
};
FlowLevelProblem flow_level_problem(const NetworkConfig& config);

// The flow-level transports on the nodes of `packet` (entry r: endpoint r's), and their
// network.
struct FlowLevel {
  std::vector<ns3::Ptr<ns3::MessageTransport>> transports;
  ns3::Ptr<ns3::FlowNetwork> network;
};
FlowLevel install_flow_level(const std::vector<ns3::Ptr<ns3::MessageTransport>>& packet);

}  // namespace uniference
