#include "bridge/topologies/rail_optimised_topology.h"

#include "bridge/topologies/fabric.h"

namespace uniference {

namespace {

constexpr uint32_t kDefaultGpusPerServer = 8;  // a DGX / HGX server
constexpr uint32_t kDefaultSpines = 2;

struct RailSize {
  uint32_t servers, gpus, spines;
};

RailSize chosen_size(const NetworkConfig& config, uint32_t ranks) {
  RailSize size;
  size.gpus = option_or(config, "gpus_per_server", kDefaultGpusPerServer);
  const uint32_t gpus = size.gpus == 0 ? 1 : size.gpus;
  size.servers = option_or(config, "servers", (endpoints_needed(config, ranks) + gpus - 1) / gpus);
  size.spines = option_or(config, "spines", kDefaultSpines);
  return size;
}

TopologyShape rail_shape(const NetworkConfig& config, uint32_t ranks) {
  const RailSize size = chosen_size(config, ranks);
  const uint32_t gpus = size.gpus;
  // Endpoints are numbered server by server. Endpoints never forward, so a server's NVLink
  // switch carries only its own GPUs' traffic: another server is reached through the rails,
  // directly on a shared rail, through a spine otherwise.
  auto hops = [=](uint32_t a, uint32_t b) -> uint32_t {
    if (a / gpus == b / gpus || a % gpus == b % gpus) return 2;
    return 4;
  };
  return placed_shape(config, ranks, size.servers * gpus,
                      std::to_string(size.servers) + " servers of " + std::to_string(gpus) +
                          " GPUs, " + std::to_string(size.spines) + " spines",
                      hops, gpus);
}

std::vector<ns3::Ptr<ns3::MessageTransport>> build_rail_optimised(const NetworkConfig& config,
                                                                  uint32_t ranks) {
  const RailSize size = chosen_size(config, ranks);
  return build_fabric(config, ranks, [&](ns3::FabricGraph& fabric) {
    fabric.RailOptimised(size.servers, size.gpus, size.spines, add_intra_server_class(fabric, config));
  });
}

}  // namespace

Topology rail_optimised_topology() {
  Topology t;
  t.name = "rail-optimised";
  t.description =
      "servers of GPUs joined by an NVLink-like switch; GPU g of every server has a NIC on "
      "leaf g (its rail), every leaf cabled to every spine";
  t.transports = {"rdma"};
  t.link_models = {"ib"};
  t.build = build_rail_optimised;
  t.has_intra_server_links = true;
  t.options = {
      {"gpus_per_server", "GPUs (endpoints) per server, also the number of rails; default 8"},
      {"servers", "servers; default: enough for the ranks and every placed endpoint"},
      {"spines", "spine switches above the rail leaves; default 2"}};
  t.shape = rail_shape;
  return t;
}

}  // namespace uniference
