// `uniference colltest --backend gloo`: the nccl-tests-style sweep of colltest_sweep.h on a
// real backend, one process per rank, CPU tensors. Rank 0 gathers every rank's iteration
// times and reports rows in the simulated sweep's form, so the two pair size by size.
#pragma once

#include "apps/colltest_sweep.h"
#include "apps/deploy/deploy_session.h"

#include <string>

namespace uniference {

// Runs this rank's sweep; "" when it completed, else what went wrong. Rank 0 prints the
// table and writes `csv` and `plot` where given.
std::string run_deploy_colltest(const ColltestOptions& colltest, const DeployOptions& options,
                                const std::string& csv, const std::string& plot);

}  // namespace uniference
