#include "compute/moe/bsp_exchange.h"

#include "compute/compute_label.h"
#include "compute/moe/flagged_blocks.h"

#include <stdexcept>
#include <string>

namespace uniference {

namespace {

constexpr int64_t kFlagFloats = kFlagBytes / int64_t(sizeof(float));

// Every rank sets one 32-byte flag at every peer once its tokens are written, and checks
// the flags it was sent: the phase a library without data-as-flag needs before anyone may
// read what arrived.
void set_and_check_flags(Comm& comm, const ExchangeSite& site, const char* phase) {
  label_compute(layer_label(site.layer, phase));
  const at::Tensor mine = at::full({comm.size(), kFlagFloats}, site.flag);
  at::Tensor theirs = at::empty_like(mine);
  comm.all_to_all(theirs, mine);
  const at::Tensor wrong = theirs.ne(site.flag).any(1);
  if (wrong.any().item<bool>()) {
    const int64_t peer = wrong.nonzero()[0][0].item<int64_t>();
    throw std::runtime_error("rank " + std::to_string(comm.rank()) + ": the flag from rank " +
                             std::to_string(peer) + " is " +
                             std::to_string(theirs[peer][0].item<float>()) + ", expected " +
                             std::to_string(site.flag));
  }
}

void barrier(Comm& comm, const ExchangeSite& site, const char* phase) {
  label_compute(layer_label(site.layer, phase));
  comm.barrier();
}

// One direction's tokens (`phase` "dispatch" or "combine"): the rows, a barrier, the flags,
// and a barrier before anyone reads them.
at::Tensor exchange_rows(Comm& comm, const at::Tensor& rows, const std::vector<int64_t>& out_splits,
                         const std::vector<int64_t>& in_splits, const ExchangeSite& site,
                         const std::string& phase) {
  label_compute(layer_label(site.layer, (phase + ".tokens").c_str()));
  int64_t total = 0;
  for (int64_t n : out_splits) total += n;
  at::Tensor out = at::empty({total, rows.size(1)}, rows.options());
  comm.all_to_all_v(out, rows, out_splits, in_splits);
  const std::string barrier_label = phase + ".barrier";
  barrier(comm, site, barrier_label.c_str());
  set_and_check_flags(comm, site, (phase + ".flags").c_str());
  barrier(comm, site, barrier_label.c_str());
  return out;
}

}  // namespace

at::Tensor BspExchange::dispatch(Comm& comm, const at::Tensor& rows, ExchangeCounts& counts,
                                 const ExchangeSite& site) const {
  label_compute(layer_label(site.layer, "dispatch.counts"));
  const auto cpu_long = at::TensorOptions().dtype(at::kLong);
  const at::Tensor sent = at::tensor(counts.sent, cpu_long).view({counts.ranks, counts.local_experts});
  at::Tensor received = at::empty_like(sent);
  comm.all_to_all(received, sent);
  const at::Tensor flat = received.contiguous();
  counts.received.assign(flat.data_ptr<int64_t>(), flat.data_ptr<int64_t>() + flat.numel());
  barrier(comm, site, "dispatch.barrier");
  return exchange_rows(comm, rows, counts.received_splits(), counts.sent_splits(), site, "dispatch");
}

at::Tensor BspExchange::combine(Comm& comm, const at::Tensor& rows, const ExchangeCounts& counts,
                                const ExchangeSite& site) const {
  return exchange_rows(comm, rows, counts.sent_splits(), counts.received_splits(), site, "combine");
}

}  // namespace uniference
