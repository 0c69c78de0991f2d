#include "compute/serving/requests.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace uniference {

double RequestRandom::uniform() {
  return (double(engine_() >> 11) + 0.5) * 0x1.0p-53;
}

double RequestRandom::normal() {
  const double radius = std::sqrt(-2.0 * std::log(uniform()));
  return radius * std::cos(2.0 * M_PI * uniform());
}

const NamedRegistry<LengthDistribution>& length_distributions() {
  static const NamedRegistry<LengthDistribution> registry(
      "length distribution",
      {
          {"fixed", "every request the same length", {"value"},
           [](const LengthSpec& s, RequestRandom&, int64_t) { return s.value; }},
          {"uniform", "whole numbers uniform in [min, max]", {"min", "max"},
           [](const LengthSpec& s, RequestRandom& random, int64_t) {
             const int64_t span = s.max - s.min + 1;
             return s.min + std::min(span - 1, int64_t(random.uniform() * double(span)));
           }},
          {"lognormal",
           "exp(N(ln median, sigma^2)) rounded, clamped to [min, max]: the long tail of "
           "real prompt and answer lengths",
           {"median", "sigma", "min", "max"},
           [](const LengthSpec& s, RequestRandom& random, int64_t) {
             const double x = s.median * std::exp(s.sigma * random.normal());
             return std::clamp<int64_t>(std::llround(x), s.min, s.max);
           }},
          {"trace", "the lengths of a CSV column, in order, starting over at its end",
           {"file", "column"},
           [](const LengthSpec& s, RequestRandom&, int64_t n) {
             return s.trace[size_t(n % int64_t(s.trace.size()))];
           }},
      });
  return registry;
}

const NamedRegistry<WorkloadKind>& workload_kinds() {
  static const NamedRegistry<WorkloadKind> registry(
      "workload kind",
      {
          {"single", "one prompt: prefill, then one decode step per new token"},
          {"batch", "/workload/batch prompts of one length, served together"},
          {"serving",
           "requests arriving as a Poisson process, batched by /workload/scheduler, with "
           "latency percentiles, throughput and goodput"},
      });
  return registry;
}

std::vector<Request> make_requests(const ServingWorkload& workload, uint64_t seed) {
  const ArrivalSpec& a = workload.arrivals;
  if (!(a.rate_per_s > 0) || !std::isfinite(a.rate_per_s)) {
    throw std::invalid_argument("arrival rate must be positive");
  }
  if (a.count <= 0 && a.duration_ns <= 0) {
    throw std::invalid_argument("arrivals need a request count or a duration");
  }
  const LengthDistribution& prompt = length_distributions().at(workload.prompt.distribution);
  const LengthDistribution& output = length_distributions().at(workload.output.distribution);
  for (const LengthSpec* spec : {&workload.prompt, &workload.output}) {
    if (spec->distribution == "trace" && spec->trace.empty()) {
      throw std::invalid_argument("a trace length distribution needs at least one length");
    }
  }
  // Three streams from one seed: a golden-ratio step apart, as make_prompts derives its.
  RequestRandom gaps(seed), prompts(seed ^ 0x9e3779b97f4a7c15ULL),
      outputs(seed ^ 0x3c6ef372fe94f82aULL);
  std::vector<Request> requests;
  double t_ns = 0;
  for (int64_t n = 0;; ++n) {
    if (a.count > 0 && n == a.count) break;
    t_ns += -std::log(gaps.uniform()) / a.rate_per_s * 1e9;
    const int64_t arrival = std::llround(t_ns);
    if (a.count <= 0 && arrival >= a.duration_ns) break;
    Request r;
    r.id = n;
    r.arrival_ns = arrival;
    r.prompt_tokens = std::max<int64_t>(1, prompt.draw(workload.prompt, prompts, n));
    r.new_tokens = std::max<int64_t>(1, output.draw(workload.output, outputs, n));
    requests.push_back(r);
  }
  return requests;
}

}  // namespace uniference
