// The data of one simulated collective call: each member's tensors, which the ns-3 schedule's
// messages read and write (ns3::CollectiveData), so a member's result is what the algorithm's
// own messages and partial sums computed.
#pragma once

#include "compute/comm.h"

#include <ATen/ATen.h>
#include <ns3/collective-data.h>

#include <vector>

namespace uniference {

class TensorCollectiveData : public ns3::CollectiveData {
 public:
  TensorCollectiveData(int members, ReduceOp reduce);

  // A member's buffers, before it enters: `input` (may be undefined) and `output`, written in
  // place (may be undefined where the member receives nothing).
  void attach(int member, const at::Tensor& input, const at::Tensor& output);
  // The member is complete: its output holds the result; the data lets go of its tensors.
  void detach(int member);

  void Prepare(uint32_t participant, uint64_t scratchCount) override;
  std::unique_ptr<ns3::CollectivePayload> Capture(uint32_t participant,
                                                  const ns3::CollectiveProgram::Region& region) override;
  void Deliver(uint32_t participant, const ns3::CollectiveProgram::Region& into,
               const ns3::CollectivePayload& payload, ns3::CollectiveProgram::Action action) override;
  void Local(uint32_t participant, const ns3::CollectiveProgram::Region& into,
             const ns3::CollectiveProgram::Region& from, ns3::CollectiveProgram::Action action) override;

 private:
  struct Member {
    at::Tensor input;    // flat
    at::Tensor output;   // flat and contiguous; a copy when the caller's is not
    at::Tensor caller;   // the caller's output, when `output` is a copy of it
    at::Tensor scratch;  // flat, of the output's type
  };
  at::Tensor locate(uint32_t participant, const ns3::CollectiveProgram::Region& region);
  void write(at::Tensor into, const at::Tensor& from, ns3::CollectiveProgram::Action action) const;

  ReduceOp reduce_;
  std::vector<Member> members_;
};

}  // namespace uniference
