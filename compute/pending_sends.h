// Sends a rank keeps alive until they complete: Comm's isend contract says a tensor must
// outlive its send, and a caller that moves on needs somewhere to keep it.
#pragma once

#include "compute/comm.h"

#include <utility>
#include <vector>

namespace uniference {

class PendingSends {
 public:
  void send(Comm& comm, at::Tensor tensor, int dst, int tag) {
    tensor = tensor.contiguous();
    sends_.emplace_back(comm.isend(tensor, dst, tag), tensor);
  }
  void wait_all() {
    for (auto& [work, tensor] : sends_) work->wait();
    sends_.clear();
  }

 private:
  std::vector<std::pair<WorkPtr, at::Tensor>> sends_;
};

}  // namespace uniference
