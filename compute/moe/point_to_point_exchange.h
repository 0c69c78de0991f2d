// Dispatch schemes "decomposed" and "hierarchical": no collective and no barrier. Counts go
// to each peer as a small message (a receiver must know how many rows to expect before it
// can place them: the one true dependency), tokens follow as data-as-flag blocks
// (flagged_blocks.h), and each receiver checks every block's flag as it unpacks.
#pragma once

#include "compute/moe/expert_exchange.h"

namespace uniference {

class PointToPointExchange final : public TokenExchange {
 public:
  // hop_ordered: send to two-hop peers first, then one-hop ones (hierarchical); otherwise to
  // peers rank + 1, rank + 2, ... (a shift schedule, so no peer is everyone's first).
  explicit PointToPointExchange(bool hop_ordered) : hop_ordered_(hop_ordered) {}

  at::Tensor dispatch(Comm& comm, const at::Tensor& rows, ExchangeCounts& counts,
                      const ExchangeSite& site) const override;
  at::Tensor combine(Comm& comm, const at::Tensor& rows, const ExchangeCounts& counts,
                     const ExchangeSite& site) const override;

 private:
  // The other ranks, in the order this rank sends to them.
  std::vector<int> peer_order(const Comm& comm, const ExchangeSite& site) const;
  // Sends rows (split by `out_splits` over peers) and receives `in_splits` rows from each,
  // as flagged blocks; returns the received rows in source order.
  at::Tensor exchange(Comm& comm, const at::Tensor& rows, const std::vector<int64_t>& out_splits,
                      const std::vector<int64_t>& in_splits, const ExchangeSite& site,
                      int tag) const;

  bool hop_ordered_;
};

}  // namespace uniference
