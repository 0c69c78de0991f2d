#include "compute/moe/point_to_point_exchange.h"

#include "compute/compute_label.h"
#include "compute/moe/flagged_blocks.h"

#include <algorithm>

namespace uniference {

namespace {

// Tags keep the three kinds of message of one pair apart.
constexpr int kCountsTag = 7101;
constexpr int kDispatchTag = 7102;
constexpr int kCombineTag = 7103;

std::vector<int64_t> offsets_of(const std::vector<int64_t>& splits) {
  std::vector<int64_t> offsets(splits.size() + 1, 0);
  for (size_t p = 0; p < splits.size(); ++p) offsets[p + 1] = offsets[p] + splits[p];
  return offsets;
}

}  // namespace

std::vector<int> PointToPointExchange::peer_order(const Comm& comm,
                                                  const ExchangeSite& site) const {
  const int n = comm.size(), me = comm.rank();
  std::vector<int> peers;
  for (int i = 1; i < n; ++i) peers.push_back((me + i) % n);
  if (hop_ordered_) {
    std::stable_sort(peers.begin(), peers.end(), [&](int a, int b) {
      return hop_distance(me, a, site.ranks_per_server) > hop_distance(me, b, site.ranks_per_server);
    });
  }
  return peers;
}

at::Tensor PointToPointExchange::exchange(Comm& comm, const at::Tensor& rows,
                                          const std::vector<int64_t>& out_splits,
                                          const std::vector<int64_t>& in_splits,
                                          const ExchangeSite& site, int tag) const {
  const int me = comm.rank();
  const int64_t dim = rows.size(1);
  const std::vector<int64_t> out_at = offsets_of(out_splits);
  const std::vector<int> peers = peer_order(comm, site);
  std::vector<at::Tensor> inbound(size_t(comm.size())), outbound;
  outbound.reserve(peers.size());  // a sent tensor stays where it is until its send completes
  std::vector<WorkPtr> receives, sends;
  // Receives first: a buffer is ready before its first block can arrive.
  for (int p : peers) {
    if (in_splits[size_t(p)] == 0) continue;
    const int64_t bytes = in_splits[size_t(p)] * dim * int64_t(sizeof(float));
    inbound[size_t(p)] = at::empty({flagged_blocks(bytes), kFlaggedBlockBytes / 4}, rows.options());
    receives.push_back(comm.irecv(inbound[size_t(p)], p, tag));
  }
  for (int p : peers) {
    if (out_splits[size_t(p)] == 0) continue;
    outbound.push_back(pack_flagged(rows.narrow(0, out_at[size_t(p)], out_splits[size_t(p)]), site.flag));
    sends.push_back(comm.isend(outbound.back(), p, tag));
  }
  for (const WorkPtr& work : receives) work->wait();
  std::vector<at::Tensor> parts;
  for (int p = 0; p < comm.size(); ++p) {
    if (p == me) {
      parts.push_back(rows.narrow(0, out_at[size_t(me)], out_splits[size_t(me)]));
    } else if (in_splits[size_t(p)] > 0) {
      parts.push_back(unpack_flagged(inbound[size_t(p)], in_splits[size_t(p)], dim, site.flag,
                                     "rank " + std::to_string(p)));
    }
  }
  for (const WorkPtr& work : sends) work->wait();
  return parts.empty() ? at::empty({0, dim}, rows.options()) : at::cat(parts);
}

at::Tensor PointToPointExchange::dispatch(Comm& comm, const at::Tensor& rows,
                                          ExchangeCounts& counts, const ExchangeSite& site) const {
  label_compute(layer_label(site.layer, "dispatch.counts"));
  const int me = comm.rank();
  const int64_t local = counts.local_experts;
  const auto cpu_long = at::TensorOptions().dtype(at::kLong);
  const at::Tensor sent = at::tensor(counts.sent, cpu_long).view({counts.ranks, local});
  at::Tensor received = at::empty_like(sent);
  received[me].copy_(sent[me]);
  const std::vector<int> peers = peer_order(comm, site);
  std::vector<WorkPtr> works;
  std::vector<at::Tensor> rows_in(size_t(counts.ranks));
  for (int p : peers) {
    rows_in[size_t(p)] = received[p];
    works.push_back(comm.irecv(rows_in[size_t(p)], p, kCountsTag));
  }
  std::vector<at::Tensor> rows_out;
  rows_out.reserve(peers.size());
  for (int p : peers) {
    rows_out.push_back(sent[p].contiguous());
    works.push_back(comm.isend(rows_out.back(), p, kCountsTag));
  }
  for (const WorkPtr& work : works) work->wait();
  counts.received.assign(received.data_ptr<int64_t>(), received.data_ptr<int64_t>() + received.numel());

  label_compute(layer_label(site.layer, "dispatch.tokens"));
  return exchange(comm, rows, counts.sent_splits(), counts.received_splits(), site, kDispatchTag);
}

at::Tensor PointToPointExchange::combine(Comm& comm, const at::Tensor& rows,
                                         const ExchangeCounts& counts,
                                         const ExchangeSite& site) const {
  label_compute(layer_label(site.layer, "combine.tokens"));
  return exchange(comm, rows, counts.received_splits(), counts.sent_splits(), site, kCombineTag);
}

}  // namespace uniference
