// Everything about the network a scenario picks by name: topologies, transports, link
// models, TCP and RDMA congestion controls. Scenario checking, --help and the generated docs
// read these lists; a new member is one entry (and, for a topology, one builder file).
#pragma once

#include "bridge/network_config.h"
#include "compute/registry.h"

#include <ns3/message-transport.h>
#include <ns3/ptr.h>
#include <ns3/type-id.h>

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace uniference {

// A size a topology reads from NetworkConfig::topology_options (/network/topology_options).
struct TopologyOption {
  std::string name;         // "k"
  std::string description;  // what it is and its default
};

// How big a topology comes out for some number of ranks, or why it cannot be built.
struct TopologyShape {
  uint32_t endpoints = 0;  // endpoints built, at least the ranks
  uint32_t max_hops = 2;   // links on the longest path between two placed ranks
  std::string problem;     // empty when the options and placement fit
  std::string option;      // the option the problem is about, if one
  int placement_rank = -1;  // the rank whose placement the problem is about, if one
  // Endpoints under one first-tier switch (a leaf, an edge switch, a server), numbered
  // consecutively: what a placement "spread" spreads over. 0: all endpoints are alike.
  uint32_t group = 0;
};

struct Topology {
  std::string name;
  std::string description;
  std::vector<std::string> transports;   // the transports it can carry
  std::vector<std::string> link_models;  // the link models it can be built from
  // What it has besides its links, which scenario checking asks rather than naming
  // topologies: a tbf shaper on both ends of every link (/network/link/shaper, tcp only),
  // servers whose GPUs share NVLink-like cables (/network/intra_server_link), and sites
  // joined by a wide-area link (/network/wan, then required).
  bool takes_shaper = false;
  bool has_intra_server_links = false;
  bool has_wide_area_link = false;
  // The transports on which a run can cut it across processes (bridge/distributed.h), at
  // packet level: where its cables between processes carry their packets and give a
  // lookahead. Its partition pins the nodes named in /network/partition.
  std::vector<std::string> cut_on;
  // Builds the nodes, links and transports of `ranks` endpoints; entry r is rank r's.
  std::function<std::vector<ns3::Ptr<ns3::MessageTransport>>(const NetworkConfig&, uint32_t)>
      build;
  // The options it reads; none for a topology whose only size is the number of ranks.
  std::vector<TopologyOption> options;
  // Its size for `ranks` ranks with the config's options and placement. Null for a topology
  // with one endpoint per rank, all alike, where placement means nothing.
  std::function<TopologyShape(const NetworkConfig&, uint32_t)> shape;
};

// A /network/partition entry that the topology cannot follow: a node it has not got or cannot
// pin. Only the builder knows its nodes' names; the processes are the run's to check.
struct PartitionError : std::invalid_argument {
  PartitionError(std::string node, const std::string& what)
      : std::invalid_argument(what), name(std::move(node)) {}
  std::string name;  // the entry's node name
};

struct TransportKind {
  std::string name;
  std::string description;
  std::vector<std::string> link_models;  // the link models it runs over
};

struct LinkModel {
  std::string name;
  std::string description;
};

struct RdmaCongestionControl {
  std::string name;
  std::string description;
  ns3::TypeId (*type_id)();
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
const NamedRegistry<RdmaCongestionControl>& rdma_congestion_controls();

// The names of the topologies that have `capability` (&Topology::takes_shaper, ...), in
// registry order: what an error about a key only some topologies take lists.
std::vector<std::string> topologies_with(bool Topology::*capability);

// "" when the topology can be built with this transport and link model, else why not.
// An empty link model is the topology's default for the transport.
std::string check_network_combination(const NetworkConfig& config);

// The first of the topology's link models that the transport runs over ("" if none): what a
// scenario gets when it names no link model.
std::string default_link_model(const Topology& topology, const std::string& transport);

// The size of the config's topology for `ranks` ranks, with its problem (options that do
// not fit, a placement on endpoints that do not exist or that repeats one) if any.
TopologyShape topology_shape(const NetworkConfig& config, uint32_t ranks);

// The shape of a topology that splits the ranks in two by an option (edge-cloud's "edge",
// lte-cell's "devices"): the first `first` ranks in one group, the rest in the other. A
// split that leaves the second group empty is a problem at the option, and a placement
// other than "packed" one at the placement. `split` says what the option does ("puts the
// first 'edge' ranks at the edge and the rest in the cloud").
TopologyShape split_shape(const NetworkConfig& config, uint32_t ranks, const std::string& option,
                          uint32_t first, const std::string& split, uint32_t max_hops);

// What a collective preset may know of the network of `ranks` ranks: the endpoint link's
// rate, delay, packet and header sizes, and the hops of the longest path between ranks.
LinkFacts link_facts(const NetworkConfig& config, uint32_t ranks);

}  // namespace uniference
