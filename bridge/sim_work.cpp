#include "bridge/sim_work.h"

#include <stdexcept>

namespace uniference {

namespace {
// SMPI's answer to busy polling: each unsuccessful poll costs a little simulated time.
constexpr int64_t kPollCostNs = 10;
}  // namespace

SimWork::SimWork(Kernel& kernel, int owner, std::string operation, uint64_t bytes, int peer,
                 BlockReason reason)
    : kernel_(kernel),
      owner_(owner),
      operation_(std::move(operation)),
      bytes_(bytes),
      peer_(peer),
      reason_(std::move(reason)),
      label_(kernel.current_label()),
      issued_ns_(kernel.now_ns()) {}

void SimWork::check_owner() const {
  int caller = kernel_.current_rank();
  if (caller != owner_) {
    throw std::logic_error("rank " + std::to_string(caller) + " waited on a " + operation_ +
                           " handle that belongs to rank " + std::to_string(owner_));
  }
}

void SimWork::wait() {
  check_owner();
  kernel_.settle_compute();
  int64_t start = kernel_.now_ns();
  while (!done_) kernel_.block(reason_);
  int64_t end = kernel_.now_ns();
  if (!waited_) {
    waited_ = true;
    kernel_.recorder().comm_wait(owner_, operation_, start, end, bytes_, peer_);
    if (start > issued_ns_ && completed_ns_ > issued_ns_) {
      kernel_.recorder().comm_flight(owner_, operation_, label_, issued_ns_, completed_ns_, bytes_,
                                     peer_);
    }
  }
  kernel_.resume_compute();
  if (!error_.empty()) throw std::runtime_error(error_);
}

bool SimWork::is_completed() {
  check_owner();
  kernel_.settle_compute();
  if (!done_) kernel_.advance(kPollCostNs);
  kernel_.resume_compute();
  return done_;
}

void SimWork::complete(const std::string& error) {
  done_ = true;
  completed_ns_ = kernel_.now_ns();
  error_ = error;
  kernel_.wake(owner_);
}

}  // namespace uniference
