// The Work handle of SimComm: completed by an ns-3 event, waited on by an LP.
#pragma once

#include "bridge/kernel.h"
#include "compute/comm.h"

#include <cstdint>
#include <string>

namespace uniference {

class SimWork : public Work {
 public:
  SimWork(Kernel& kernel, int owner, std::string operation, uint64_t bytes, int peer,
          BlockReason reason);

  // Blocks the owning LP until complete() has been called; rethrows a failure. When the
  // LP did anything between issuing the call and waiting for it, the call's flight (issue
  // to completion) is recorded too, besides the wait.
  void wait() override;
  // Lets a little simulated time pass when not yet complete, so polling loops progress.
  bool is_completed() override;

  // From the ns-3 side: the operation is done (or failed with `error`).
  void complete(const std::string& error = {});

  // The owner's compute label when it issued the call.
  const std::string& label() const { return label_; }

 private:
  void check_owner() const;

  Kernel& kernel_;
  int owner_;
  std::string operation_;
  uint64_t bytes_;
  int peer_;
  BlockReason reason_;
  std::string label_;
  int64_t issued_ns_;
  int64_t completed_ns_ = 0;
  bool done_ = false;
  bool waited_ = false;
  std::string error_;
};

}  // namespace uniference
