#include "bridge/topologies/fat_tree_topology.h"

#include "bridge/topologies/fabric.h"

namespace uniference {

namespace {

constexpr uint32_t kMaxK = 64;  // 65536 endpoints: far beyond what one simulation holds

// The smallest even k whose k^3/4 endpoints hold `needed`.
uint32_t default_k(uint32_t needed) {
  uint32_t k = 2;
  while (k < kMaxK && uint64_t(k) * k * k / 4 < needed) k += 2;
  return k;
}

uint32_t chosen_k(const NetworkConfig& config, uint32_t ranks) {
  return option_or(config, "k", default_k(endpoints_needed(config, ranks)));
}

TopologyShape fat_tree_shape(const NetworkConfig& config, uint32_t ranks) {
  const uint32_t k = chosen_k(config, ranks);
  if (k % 2 != 0 || k < 2 || k > kMaxK) {
    TopologyShape shape;
    shape.option = "k";
    shape.problem = "expected an even number of switch ports from 2 to " + std::to_string(kMaxK) +
                    ", found " + std::to_string(k);
    return shape;
  }
  // Endpoints are numbered pod by pod, edge switch by edge switch (k/2 endpoints each).
  const uint32_t per_edge = k / 2, per_pod = per_edge * per_edge;
  auto hops = [=](uint32_t a, uint32_t b) -> uint32_t {
    if (a / per_edge == b / per_edge) return 2;  // up to the edge switch and down
    if (a / per_pod == b / per_pod) return 4;    // through an aggregation switch
    return 6;                                    // through a core switch
  };
  return placed_shape(config, ranks, k * k * k / 4, "k " + std::to_string(k), hops, per_edge);
}

std::vector<ns3::Ptr<ns3::MessageTransport>> build_fat_tree(const NetworkConfig& config,
                                                            uint32_t ranks) {
  return build_fabric(config, ranks,
                      [&](ns3::FabricGraph& fabric) { fabric.FatTree(chosen_k(config, ranks)); });
}

}  // namespace

Topology fat_tree_topology() {
  Topology t;
  t.name = "fat-tree";
  t.description =
      "k-ary fat-tree (Al-Fares et al.): k pods of k/2 edge and k/2 aggregation switches, "
      "(k/2)^2 core switches, k^3/4 endpoints, full bisection: the InfiniBand-like fabric for "
      "rdma, Ethernet switches with ECMP and one IP subnet for tcp";
  t.transports = {"rdma", "tcp"};
  t.link_models = {"ib", "ethernet"};
  t.cut_on = {"rdma", "tcp"};
  t.build = build_fat_tree;
  t.options = {{"k", "switch ports, even; default: the smallest k whose k^3/4 endpoints hold "
                     "the ranks and every placed endpoint"}};
  t.shape = fat_tree_shape;
  return t;
}

}  // namespace uniference
