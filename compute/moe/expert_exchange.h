// Expert parallelism's two exchanges: dispatch sends every routed copy of a token to the rank
// holding its expert, combine sends the experts' outputs back. How a dispatch is carried out
// (phases, barriers, flags, the order of messages) is a dispatch scheme, registered by the
// name scenarios give in /parallel/dispatch; every scheme moves the same token rows and gives
// the same result.
#pragma once

#include <ATen/ATen.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "compute/comm.h"
#include "compute/registry.h"

namespace uniference {

// Where an expert lives: its rank and its index among that rank's experts.
struct ExpertSlot {
  int rank = 0;
  int64_t local = 0;
};

// The rows one rank sends and receives in one dispatch, by peer and by the peer's (or this
// rank's) local expert. Rows travel ordered by peer, then local expert, then token.
struct ExchangeCounts {
  int ranks = 1;
  int64_t local_experts = 1;
  std::vector<int64_t> sent;      // at p * local_experts + l: rows for local expert l of rank p
  std::vector<int64_t> received;  // at p * local_experts + l: rows from rank p for expert l here

  int64_t sent_to(int peer) const;
  int64_t received_from(int peer) const;
  std::vector<int64_t> sent_splits() const;      // rows per peer, as all_to_all_v takes them
  std::vector<int64_t> received_splits() const;
};

// What a scheme knows of one exchange.
struct ExchangeSite {
  int64_t layer = 0;         // for labels ("layer3.dispatch.tokens")
  int ranks_per_server = 8;  // ranks r and p share a server when r / it == p / it
  float flag = 1;            // this exchange's flag value, the same on every rank
};

class TokenExchange {
 public:
  virtual ~TokenExchange() = default;
  // rows [sum of sent, dim], ordered by peer then local expert. Fills counts.received from
  // the count messages (real tensors even in shape-only runs, whose routing is drawn), and
  // returns the rows this rank's experts receive, [sum of received, dim], ordered
  // by source rank then local expert.
  virtual at::Tensor dispatch(Comm& comm, const at::Tensor& rows, ExchangeCounts& counts,
                              const ExchangeSite& site) const = 0;
  // The way back: rows [sum of received, dim] in dispatch's received order -> [sum of sent,
  // dim] in the order this rank sent them.
  virtual at::Tensor combine(Comm& comm, const at::Tensor& rows, const ExchangeCounts& counts,
                             const ExchangeSite& site) const = 0;
};

struct DispatchScheme {
  std::string name;
  std::string description;
  // The rank and local index of `expert` among n_experts spread over `ranks`.
  std::function<ExpertSlot(int64_t expert, int64_t n_experts, int ranks)> place;
  std::shared_ptr<const TokenExchange> exchange;
};

// "bsp" (the default), "decomposed", "hierarchical".
const NamedRegistry<DispatchScheme>& dispatch_schemes();

// Links between two ranks' devices: 0 for the same rank, 1 within a server, 2 across.
int hop_distance(int a, int b, int ranks_per_server);

// Rows [rows, dim] holding x's rows at `index` (x [n, dim]); on meta x, the shape only, its
// copy charged as if gathered.
at::Tensor gather_rows(const at::Tensor& x, const std::vector<int64_t>& index);
// out with out[index[i]] = rows[i]; `count` rows; meta in, meta out.
at::Tensor scatter_rows(const at::Tensor& rows, const std::vector<int64_t>& index, int64_t count);

}  // namespace uniference
