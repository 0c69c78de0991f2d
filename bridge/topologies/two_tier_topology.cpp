#include "bridge/topologies/two_tier_topology.h"

#include "bridge/topologies/fabric.h"

namespace uniference {

namespace {

constexpr uint32_t kDefaultGpusPerServer = 8;
constexpr uint32_t kDefaultTierSwitches = 2;

struct TwoTierSize {
  uint32_t servers, gpus, tier_switches;
};

TwoTierSize chosen_size(const NetworkConfig& config, uint32_t ranks) {
  TwoTierSize size;
  size.gpus = option_or(config, "gpus_per_server", kDefaultGpusPerServer);
  const uint32_t gpus = size.gpus == 0 ? 1 : size.gpus;
  size.servers = option_or(config, "servers", (endpoints_needed(config, ranks) + gpus - 1) / gpus);
  size.tier_switches = option_or(config, "tier_switches", kDefaultTierSwitches);
  return size;
}

TopologyShape two_tier_shape(const NetworkConfig& config, uint32_t ranks) {
  const TwoTierSize size = chosen_size(config, ranks);
  const uint32_t gpus = size.gpus;
  // Inside a server: GPU, server switch, GPU. Between servers: GPU, server switch, a
  // second-tier switch, server switch, GPU.
  auto hops = [=](uint32_t a, uint32_t b) -> uint32_t { return a / gpus == b / gpus ? 2 : 4; };
  return placed_shape(config, ranks, size.servers * gpus,
                      std::to_string(size.servers) + " servers of " + std::to_string(gpus) +
                          " GPUs, " + std::to_string(size.tier_switches) + " second-tier switches",
                      hops, gpus);
}

std::vector<ns3::Ptr<ns3::MessageTransport>> build_two_tier(const NetworkConfig& config,
                                                            uint32_t ranks) {
  const TwoTierSize size = chosen_size(config, ranks);
  return build_fabric(config, ranks, [&](ns3::FabricGraph& fabric) {
    fabric.TwoTier(size.servers, size.gpus, size.tier_switches, add_intra_server_class(fabric, config));
  });
}

}  // namespace

Topology two_tier_topology() {
  Topology t;
  t.name = "two-tier";
  t.description =
      "superpod: each server's GPUs on one NVLink-like switch, every server switch cabled to "
      "every second-tier switch";
  t.transports = {"rdma"};
  t.link_models = {"ib"};
  t.cut_on = {"rdma"};
  t.build = build_two_tier;
  t.has_intra_server_links = true;
  t.options = {
      {"gpus_per_server", "GPUs (endpoints) per server; default 8"},
      {"servers", "servers; default: enough for the ranks and every placed endpoint"},
      {"tier_switches", "second-tier switches; default 2"}};
  t.shape = two_tier_shape;
  return t;
}

}  // namespace uniference
