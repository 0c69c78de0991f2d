// `uniference profile-network`: a ping-pong between two deployed ranks over the real backend,
// sizes from a few bytes to megabytes, fitted to the alpha-beta model (alpha_beta_fit.h).
// Rank 0 prints the fit and the star links it suggests, and writes the network profile.
#pragma once

#include "apps/deploy/deploy_session.h"

#include <string>

namespace uniference {

struct NetworkProfileOptions {
  uint64_t min_bytes = 8;
  uint64_t max_bytes = 16 << 20;
  int iters = 5;        // timed round trips per size; the median counts
  std::string out;      // the profile JSON; empty: not written
};

// "" when it completed, else what went wrong. Needs a world of two.
std::string run_deploy_netprofile(const NetworkProfileOptions& profile, const DeployOptions& options);

}  // namespace uniference
