#include "bridge/flow_level.h"

#include <ns3/flow-network-helper.h>

namespace uniference {

FlowLevelProblem flow_level_problem(const NetworkConfig& config) {
  if (config.level != "flow") return {};
  if (config.topology == "wifi-cell" || config.topology == "lte-cell") {
    return {"/network/topology",
            "the flow level has cables of fixed rate; a wireless cell shares one medium whose "
            "rate follows the channel and the scheduler (use level \"packet\")"};
  }
  if (!config.wan.model.empty()) {
    return {"/network/wan",
            "the flow level has cables of fixed rate that lose nothing; a wide-area link's rate "
            "varies in time and it may lose packets (use level \"packet\")"};
  }
  if (config.transport == "tcp" &&
      (config.topology == "leaf-spine" || config.topology == "fat-tree")) {
    return {"/network/topology",
            "the flow level follows TCP through one hub; on a fabric each connection's path is "
            "the ECMP hash of its ports, which the packet level's TCP picks when it connects "
            "(use level \"packet\", or transport rdma)"};
  }
  if (config.rdma.adaptive_routing) {
    return {"/network/switch/routing",
            "adaptive routing spreads one queue pair's packets over several paths as queues "
            "build; the flow level follows one path per pair (use \"ecmp\" or level "
            "\"packet\")"};
  }
  if (config.shaper.rate.GetBitRate() > 0) {
    return {"/network/link/shaper",
            "a token bucket passes bursts faster than its rate and drops what overflows its "
            "queue; the flow level has cables of fixed rate (use level \"packet\")"};
  }
  return {};
}

FlowLevel install_flow_level(const std::vector<ns3::Ptr<ns3::MessageTransport>>& packet) {
  ns3::FlowNetworkHelper helper;
  FlowLevel level;
  level.transports = helper.Install(packet);
  level.network = helper.GetNetwork();
  return level;
}

}  // namespace uniference
