// `uniference launch`: starts the ranks of a deployment on this host (or one per network
// namespace, for an emulated testbed), prefixes their output with the rank, and fails when
// any rank fails. Rank 0 merges the ranks' records (apps/deploy/deploy_rank.h).
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace uniference {

struct LaunchOptions {
  int ranks = 0;                        // -n; with netns, 0 means one per namespace
  std::vector<std::string> netns;       // one rank per namespace, in rank order
  std::string master_addr;              // default 127.0.0.1 (required with netns)
  int master_port = 0;                  // 0: a free port (29500 with netns)
  // The ranks' --timeout: once a rank has failed, the others get this and 15 s more (to say
  // which peer they lost) before they are stopped.
  std::chrono::milliseconds rank_timeout{120000};
  std::vector<std::string> deploy_args;   // passed to every rank (scenario, --set, ...)
  std::string deploy_binary;              // uniference-deploy
};

// Throws std::invalid_argument for inconsistent options (exit 2).
void check_launch(const LaunchOptions& options);

// Runs the ranks to the end; returns 0 when all succeeded, else the exit code of the first
// rank that failed (1 for one killed by a signal).
int launch(const LaunchOptions& options);

// uniference-deploy beside the running binary, else on PATH.
std::string deploy_binary_beside(const std::string& argv0);

}  // namespace uniference
