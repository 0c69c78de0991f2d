// What runs each collective call: the algorithm (an ns-3 CollectiveHelper name) and its
// Attributes. A scenario names them per operation, or names a preset that decides for every
// operation and size: `gloo` and `nccl` choose what those libraries run (their schedules,
// handshakes, chunking and channels; docs/collectives-backends.md gives the sources), `auto`
// chooses the algorithm an alpha-beta model of the links predicts fastest.
#pragma once

#include "compute/comm.h"
#include "compute/registry.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace uniference {

// The algorithm and Attributes that run one operation.
struct CollectiveChoice {
  std::string algorithm;  // registered with ns3::CollectiveHelper for the operation
  std::vector<std::pair<std::string, std::string>> attributes;  // Attribute name, value text
};
using CollectiveChoices = std::map<OpType, CollectiveChoice>;

// What a preset may know of the network: every rank's link, and the path between two ranks.
// The defaults are a store-and-forward star of TCP/IP links.
struct LinkFacts {
  double rate_bps = 1e9;
  double delay_s = 50e-6;
  uint32_t mtu = 1500;          // bytes of a full packet on the link, headers included
  uint32_t header_bytes = 40;   // of them, headers: TCP/IP 40, InfiniBand 26
  uint32_t hops = 2;            // links between two ranks, on the longest path
  bool cut_through = false;     // switches forward once the header is in (InfiniBand)
  double switch_s = 0;          // forwarding latency of one switch
};

struct CollectivePreset {
  std::string name;
  std::string description;
  // The choice for one call of `op` moving nccl-tests' S = `bytes` among `group_size` ranks.
  CollectiveChoice (*choose)(OpType op, uint64_t bytes, int group_size, const LinkFacts& link);
};

const NamedRegistry<CollectivePreset>& collective_presets();

// How a run picks: explicit per-operation choices first, then the preset (if any), then the
// operation's default algorithm.
struct CollectiveSelection {
  CollectiveChoices explicit_choices;
  std::string preset;  // empty: none
  LinkFacts link;

  CollectiveChoice choose(OpType op, uint64_t bytes, int group_size) const;
};

// The alpha-beta model `auto` uses, in seconds, for an algorithm of an operation (nullopt-like
// negative value when the model does not cover it). Exposed for tests and docs.
double modeled_seconds(OpType op, const std::string& algorithm, uint64_t bytes, int group_size,
                       const LinkFacts& link);

}  // namespace uniference
