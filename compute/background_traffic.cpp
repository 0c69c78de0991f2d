#include "compute/background_traffic.h"

#include <stdexcept>

namespace uniference {

int64_t run_background_traffic(Comm& world, const TrafficRounds& rounds, const TrafficClock& clock) {
  const int64_t elements = int64_t(rounds.bytes / 4);
  if (rounds.bytes % 4 != 0 || elements == 0 || rounds.period_ns <= 0) {
    throw std::invalid_argument("background traffic: " + std::to_string(rounds.bytes) +
                                " bytes every " + std::to_string(rounds.period_ns) +
                                " ns; whole fp32 elements and a positive period are needed");
  }
  if (rounds.pattern == "all_to_all" && elements % world.size() != 0) {
    throw std::invalid_argument("background traffic: an all_to_all of " + std::to_string(rounds.bytes) +
                                " bytes does not split into " + std::to_string(world.size()) + " equal blocks");
  }
  const at::TensorOptions options =
      at::TensorOptions().dtype(at::kFloat).device(rounds.shapes_only ? at::kMeta : at::kCPU);
  at::Tensor buffer = rounds.shapes_only ? at::empty({elements}, options) : at::zeros({elements}, options);
  at::Tensor received = at::empty_like(buffer);
  const int me = world.rank(), size = world.size();
  int64_t round = 0;
  for (;; ++round) {
    const int64_t due = rounds.start_ns + round * rounds.period_ns;
    clock.sleep_until_ns(due);
    if (clock.stop_at(due)) break;
    if (rounds.pattern == "all_reduce") {
      world.all_reduce(buffer);
    } else if (rounds.pattern == "all_to_all") {
      world.all_to_all(received, buffer);
    } else if (rounds.pattern == "permutation") {
      WorkPtr sent = world.isend(buffer, (me + 1) % size);
      WorkPtr got = world.irecv(received, (me + size - 1) % size);
      sent->wait();
      got->wait();
    } else {
      throw std::invalid_argument("background traffic: no pattern \"" + rounds.pattern + "\"");
    }
  }
  return round;
}

}  // namespace uniference
