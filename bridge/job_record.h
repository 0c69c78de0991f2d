// One job's part of a run of several jobs on one network (/jobs): its ranks' spans, messages,
// tokens, requests and totals, renumbered from 0 as if it had run alone, so every report that
// reads a RunRecord reads a job's too. The network's links, outages and faults stay with the
// run: they belong to every job that crossed them.
#pragma once

#include "bridge/run_record.h"

namespace uniference {

// The part of `run` made by world ranks first .. first + ranks - 1. Its total_ns is when its
// last rank finished. Throws std::invalid_argument when `run` has no token_ranks or
// request_ranks for its tokens and requests (a record read back from JSON).
RunRecord job_record(const RunRecord& run, int first, int ranks);

}  // namespace uniference
