// Dispatch scheme "bsp": every phase a collective of the whole group, with a barrier
// between phases, as a bulk-synchronous expert-parallel library (the CANN EP baseline of
// UBEP's study) runs them.
#pragma once

#include "compute/moe/expert_exchange.h"

namespace uniference {

class BspExchange final : public TokenExchange {
 public:
  at::Tensor dispatch(Comm& comm, const at::Tensor& rows, ExchangeCounts& counts,
                      const ExchangeSite& site) const override;
  at::Tensor combine(Comm& comm, const at::Tensor& rows, const ExchangeCounts& counts,
                     const ExchangeSite& site) const override;
};

}  // namespace uniference
