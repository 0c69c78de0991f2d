#include "bridge/collective_presets.h"

#include "bridge/collective_ops.h"

#include <ns3/collective-registry.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace uniference {

namespace {

using Attributes = std::vector<std::pair<std::string, std::string>>;

CollectiveChoice with(std::string algorithm, Attributes attributes = {}) {
  return CollectiveChoice{std::move(algorithm), std::move(attributes)};
}

Attributes plus(Attributes a, const Attributes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// ---- gloo: PyTorch 1.13's ProcessGroupGloo over Gloo's TCP pairs.
// Every message: a 48-byte preamble plus the sender's 48-byte send-ready notice, after the
// receiver's 48-byte recv-ready notice has arrived (gloo/transport/tcp/pair.cc).
const Attributes kGlooWire = {{"MessageOverhead", "96"}, {"ReadyBytes", "48"}};

// `receive_first`: all-to-all, and all-gather on a pair, as GlooComm runs them (every receive
// posted before any send) instead of Gloo's own schedules (a pair's send before its receive).
CollectiveChoice gloo_choice(OpType op, bool receive_first) {
  switch (op) {
    case OpType::kAllReduce:  // gloo::allreduce's ring (gloo/allreduce.cc)
    case OpType::kBroadcast:  // gloo::broadcast's binomial tree (gloo/broadcast.cc)
      return with("gloo", kGlooWire);
    case OpType::kAllGather:  // gloo::allgather's half-block ring (gloo/allgather.cc)
    case OpType::kAllToAll:   // gloo::alltoall (gloo/alltoall.cc)
      return with("gloo", receive_first ? plus(kGlooWire, {{"ReceiveFirst", "true"}}) : kGlooWire);
    case OpType::kGather:    // gloo/gather.cc
    case OpType::kScatter:   // gloo/scatter.cc
      return with("direct", kGlooWire);
    case OpType::kReduce:  // gloo/reduce.cc rings segments, then sends chunks to the root;
                           // modelled by the direct exchange that ends it
      return with("direct", kGlooWire);
    case OpType::kReduceScatter:  // not in Gloo's 1.13 process group; a ring, as NCCL's
      return with("ring", kGlooWire);
    case OpType::kBarrier:  // gloo/barrier.cc
      return with("dissemination", kGlooWire);
    default:
      return with(collective_op(op).default_algorithm);
  }
}

CollectiveChoice choose_gloo(OpType op, uint64_t, int, const LinkFacts&) {
  return gloo_choice(op, false);
}

CollectiveChoice choose_gloo_receive_first(OpType op, uint64_t, int, const LinkFacts&) {
  return gloo_choice(op, true);
}

// ---- nccl: NCCL 2.28's choices over sockets, one GPU per node.
// NCCL times every (algorithm, protocol) it may run as latency + bytes / bandwidth and runs the
// cheapest (src/graph/tuning.cc: ncclTopoTuneModel, ncclTopoGetAlgoTime; the constants and
// rules in docs/collectives-backends.md 2.3). Protocols: Simple and LL. LL128 is left out: NCCL
// enables it over a network only where the NIC sits on the GPU's PCIe switch, which a preset
// cannot know. CPU vendor Intel (llMaxBw), GPU Hopper (the ring's Simple latency x 1.4 across
// nodes, perChMaxTreeBw 36 GB/s).
const Attributes kNcclWire = {{"MessageOverhead", "4"}};  // the socket transport's size word

std::string nccl_channels(uint64_t bytes) {
  // Channels drop while S < channels x 512 threads x 64 bytes (enqueue.cc: topoGetAlgoInfo);
  // one NIC per node gives two (graph/connect.cc).
  return std::to_string(std::clamp<uint64_t>(bytes / (32 << 10), 1, 2));
}

enum class NcclProtocol { kLL, kSimple };
enum class NcclAlgorithm { kRing, kTree };

// treeCorrectionFactor[protocol][log2(bytes / 64)], 64 B to 256 MiB (tuning.cc).
double tree_correction(NcclProtocol protocol, uint64_t bytes) {
  static const double kLL[] = {1, 1, 1, 1, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1, 1, 1, 1};
  static const double kSimple[] = {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9};
  int index = 0;
  while (index < 22 && (uint64_t(64) << (index + 1)) <= bytes) ++index;
  return protocol == NcclProtocol::kLL ? kLL[index] : kSimple[index];
}

// NCCL's predicted time (us) of `op` on n ranks, one per node, by `algorithm` and `protocol`;
// infinity where NCCL does not offer the pair.
double nccl_predicted_us(OpType op, NcclAlgorithm algorithm, NcclProtocol protocol, uint64_t bytes,
                         int n, const LinkFacts& link) {
  const bool ll = protocol == NcclProtocol::kLL;
  const bool all_reduce = op == OpType::kAllReduce;
  if (algorithm == NcclAlgorithm::kTree && !all_reduce) return std::numeric_limits<double>::infinity();
  const double bus_bw = link.rate_bps / 8 / 1e9;           // GB/s: both channels share the NIC
  const double ll_max_bw = n > 2 ? 20.4 : 39.0;            // llMaxBws, Intel, 2 / more nodes
  const double net_latency = ll ? 5.0 : 14.0;              // hw NET, Tree's row (ppn = 1)
  double latency = 0;
  double bw = 0;
  if (algorithm == NcclAlgorithm::kTree) {
    const double depth = std::floor(std::log2(std::max(n, 2)));
    latency = (ll ? 6.8 : 8.4) + 2 * depth * net_latency;
    bw = ll ? std::min(bus_bw / 3.8, ll_max_bw) : std::min(0.92 * bus_bw, 2 * 36.0);
    bw *= tree_correction(protocol, bytes) * 0.5;  // an all-reduce tree moves every byte twice
  } else if (op == OpType::kBroadcast || op == OpType::kReduce) {
    latency = ll ? 9.3 : 22.4;
    bw = ll ? std::min(0.5 * bus_bw, ll_max_bw) : bus_bw;
  } else {
    const double steps = all_reduce ? 2.0 * (n - 1) : n - 1.0;
    latency = (ll ? 6.6 : 8.4) + steps * net_latency;
    if (!ll && all_reduce && double(bytes) / (2 * n) >= 64) latency *= 1.4;
    bw = (ll ? std::min(0.5 * bus_bw, ll_max_bw) : bus_bw) * n / steps;
  }
  return latency + double(bytes) / (1000 * bw);
}

CollectiveChoice nccl_choice(NcclAlgorithm algorithm, NcclProtocol protocol, OpType op, uint64_t bytes) {
  // LL: 32 KiB of data per 64 KiB step, a flag with every 8 bytes. Simple: rings in 1 MiB slices
  // (512 KiB chunks for broadcast and reduce), trees in 512 KiB chunks.
  const bool chain = op == OpType::kBroadcast || op == OpType::kReduce;
  const uint64_t chunk = protocol == NcclProtocol::kLL                            ? 32 << 10
                         : algorithm == NcclAlgorithm::kTree || chain ? 512 << 10
                                                                      : 1 << 20;
  Attributes attributes = {{"ChunkBytes", std::to_string(chunk)}};
  if (algorithm == NcclAlgorithm::kRing && !chain) attributes.push_back({"Channels", nccl_channels(bytes)});
  if (protocol == NcclProtocol::kLL) attributes.push_back({"DataWireFactor", "2"});
  return with(algorithm == NcclAlgorithm::kTree ? "tree" : "ring", plus(attributes, kNcclWire));
}

CollectiveChoice choose_nccl(OpType op, uint64_t bytes, int n, const LinkFacts& link) {
  switch (op) {
    case OpType::kAllReduce:
    case OpType::kAllGather:
    case OpType::kReduceScatter:
    case OpType::kBroadcast:
    case OpType::kReduce: {  // broadcast and reduce: chains from (to) the root
      std::pair<NcclAlgorithm, NcclProtocol> best{NcclAlgorithm::kRing, NcclProtocol::kSimple};
      double best_us = std::numeric_limits<double>::infinity();
      for (NcclAlgorithm algorithm : {NcclAlgorithm::kRing, NcclAlgorithm::kTree}) {
        for (NcclProtocol protocol : {NcclProtocol::kLL, NcclProtocol::kSimple}) {
          const double us = nccl_predicted_us(op, algorithm, protocol, bytes, n, link);
          if (us < best_us) best_us = us, best = {algorithm, protocol};
        }
      }
      return nccl_choice(best.first, best.second, op, bytes);
    }
    case OpType::kAllToAll:
    case OpType::kGather:
    case OpType::kScatter:  // grouped point-to-point: every exchange at once
      return with("direct", kNcclWire);
    case OpType::kBarrier:  // PyTorch's NCCL barrier is a one-element all-reduce
      return with("dissemination", kNcclWire);
    default:
      return with(collective_op(op).default_algorithm);
  }
}

// ---- auto: the cheapest algorithm by modeled_seconds.
const std::map<OpType, std::vector<std::string>>& auto_candidates() {
  static const std::map<OpType, std::vector<std::string>> candidates = {
      {OpType::kAllReduce, {"ring", "tree", "halving_doubling", "direct"}},
      {OpType::kAllGather, {"ring", "direct"}},
      {OpType::kReduceScatter, {"ring", "direct"}},
      {OpType::kBroadcast, {"ring", "tree", "direct"}},
      {OpType::kReduce, {"ring", "tree", "direct"}},
      {OpType::kAllToAll, {"direct", "pairwise"}},
  };
  return candidates;
}

CollectiveChoice choose_auto(OpType op, uint64_t bytes, int n, const LinkFacts& link) {
  auto it = auto_candidates().find(op);
  if (it == auto_candidates().end()) return with(collective_op(op).default_algorithm);
  std::string best = collective_op(op).default_algorithm;
  double best_s = std::numeric_limits<double>::infinity();
  for (const std::string& algorithm : it->second) {
    const double s = modeled_seconds(op, algorithm, bytes, n, link);
    if (s >= 0 && s < best_s) {
      best_s = s;
      best = algorithm;
    }
  }
  return with(best);
}

}  // namespace

double modeled_seconds(OpType op, const std::string& algorithm, uint64_t bytes, int n,
                       const LinkFacts& link) {
  // alpha: a message crosses `hops` links (a star: two, through the hub): one propagation
  // each, and per switch its latency plus, store-and-forward, a whole frame or, cut-through,
  // only the header; beta: a byte's time on a link, with the headers of every packet.
  const double frame = link.mtu * 8 / link.rate_bps;
  const double header = link.header_bytes * 8 / link.rate_bps;
  const double switches = link.hops - 1.0;
  const double alpha = link.hops * link.delay_s + frame +
                       switches * ((link.cut_through ? header : frame) + link.switch_s);
  const double beta = 8 / link.rate_bps * link.mtu / (link.mtu - double(link.header_bytes));
  if (n < 2) return 0;
  // Each algorithm carries its own model beside its schedule (ns3::CollectiveRegistry).
  return ns3::CollectiveRegistry::GetAlphaBetaSeconds(op_name(op), algorithm, bytes,
                                                      static_cast<uint32_t>(n),
                                                      ns3::AlphaBeta{alpha, beta});
}

const NamedRegistry<CollectivePreset>& collective_presets() {
  static const NamedRegistry<CollectivePreset> presets(
      "collective preset",
      {
          {"gloo", "PyTorch 1.13's Gloo process group as torch.distributed runs it: Gloo's ring "
                   "all-reduce, half-block ring all-gather (on two ranks too), binomial broadcast "
                   "and all-to-all, whose sends go before their receives, so a pair's two "
                   "directions may run one after the other; the rendezvous and headers of every "
                   "message",
           choose_gloo},
          {"gloo-receive-first",
           "`gloo` as this project's deployment runs it by default (uniference-deploy "
           "--exchanges receive-first): all-to-all, and all-gather on two ranks, post every "
           "receive before any send, so both directions of every pair move at once",
           choose_gloo_receive_first},
          {"nccl", "what NCCL 2.28 chooses over sockets, one GPU per node: the algorithm (ring, "
                   "or double binary tree for all-reduce) and protocol (LL, or Simple) its cost "
                   "model predicts fastest; Simple rings in 1 MiB slices on up to two channels, "
                   "LL in 32 KiB steps with a flag beside every 8 bytes; chains for broadcast and "
                   "reduce; grouped point-to-point for all-to-all",
           choose_nccl},
          {"auto", "the algorithm an alpha-beta model of the links predicts fastest for the "
                   "operation, size and group (docs/collectives.md gives the model)",
           choose_auto},
      });
  return presets;
}

CollectiveChoice CollectiveSelection::choose(OpType op, uint64_t bytes, int group_size) const {
  auto it = explicit_choices.find(op);
  if (it != explicit_choices.end()) return it->second;
  if (!preset.empty()) return collective_presets().at(preset).choose(op, bytes, group_size, link);
  return CollectiveChoice{collective_op(op).default_algorithm, {}};
}

}  // namespace uniference
