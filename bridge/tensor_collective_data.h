// The data of one simulated collective call: each member's tensors, which the ns-3 schedule's
// messages read and write (ns3::CollectiveData), so a member's result is what the algorithm's
// own messages and partial sums computed.
#pragma once

#include "compute/comm.h"

#include <ATen/ATen.h>
#include <ns3/collective-data.h>

#include <functional>
#include <vector>

namespace uniference {

class TensorCollectiveData : public ns3::CollectiveData {
 public:
  // process_of(member): the process of a distributed simulation that runs the member (the
  // values of messages between processes travel beside their packets); null: one process.
  TensorCollectiveData(int members, ReduceOp reduce,
                       std::function<uint32_t(uint32_t member)> process_of = nullptr);

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
  void SendAcross(uint32_t from, uint32_t to, uint64_t channel, uint32_t sequence,
                  std::unique_ptr<ns3::CollectivePayload> payload) override;
  std::unique_ptr<ns3::CollectivePayload> ReceiveAcross(uint32_t from, uint32_t to,
                                                        uint64_t channel, uint32_t sequence) override;

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
  std::function<uint32_t(uint32_t)> process_of_;
};

}  // namespace uniference
