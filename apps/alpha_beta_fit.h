// The alpha-beta model of a link, t(S) = alpha + beta * S, fitted to measured one-way times,
// and what it means for a simulated link: the network profile `uniference profile-network`
// writes.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace uniference {

struct TimedSize {
  uint64_t bytes = 0;
  double seconds = 0;  // one way
};

struct AlphaBeta {
  double alpha_s = 0;          // latency: the time of an empty message
  double beta_s_per_byte = 0;  // inverse bandwidth
};

// Least squares in relative error (each point weighted by 1 / t²), so the microsecond
// latencies of small messages count as much as the milliseconds of large ones. Needs two or
// more distinct sizes; throws std::invalid_argument otherwise.
AlphaBeta fit_alpha_beta(const std::vector<TimedSize>& samples);

// The profile as JSON: the fit, the samples, and the star links it suggests (a message
// crosses two links of a star, so each gets half the latency; the rate is 8 / beta).
nlohmann::json network_profile_json(const AlphaBeta& fit, const std::vector<TimedSize>& samples,
                                    const std::string& backend);

// "--set /network/link/rate=941Mbps --set /network/link/delay=37us": the fit as scenario
// overrides for a star.
std::string star_link_overrides(const AlphaBeta& fit);

}  // namespace uniference
