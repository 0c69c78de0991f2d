#include "apps/deploy/deploy_session.h"

namespace uniference {

DeploySession::DeploySession(const DeployOptions& options)
    : options_(options), who_("rank " + std::to_string(options.placement.rank) + ": ") {}

DeploySession::~DeploySession() {
  if (failed_) {
    // A failed group's destructor waits for its stuck operations to time out; the process
    // exits without running it.
    static std::shared_ptr<Comm> abandoned;
    abandoned = comm_;
  }
  comm_.reset();
  if (watch_) watch_->leave(failed_, options_.timeout);
}

std::string DeploySession::open() {
  const DeployBackend& backend = deploy_backends().at(options_.backend);
  backend_ = backend.name;
  const std::string why_not = backend.unavailable();
  if (!why_not.empty()) return who_ + "backend " + backend.name + " cannot run here: " + why_not;
  const RendezvousOptions& rendezvous = options_.rendezvous;
  const int rank = options_.placement.rank;
  const int world = options_.placement.world;
  RankPlacement placement = options_.placement;
  try {
    placement.address = local_address_toward(rendezvous.master_addr, rendezvous.master_port);
    store_ = open_store(rendezvous, rank, world);
    watch_ = std::make_unique<PeerWatch>(rendezvous, rank, world);
    comm_ = backend.make(store_, placement, CommOptions{options_.timeout, options_.exchanges});
  } catch (const std::exception& e) {
    return who_ + first_line(e.what());
  }
  return "";
}

std::string DeploySession::run(const std::function<void()>& work) {
  try {
    work();
    return "";
  } catch (const std::exception& e) {
    failed_ = true;
    return who_ + first_line(e.what()) + "; " + watch_->census();
  }
}

std::vector<std::string> DeploySession::gather_at_zero(const std::string& key,
                                                       const std::string& text) {
  const int rank = options_.placement.rank;
  store_->set(key + "/" + std::to_string(rank), std::vector<uint8_t>(text.begin(), text.end()));
  std::vector<std::string> all;
  if (rank != 0) return all;
  for (int r = 0; r < options_.placement.world; ++r) {
    const std::vector<uint8_t> value = store_->get(key + "/" + std::to_string(r));
    all.emplace_back(value.begin(), value.end());
  }
  return all;
}

}  // namespace uniference
