// One served request's times, plain data: the serving loop fills it, the bridge's run
// record and the reports read it (and so may include it without libtorch).
#pragma once

#include <cstdint>
#include <vector>

namespace uniference {

// One served request, as its driver saw it. Times are on the serving clock
// (simulated time, or a deployment's time since serving started).
struct RequestRecord {
  int64_t id = 0;
  int replica = 0;
  int64_t arrival_ns = 0;
  int64_t scheduled_ns = 0;    // start of its first step
  int64_t first_token_ns = 0;  // its first token known
  int64_t finish_ns = 0;       // its last token known
  int64_t prompt_tokens = 0;
  int64_t new_tokens = 0;
  int64_t preemptions = 0;
  std::vector<int64_t> tokens;
};

}  // namespace uniference
