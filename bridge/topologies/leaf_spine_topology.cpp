#include "bridge/topologies/leaf_spine_topology.h"

#include "bridge/topologies/fabric.h"

namespace uniference {

namespace {

constexpr uint32_t kDefaultEndpointsPerLeaf = 8;

struct LeafSpineSize {
  uint32_t leaves, spines, per_leaf;
};

LeafSpineSize chosen_size(const NetworkConfig& config, uint32_t ranks) {
  LeafSpineSize size;
  size.per_leaf = option_or(config, "endpoints_per_leaf", kDefaultEndpointsPerLeaf);
  const uint32_t needed = endpoints_needed(config, ranks);
  const uint32_t per_leaf = size.per_leaf == 0 ? 1 : size.per_leaf;
  size.leaves = option_or(config, "leaves", (needed + per_leaf - 1) / per_leaf);
  // As many spines as endpoints per leaf: every leaf has as much capacity up as down.
  size.spines = option_or(config, "spines", size.per_leaf);
  return size;
}

TopologyShape leaf_spine_shape(const NetworkConfig& config, uint32_t ranks) {
  const LeafSpineSize size = chosen_size(config, ranks);
  const uint32_t per_leaf = size.per_leaf;
  auto hops = [=](uint32_t a, uint32_t b) -> uint32_t { return a / per_leaf == b / per_leaf ? 2 : 4; };
  return placed_shape(config, ranks, size.leaves * size.per_leaf,
                      std::to_string(size.leaves) + " leaves of " + std::to_string(per_leaf) +
                          " endpoints, " + std::to_string(size.spines) + " spines",
                      hops, per_leaf);
}

std::vector<ns3::Ptr<ns3::MessageTransport>> build_leaf_spine(const NetworkConfig& config,
                                                              uint32_t ranks) {
  const LeafSpineSize size = chosen_size(config, ranks);
  return build_fabric(config, ranks, [&](ns3::FabricGraph& fabric) {
    fabric.LeafSpine(size.leaves, size.spines, size.per_leaf);
  });
}

}  // namespace

Topology leaf_spine_topology() {
  Topology t;
  t.name = "leaf-spine";
  t.description =
      "endpoints on leaf switches, every leaf cabled to every spine switch: the InfiniBand-like "
      "fabric for rdma, Ethernet switches with ECMP and one IP subnet for tcp";
  t.transports = {"rdma", "tcp"};
  t.link_models = {"ib", "ethernet"};
  t.cut_on = {"rdma", "tcp"};
  t.build = build_leaf_spine;
  t.options = {
      {"endpoints_per_leaf", "endpoints on each leaf; default 8"},
      {"leaves", "leaf switches; default: enough for the ranks and every placed endpoint"},
      {"spines", "spine switches; default: endpoints_per_leaf (as much capacity up as down)"}};
  t.shape = leaf_spine_shape;
  return t;
}

}  // namespace uniference
