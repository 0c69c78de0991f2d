// The requests a serving workload offers: when each arrives and how long its prompt and
// its answer are. Drawn once, before the run, from the scenario's seed, so every rank of
// every replica (and a deployment) sees the same stream.
#pragma once

#include "compute/registry.h"

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace uniference {

struct Request {
  int64_t id = 0;          // 0, 1, ... in arrival order
  int64_t arrival_ns = 0;  // since the start of serving
  int64_t prompt_tokens = 1;
  int64_t new_tokens = 1;  // tokens to generate, at least 1
};

// How one length (prompt or answer) is drawn. Which fields matter depends on the
// distribution (its registry entry says); lengths are whole tokens of at least 1.
struct LengthSpec {
  std::string distribution = "fixed";
  int64_t value = 1;          // fixed
  int64_t min = 1, max = 1;   // uniform: inclusive bounds; lognormal: clamps
  double median = 1;          // lognormal: exp(mu)
  double sigma = 0;           // lognormal: standard deviation of the log
  std::vector<int64_t> trace; // trace: lengths taken in order, cycling
};

// One random stream; draws are defined here (not by <random>'s distributions, whose
// algorithms differ between standard libraries) so a seed means the same requests anywhere.
class RequestRandom {
 public:
  explicit RequestRandom(uint64_t seed) : engine_(seed) {}
  // Uniform in (0, 1): 53 random bits, never exactly 0 or 1.
  double uniform();
  // Standard normal (Box-Muller).
  double normal();

 private:
  std::mt19937_64 engine_;
};

struct LengthDistribution {
  std::string name;
  std::string description;
  std::vector<std::string> keys;  // the LengthSpec fields it reads, as scenarios name them
  // The n-th length of the stream (n counts from 0).
  std::function<int64_t(const LengthSpec&, RequestRandom&, int64_t n)> draw;
};

const NamedRegistry<LengthDistribution>& length_distributions();

// Poisson arrivals: exponential gaps of mean 1 / rate, for `count` requests or until
// `duration_ns` (whichever is set; count wins when both are).
struct ArrivalSpec {
  double rate_per_s = 1;
  int64_t count = 0;
  int64_t duration_ns = 0;
};

struct ServingWorkload {
  ArrivalSpec arrivals;
  LengthSpec prompt;
  LengthSpec output;
};

// What /workload/kind may name: one request, a fixed batch, or requests arriving over time.
struct WorkloadKind {
  std::string name;
  std::string description;
};
const NamedRegistry<WorkloadKind>& workload_kinds();

// The stream for `seed`. Arrivals, prompt lengths and output lengths come from three
// streams of their own, so changing how lengths are drawn keeps the arrival times.
// Throws std::invalid_argument for a rate that is not positive, or neither a count nor a
// duration.
std::vector<Request> make_requests(const ServingWorkload& workload, uint64_t seed);

}  // namespace uniference
