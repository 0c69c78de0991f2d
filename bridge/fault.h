// One fault injected on purpose (/faults), as the run's layers take it: plain values, so that
// checking a scenario needs neither ns-3 nor the kernel. bridge/faults.h injects them.
#pragma once

#include <cstdint>
#include <string>

namespace uniference {

enum class FaultKind { kLinkDown, kSwitchDown, kLossBurst, kStraggler, kRankCrash };

// "link_down", "switch_down", "loss_burst", "straggler", "rank_crash", as scenarios write them.
const char* fault_kind_name(FaultKind kind);
// The kinds that act on the network's cables, not on a rank.
bool is_link_fault(FaultKind kind);

struct Fault {
  FaultKind kind = FaultKind::kLinkDown;
  std::string pointer;  // where the scenario gives it ("/faults/0"), for reports
  // link_down, loss_burst: a cable direction "a -> b", or both directions "a <-> b" (names as
  // bridge/node_names.h gives them); switch_down: a node's name; straggler, rank_crash: "rankN".
  std::string target;
  int rank = -1;         // straggler, rank_crash: N of "rankN"
  int64_t at_ns = 0;
  int64_t for_ns = 0;    // 0: to the end of the run (rank_crash: always)
  double loss = 1.0;     // loss_burst: each packet's probability
  double factor = 1.0;   // straggler: how many times as long its compute takes
};

}  // namespace uniference
