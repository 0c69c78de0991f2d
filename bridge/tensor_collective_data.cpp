#include "bridge/tensor_collective_data.h"

#include "bridge/distributed.h"
#include "bridge/tensor_bytes.h"

#include <stdexcept>
#include <string>

namespace uniference {

namespace {
class TensorPayload : public ns3::CollectivePayload {
 public:
  explicit TensorPayload(at::Tensor values) : values(std::move(values)) {}
  at::Tensor values;
};

const char* buffer_name(ns3::CollectiveProgram::Buffer buffer) {
  switch (buffer) {
    case ns3::CollectiveProgram::INPUT:
      return "input";
    case ns3::CollectiveProgram::OUTPUT:
      return "output";
    case ns3::CollectiveProgram::SCRATCH:
      return "scratch";
  }
  return "?";
}
}  // namespace

TensorCollectiveData::TensorCollectiveData(int members, ReduceOp reduce,
                                           std::function<uint32_t(uint32_t)> process_of)
    : reduce_(reduce), members_(static_cast<size_t>(members)), process_of_(std::move(process_of)) {}

void TensorCollectiveData::attach(int member, const at::Tensor& input, const at::Tensor& output) {
  Member& m = members_.at(static_cast<size_t>(member));
  if (input.defined()) m.input = input.detach().contiguous().view({-1});
  if (output.defined()) {
    if (output.is_contiguous()) {
      m.output = output.detach().view({-1});
    } else {
      m.caller = output;
      m.output = output.detach().contiguous().view({-1});
    }
  }
}

void TensorCollectiveData::detach(int member) {
  Member& m = members_.at(static_cast<size_t>(member));
  if (m.caller.defined()) m.caller.copy_(m.output.view(m.caller.sizes()));
  m = Member{};
}

void TensorCollectiveData::Prepare(uint32_t participant, uint64_t scratchCount) {
  Member& m = members_.at(participant);
  if (scratchCount == 0) return;
  const at::Tensor& like = m.output.defined() ? m.output : m.input;
  m.scratch = at::empty({static_cast<int64_t>(scratchCount)}, like.options());
}

at::Tensor TensorCollectiveData::locate(uint32_t participant,
                                        const ns3::CollectiveProgram::Region& region) {
  Member& m = members_.at(participant);
  const at::Tensor& buffer = region.buffer == ns3::CollectiveProgram::INPUT    ? m.input
                             : region.buffer == ns3::CollectiveProgram::OUTPUT ? m.output
                                                                               : m.scratch;
  const int64_t size = buffer.defined() ? buffer.numel() : 0;
  if (static_cast<int64_t>(region.offset + region.count) > size) {
    throw std::logic_error("collective schedule: member " + std::to_string(participant) +
                           " touches " + buffer_name(region.buffer) + " elements [" +
                           std::to_string(region.offset) + ", " +
                           std::to_string(region.offset + region.count) + ") of " +
                           std::to_string(size));
  }
  return buffer.narrow(0, static_cast<int64_t>(region.offset), static_cast<int64_t>(region.count));
}

void TensorCollectiveData::write(at::Tensor into, const at::Tensor& from,
                                 ns3::CollectiveProgram::Action action) const {
  if (action == ns3::CollectiveProgram::COPY) {
    into.copy_(from);
    return;
  }
  switch (reduce_) {
    case ReduceOp::kSum:
      into.add_(from);
      break;
    case ReduceOp::kMax:
      at::maximum_out(into, into, from);
      break;
    case ReduceOp::kMin:
      at::minimum_out(into, into, from);
      break;
  }
}

std::unique_ptr<ns3::CollectivePayload> TensorCollectiveData::Capture(
    uint32_t participant, const ns3::CollectiveProgram::Region& region) {
  return std::make_unique<TensorPayload>(locate(participant, region).clone());
}

void TensorCollectiveData::Deliver(uint32_t participant,
                                   const ns3::CollectiveProgram::Region& into,
                                   const ns3::CollectivePayload& payload,
                                   ns3::CollectiveProgram::Action action) {
  write(locate(participant, into), static_cast<const TensorPayload&>(payload).values, action);
}

void TensorCollectiveData::Local(uint32_t participant, const ns3::CollectiveProgram::Region& into,
                                 const ns3::CollectiveProgram::Region& from,
                                 ns3::CollectiveProgram::Action action) {
  // Through a copy: the regions may overlap.
  write(locate(participant, into), locate(participant, from).clone(), action);
}

namespace {
std::string across_key(uint64_t channel, uint32_t from, uint32_t to, uint32_t sequence) {
  return "collective/" + std::to_string(channel) + "/" + std::to_string(from) + "/" +
         std::to_string(to) + "/" + std::to_string(sequence);
}
}  // namespace

void TensorCollectiveData::SendAcross(uint32_t from, uint32_t to, uint64_t channel,
                                      uint32_t sequence,
                                      std::unique_ptr<ns3::CollectivePayload> payload) {
  if (!process_of_) throw std::logic_error("TensorCollectiveData: a member in another process");
  distributed::post(process_of_(to), across_key(channel, from, to, sequence),
                    tensor_to_bytes(static_cast<const TensorPayload&>(*payload).values));
}

std::unique_ptr<ns3::CollectivePayload> TensorCollectiveData::ReceiveAcross(uint32_t from,
                                                                            uint32_t to,
                                                                            uint64_t channel,
                                                                            uint32_t sequence) {
  if (!process_of_) throw std::logic_error("TensorCollectiveData: a member in another process");
  return std::make_unique<TensorPayload>(
      tensor_from_bytes(distributed::take(process_of_(from), across_key(channel, from, to, sequence))));
}

}  // namespace uniference
