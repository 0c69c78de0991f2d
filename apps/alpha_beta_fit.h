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

// Beta is the least-squares slope over the bandwidth-bound sizes (the largest ones, down to
// the first that takes less than ten times the fastest), where the line is straight; alpha is the median over the other sizes
// of t - beta * S, so an outlier among small messages (a delayed ACK) moves neither. Real
// links are not straight lines between the two regimes (a shaper's burst, TCP's window
// growing), and one least-squares fit over all sizes lets them pull both numbers. Needs
// two or more distinct sizes; throws std::invalid_argument otherwise.
AlphaBeta fit_alpha_beta(const std::vector<TimedSize>& samples);

// 8 / beta is the payload rate the ranks saw; a link's line rate also carries each 1500-byte
// frame's Ethernet, IP and TCP headers and gaps: 1538 bytes on the wire per 1448 of payload.
inline constexpr double kTcpFramingFactor = 1538.0 / 1448.0;

// The profile as JSON: the fit, the samples, and the star links it suggests (a message
// crosses two links of a star, so each gets half the latency; the line rate is the payload
// rate 8 / beta times kTcpFramingFactor).
nlohmann::json network_profile_json(const AlphaBeta& fit, const std::vector<TimedSize>& samples,
                                    const std::string& backend);

// "--set /network/link/rate=941Mbps --set /network/link/delay=37us": the fit as scenario
// overrides for a star.
std::string star_link_overrides(const AlphaBeta& fit);

// The star link a network profile file suggests, whole bit/s and ns, as /network/link/profile
// reads it.
struct MeasuredStarLink {
  uint64_t rate_bps = 0;
  int64_t delay_ns = 0;
};

// Reads the "star_link" of a file network_profile_json wrote. Throws std::invalid_argument
// naming the file and what is wrong with it.
MeasuredStarLink load_network_profile(const std::string& path);

}  // namespace uniference
