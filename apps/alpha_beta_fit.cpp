#include "apps/alpha_beta_fit.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace uniference {

AlphaBeta fit_alpha_beta(const std::vector<TimedSize>& samples) {
  // Normal equations of min sum w (alpha + beta S - t)^2 with w = 1 / t^2.
  double sw = 0, sx = 0, sxx = 0, sy = 0, sxy = 0;
  for (const TimedSize& s : samples) {
    if (!(s.seconds > 0)) throw std::invalid_argument("fit_alpha_beta: times must be positive");
    const double w = 1.0 / (s.seconds * s.seconds);
    const double x = double(s.bytes);
    sw += w, sx += w * x, sxx += w * x * x, sy += w * s.seconds, sxy += w * x * s.seconds;
  }
  const double determinant = sw * sxx - sx * sx;
  if (samples.size() < 2 || !(std::fabs(determinant) > 1e-12 * sw * sxx)) {
    throw std::invalid_argument("fit_alpha_beta: needs two or more distinct sizes");
  }
  AlphaBeta fit;
  fit.beta_s_per_byte = (sw * sxy - sx * sy) / determinant;
  fit.alpha_s = (sy - fit.beta_s_per_byte * sx) / sw;
  return fit;
}

nlohmann::json network_profile_json(const AlphaBeta& fit, const std::vector<TimedSize>& samples,
                                    const std::string& backend) {
  nlohmann::json measured = nlohmann::json::array();
  for (const TimedSize& s : samples) measured.push_back({{"bytes", s.bytes}, {"seconds", s.seconds}});
  return {{"format", "uniference-network-profile"},
          {"format_version", 1},
          {"backend", backend},
          {"alpha_s", fit.alpha_s},
          {"beta_s_per_byte", fit.beta_s_per_byte},
          {"star_link", {{"rate_bps", fit.beta_s_per_byte > 0 ? 8.0 / fit.beta_s_per_byte : 0.0},
                         {"delay_s", std::max(0.0, fit.alpha_s / 2)}}},
          {"samples", measured}};
}

std::string star_link_overrides(const AlphaBeta& fit) {
  char text[160];
  const double mbps = fit.beta_s_per_byte > 0 ? 8.0 / fit.beta_s_per_byte / 1e6 : 0;
  const double delay_us = std::max(0.0, fit.alpha_s / 2 * 1e6);
  std::snprintf(text, sizeof text, "--set /network/link/rate=%.0fMbps --set /network/link/delay=%.0fus",
                mbps, delay_us);
  return text;
}

}  // namespace uniference
