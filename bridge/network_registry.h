// Everything about the network a scenario picks by name: topologies, transports, link
// models and TCP congestion controls. Scenario checking, --help and the generated docs
// read these lists; a new member is one entry (and, for a topology, one builder file).
#pragma once

#include "bridge/network_config.h"
#include "compute/registry.h"

#include <ns3/message-transport.h>
#include <ns3/ptr.h>
#include <ns3/type-id.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace uniference {

struct Topology {
  std::string name;
  std::string description;
  std::vector<std::string> transports;   // the transports it can carry
  std::vector<std::string> link_models;  // the link models it can be built from
  // Builds the nodes, links and transports of `ranks` endpoints; entry r is rank r's.
  std::function<std::vector<ns3::Ptr<ns3::MessageTransport>>(const NetworkConfig&, uint32_t)>
      build;
};

struct TransportKind {
  std::string name;
  std::string description;
};

struct LinkModel {
  std::string name;
  std::string description;
};

struct TcpVariant {
  std::string name;
  std::string description;
  ns3::TypeId (*type_id)();
};

const NamedRegistry<Topology>& topologies();
const NamedRegistry<TransportKind>& transport_kinds();
const NamedRegistry<LinkModel>& link_models();
const NamedRegistry<TcpVariant>& tcp_variants();

// "" when the topology can be built with this transport and link model, else why not.
std::string check_network_combination(const NetworkConfig& config);

}  // namespace uniference
