// What code running inside a logical process may ask of the kernel (SimGrid's this_actor):
// its rank, its clock, and a few bookkeeping calls. Shard code itself needs none of it;
// the runner and the examples, which sit between shard code and the simulator, do.
#pragma once

#include "compute/serving/request_record.h"

#include <cstdint>

namespace uniference::this_lp {

// The running LP's world rank.
int rank();

// The LP's clock: charges the compute it has done so far, then reads simulated time.
int64_t clock_ns();

// Simulated time now, without charging anything (for progress lines).
int64_t now_ns();

// Ends the LP's compute segment without charging it, and starts a new one: for set-up
// work (building weights) that is not part of the simulated workload.
void discard_compute();

// Records that this LP produced token `token` of prompt `prompt` (its step-th new token)
// now; its compute so far is charged first.
void record_token(int64_t prompt, int64_t step, int64_t token);

// Charges the compute so far, then idles (no compute charged) until simulated time `ns`;
// returns at once when that time has passed.
void sleep_until(int64_t ns);

// Records a served request that this LP, its replica's driver, saw finish.
void record_request(const RequestRecord& record);

// Records what this LP's model holds, in bytes.
void record_memory(uint64_t weights, uint64_t kv_cache, uint64_t activations);

}  // namespace uniference::this_lp
