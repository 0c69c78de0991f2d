// A host's measured wake-up latencies, as /devices/wake_latency may name them: a file of
// delays between a blocked thread's wake-up and its running again, which
// validation/testbed/sched_delays.py --samples writes from `perf sched record`.
//
//   {"format": "uniference-wake-latency", "format_version": 1, "samples_ns": [3120, 41, ...]}
//
// Other keys (where and how the samples were taken) are kept for the reader and ignored.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace uniference {

// The samples of the file at `path`, in ns, in the file's order. Throws std::invalid_argument
// naming the file and what is wrong with it.
std::vector<int64_t> load_wake_latencies(const std::string& path);

}  // namespace uniference
