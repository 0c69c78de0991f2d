#include "bridge/sim_backend.h"

#include "bridge/sim_comm.h"

#include <ns3/callback.h>
#include <ns3/simulator.h>

#include <stdexcept>

namespace uniference {

SimBackend::SimBackend(Kernel& kernel, std::vector<ns3::Ptr<ns3::MessageTransport>> transports,
                       CollectiveSelection collectives)
    : kernel_(kernel),
      transports_(std::move(transports)),
      groups_(static_cast<int>(transports_.size())),
      point_to_point_(kernel_, transports_),
      collectives_(kernel_, transports_, groups_, std::move(collectives), channel_labels_) {
  if (kernel_.lp_count() != world_size()) {
    throw std::invalid_argument("SimBackend: " + std::to_string(world_size()) +
                                " transports for " + std::to_string(kernel_.lp_count()) + " LPs");
  }
  bool across = false;
  for (int r = 0; r < world_size(); ++r) across = across || !kernel_.runs_here(r);
  for (int r = 0; r < world_size(); ++r) {
    auto& transport = transports_[static_cast<size_t>(r)];
    // Across processes a collective is set up here when this process's first member enters;
    // a member elsewhere may send before that.
    transport->SetKeepUnheard(across);
    transport->TraceConnectWithoutContext("MessageQueued",
                                          ns3::MakeBoundCallback(&SimBackend::on_queued, this, r));
    transport->TraceConnectWithoutContext("MessageSent",
                                          ns3::MakeBoundCallback(&SimBackend::on_sent, this, r));
    transport->TraceConnectWithoutContext(
        "MessageDelivered", ns3::MakeBoundCallback(&SimBackend::on_delivered, this, r));
  }
  kernel_.set_in_flight_probe([this] { return in_flight(); });
}

SimBackend::~SimBackend() { kernel_.set_in_flight_probe({}); }

uint64_t SimBackend::in_flight() const {
  uint64_t pending = queued_ - delivered_;
  if (pending > 0) return pending;
  for (const auto& transport : transports_) pending += transport->GetPendingSends();
  return pending;
}

std::shared_ptr<Comm> SimBackend::world_comm(int rank) {
  if (world_of_.empty()) return std::make_shared<SimComm>(*this, 0, rank);
  const auto [group, index] = world_of_.at(static_cast<size_t>(rank));
  return std::make_shared<SimComm>(*this, group, index);
}

void SimBackend::add_job_world(int first, int size) {
  if (first < 0 || size < 1 || first + size > world_size()) {
    throw std::invalid_argument("SimBackend: a job of ranks " + std::to_string(first) + " .. " +
                                std::to_string(first + size - 1) + " in a world of " +
                                std::to_string(world_size()));
  }
  if (world_of_.empty()) {
    for (int r = 0; r < world_size(); ++r) world_of_.emplace_back(0, r);
  }
  std::vector<int> members;
  for (int r = first; r < first + size; ++r) members.push_back(r);
  const int group = groups_.add_world(members);
  for (int i = 0; i < size; ++i) world_of_[size_t(first + i)] = {group, i};
}

void SimBackend::on_queued(SimBackend* backend, int, uint32_t, uint64_t, uint64_t, uint64_t) {
  ++backend->queued_;
}

void SimBackend::on_sent(SimBackend* backend, int rank, uint32_t dst, uint64_t channel,
                         uint64_t cookie, uint64_t bytes) {
  std::string operation = "message", compute_label;
  if (channel == PointToPoint::kChannel) {
    operation = op_name(OpType::kSend);
    compute_label = backend->point_to_point_.compute_label(rank, static_cast<int>(dst), cookie);
  } else if (auto label = backend->channel_labels_.find(channel);
             label != backend->channel_labels_.end()) {
    operation = label->second.operation;
    if (auto sender = label->second.compute.find(rank); sender != label->second.compute.end()) {
      compute_label = sender->second;
    }
  }
  backend->kernel_.recorder().message_sent(rank, static_cast<int>(dst), operation, bytes,
                                           ns3::Simulator::Now().GetNanoSeconds(), compute_label);
}

void SimBackend::on_delivered(SimBackend* backend, int rank, uint32_t src, uint64_t, uint64_t,
                              uint64_t) {
  ++backend->delivered_;
  const int64_t now = ns3::Simulator::Now().GetNanoSeconds();
  if (backend->kernel_.runs_here(static_cast<int>(src))) {
    backend->kernel_.recorder().message_delivered(static_cast<int>(src), rank, now);
  } else {
    backend->kernel_.recorder().message_arrived(static_cast<int>(src), rank, now);
  }
  backend->kernel_.request_quiescence_check();
}

}  // namespace uniference
