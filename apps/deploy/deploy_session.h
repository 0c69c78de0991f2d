// What every deployed rank does around its work: meet the others (rendezvous), start the
// heartbeat that names lost peers, build the world communicator on the chosen backend, run
// the work, and on the way out say it is leaving (rank 0, which serves the store, waits for
// the rest).
#pragma once

#include "apps/deploy/peer_watch.h"
#include "apps/deploy/rendezvous.h"
#include "compute/backends/backend.h"

#include <functional>
#include <memory>
#include <string>

namespace uniference {

struct DeployOptions {
  std::string backend = "gloo";
  RendezvousOptions rendezvous;
  RankPlacement placement;
  // Bounds every communication call, and how long rank 0 waits for the others at the end.
  std::chrono::milliseconds timeout{120000};
  GlooExchanges exchanges = GlooExchanges::kReceiveFirst;
  std::string out_dir;  // rank 0 writes the merged outputs here, rank r also rank<r>/
  bool progress = true;
};

class DeploySession {
 public:
  explicit DeploySession(const DeployOptions& options);
  ~DeploySession();
  DeploySession(const DeploySession&) = delete;
  DeploySession& operator=(const DeploySession&) = delete;

  // Connects: "" when this rank is part of the world, else why not ("rank 1: cannot reach
  // the rendezvous store at ...").
  std::string open();

  std::shared_ptr<Comm> world() const { return comm_; }
  c10d::Store& store() const { return *store_; }
  const std::string& backend() const { return backend_; }
  // The collective preset that models what this rank's communicator runs.
  std::string collective_preset() const { return deployed_preset(backend_, options_.exchanges); }

  // Runs `work`; "" when it completed, else what went wrong, naming this rank and the lost
  // peer when a peer was lost.
  std::string run(const std::function<void()>& work);

  // Every rank's `text` under `key`, on rank 0 (rank r's at index r); others get nothing.
  std::vector<std::string> gather_at_zero(const std::string& key, const std::string& text);

 private:
  DeployOptions options_;
  std::string who_;  // "rank 3: "
  std::string backend_;
  c10::intrusive_ptr<c10d::Store> store_;
  std::unique_ptr<PeerWatch> watch_;
  std::shared_ptr<Comm> comm_;
  bool failed_ = false;
};

}  // namespace uniference
