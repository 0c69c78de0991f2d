#include "compute/moe/expert_exchange.h"

#include "compute/moe/bsp_exchange.h"
#include "compute/moe/point_to_point_exchange.h"

#include <numeric>

namespace uniference {

int64_t ExchangeCounts::sent_to(int peer) const {
  const auto first = sent.begin() + peer * local_experts;
  return std::accumulate(first, first + local_experts, int64_t{0});
}

int64_t ExchangeCounts::received_from(int peer) const {
  const auto first = received.begin() + peer * local_experts;
  return std::accumulate(first, first + local_experts, int64_t{0});
}

std::vector<int64_t> ExchangeCounts::sent_splits() const {
  std::vector<int64_t> splits;
  for (int p = 0; p < ranks; ++p) splits.push_back(sent_to(p));
  return splits;
}

std::vector<int64_t> ExchangeCounts::received_splits() const {
  std::vector<int64_t> splits;
  for (int p = 0; p < ranks; ++p) splits.push_back(received_from(p));
  return splits;
}

int hop_distance(int a, int b, int ranks_per_server) {
  if (a == b) return 0;
  return a / ranks_per_server == b / ranks_per_server ? 1 : 2;
}

namespace {

// Expert e on rank e / (n / ranks): each rank holds a block of consecutive experts.
ExpertSlot blocked(int64_t expert, int64_t n_experts, int ranks) {
  const int64_t per_rank = n_experts / ranks;
  return ExpertSlot{int(expert / per_rank), expert % per_rank};
}

// Expert e on rank e mod ranks: the rank x local-expert matrix read column-major (UBEP's
// "logical transposition"), so experts a router picks together (neighbouring ids, as
// group-limited routing does) sit on different servers and every sender's destinations mix
// one-hop and two-hop ranks evenly.
ExpertSlot transposed(int64_t expert, int64_t, int ranks) {
  return ExpertSlot{int(expert % ranks), expert / ranks};
}

}  // namespace

const NamedRegistry<DispatchScheme>& dispatch_schemes() {
  static const NamedRegistry<DispatchScheme> registry(
      "dispatch scheme",
      {
          {"bsp",
           "phases separated by barriers, as a bulk-synchronous library runs them: counts "
           "all-to-all, barrier, tokens all-to-all-v, barrier, flags all-to-all and check, "
           "barrier, then prefix sums and reordering",
           blocked, std::make_shared<BspExchange>()},
          {"decomposed",
           "no barrier: each peer's counts are a point-to-point signal (the one true "
           "dependency), tokens go straight to every peer as 512-byte blocks of 480 bytes of "
           "payload and a 32-byte flag, checked on arrival",
           blocked, std::make_shared<PointToPointExchange>(/*hop_ordered=*/false)},
          {"hierarchical",
           "decomposed, with experts dealt round robin over the ranks (every sender an even "
           "mix of one-hop and two-hop destinations) and each rank sending to its farthest "
           "peers first",
           transposed, std::make_shared<PointToPointExchange>(/*hop_ordered=*/true)},
      });
  return registry;
}

at::Tensor gather_rows(const at::Tensor& x, const std::vector<int64_t>& index) {
  const int64_t rows = int64_t(index.size());
  if (x.is_meta()) {
    at::Tensor out = at::empty({rows, x.size(1)}, x.options());
    // Charged as the copy a gather is: every row read and written once.
    if (rows > 0) out.copy_(x.narrow(0, 0, 1).expand({rows, x.size(1)}));
    return out;
  }
  return x.index_select(0, at::tensor(index, at::TensorOptions().dtype(at::kLong)));
}

at::Tensor scatter_rows(const at::Tensor& rows, const std::vector<int64_t>& index, int64_t count) {
  at::Tensor out = at::empty({count, rows.size(1)}, rows.options());
  if (rows.is_meta()) {
    if (rows.size(0) > 0) out.copy_(rows);
    return out;
  }
  return out.index_copy_(0, at::tensor(index, at::TensorOptions().dtype(at::kLong)), rows);
}

}  // namespace uniference
