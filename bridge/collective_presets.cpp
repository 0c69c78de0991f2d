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

// ---- nccl: NCCL 2.28's choices with the Simple protocol over sockets.
// Ring and tree latencies (us) and bandwidth factors from src/graph/tuning.cc: base latency
// 8.4 for both, network hardware latency 14 per step; tree's all-reduce algorithm bandwidth is
// half the bus bandwidth, the ring's n / (2 (n - 1)) of it.
const Attributes kNcclWire = {{"MessageOverhead", "4"}};  // the socket transport's size word

std::string nccl_channels(uint64_t bytes) {
  // Channels drop while S < channels x 512 threads x 64 bytes (enqueue.cc: topoGetAlgoInfo);
  // one NIC per node gives two (graph/connect.cc).
  return std::to_string(std::clamp<uint64_t>(bytes / (32 << 10), 1, 2));
}

CollectiveChoice choose_nccl(OpType op, uint64_t bytes, int n, const LinkFacts& link) {
  const Attributes ring = {{"ChunkBytes", std::to_string(1 << 20)}, {"Channels", nccl_channels(bytes)}};
  switch (op) {
    case OpType::kAllReduce: {
      const double bw = link.rate_bps / 8 / 1e6;  // bytes per us
      const double steps = n - 1;
      const double depth = std::floor(std::log2(std::max(n, 2)));
      const double ring_us = 8.4 + 28 * steps + double(bytes) / (bw * n / (2 * steps));
      const double tree_us = 8.4 + 28 * depth + double(bytes) / (bw * 0.5);
      if (tree_us < ring_us) {
        return with("tree", plus({{"ChunkBytes", std::to_string(512 << 10)}}, kNcclWire));
      }
      return with("ring", plus(ring, kNcclWire));
    }
    case OpType::kAllGather:
    case OpType::kReduceScatter:
      return with("ring", plus(ring, kNcclWire));
    case OpType::kBroadcast:
    case OpType::kReduce:  // chains from (to) the root, 512 KiB chunks (collectives.h)
      return with("ring", plus({{"ChunkBytes", std::to_string(512 << 10)}}, kNcclWire));
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
          {"nccl", "what NCCL 2.28 chooses over sockets with the Simple protocol: ring or double "
                   "binary tree all-reduce by its latency/bandwidth model, rings in 1 MiB slices "
                   "on up to two channels, chains for broadcast and reduce, grouped point-to-point "
                   "for all-to-all",
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
