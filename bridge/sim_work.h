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

  // Blocks the owning LP until complete() has been called; rethrows a failure.
  void wait() override;
  // Lets a little simulated time pass when not yet complete, so polling loops progress.
  bool is_completed() override;

  // From the ns-3 side: the operation is done (or failed with `error`).
  void complete(const std::string& error = {});

 private:
  void check_owner() const;

  Kernel& kernel_;
  int owner_;
  std::string operation_;
  uint64_t bytes_;
  int peer_;
  BlockReason reason_;
  bool done_ = false;
  bool waited_ = false;
  std::string error_;
};

}  // namespace uniference
