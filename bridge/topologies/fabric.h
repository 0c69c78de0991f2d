// What the switched fabrics (fat-tree, leaf-spine, rail-optimised, two-tier, the star over rdma)
// share: a fabric helper for the config's transport (IbFabricHelper for rdma, EthernetFabricHelper
// for tcp) set up from the NetworkConfig, their options and defaults, the checks of a placement,
// and the ranks' transports once a topology has described its graph.
#pragma once

#include "bridge/network_registry.h"

#include <ns3/fabric-graph.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace uniference {

// Builds the graph `describe` draws: for rdma on the InfiniBand-like fabric (link rate and
// delay, IB MTU, virtual-lane buffer, routing, switch latency, congestion control), for tcp on
// Ethernet switches with ECMP (link rate, delay and MTU, the TCP of configure_tcp_endpoints).
// Places the ranks, creates everything and returns rank r's transport at entry r.
std::vector<ns3::Ptr<ns3::MessageTransport>> build_fabric(
    const NetworkConfig& config, uint32_t ranks,
    const std::function<void(ns3::FabricGraph&)>& describe);

// The link class of intra-server (NVLink-like) cables.
uint32_t add_intra_server_class(ns3::FabricGraph& fabric, const NetworkConfig& config);

// The option `name` as given, else `fallback`.
uint32_t option_or(const NetworkConfig& config, const std::string& name, uint32_t fallback);

// The endpoints a default-sized topology must have: one per rank, and every placed endpoint.
uint32_t endpoints_needed(const NetworkConfig& config, uint32_t ranks);

// The endpoint rank r sits on.
uint32_t endpoint_of(const NetworkConfig& config, uint32_t rank);

// A shape of `endpoints` endpoints, with the problem of the placement if it has one (a rank
// beyond them, an endpoint taken twice, a length other than the ranks), and otherwise the
// most links `hops(a, b)` between the endpoints of any two ranks. `group`: the endpoints under
// one first-tier switch (TopologyShape::group).
TopologyShape placed_shape(const NetworkConfig& config, uint32_t ranks, uint32_t endpoints,
                           const std::string& sizes,
                           const std::function<uint32_t(uint32_t, uint32_t)>& hops, uint32_t group);

}  // namespace uniference
