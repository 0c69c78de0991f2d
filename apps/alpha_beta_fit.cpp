#include "apps/alpha_beta_fit.h"

#include "apps/format_file.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>

namespace uniference {

namespace {

// Ordinary least squares of t on S: {intercept, slope}; nullopt with fewer than two sizes.
std::optional<std::pair<double, double>> least_squares(const std::vector<TimedSize>& samples) {
  double n = 0, sx = 0, sxx = 0, sy = 0, sxy = 0;
  for (const TimedSize& s : samples) {
    const double x = double(s.bytes);
    n += 1, sx += x, sxx += x * x, sy += s.seconds, sxy += x * s.seconds;
  }
  const double determinant = n * sxx - sx * sx;
  if (samples.size() < 2 || !(determinant > 1e-12 * n * sxx)) return std::nullopt;
  const double slope = (n * sxy - sx * sy) / determinant;
  return std::make_pair((sy - slope * sx) / n, slope);
}

}  // namespace

AlphaBeta fit_alpha_beta(const std::vector<TimedSize>& samples) {
  double fastest = 0;
  for (const TimedSize& s : samples) {
    if (!(s.seconds > 0)) throw std::invalid_argument("fit_alpha_beta: times must be positive");
    fastest = fastest == 0 ? s.seconds : std::min(fastest, s.seconds);
  }
  // The bandwidth-bound sizes: from the largest down, as long as each takes more than ten
  // times the fastest (a slow small message further down is an outlier, not bandwidth).
  std::vector<TimedSize> by_size = samples;
  std::stable_sort(by_size.begin(), by_size.end(),
                   [](const TimedSize& a, const TimedSize& b) { return a.bytes < b.bytes; });
  size_t first_bound = by_size.size();
  while (first_bound > 0 && by_size[first_bound - 1].seconds > 10 * fastest) --first_bound;
  const std::vector<TimedSize> latency_bound(by_size.begin(), by_size.begin() + long(first_bound));
  const std::vector<TimedSize> bandwidth_bound(by_size.begin() + long(first_bound), by_size.end());
  std::optional<std::pair<double, double>> line = least_squares(bandwidth_bound);
  if (!line) line = least_squares(samples);
  if (!line) throw std::invalid_argument("fit_alpha_beta: needs two or more distinct sizes");
  AlphaBeta fit;
  fit.beta_s_per_byte = line->second;
  std::vector<double> latencies;
  for (const TimedSize& s : latency_bound) latencies.push_back(s.seconds - fit.beta_s_per_byte * double(s.bytes));
  if (latencies.empty()) {
    fit.alpha_s = line->first;
  } else {
    std::sort(latencies.begin(), latencies.end());
    const size_t middle = latencies.size() / 2;
    fit.alpha_s = latencies.size() % 2 ? latencies[middle] : (latencies[middle - 1] + latencies[middle]) / 2;
  }
  return fit;
}

nlohmann::json network_profile_json(const AlphaBeta& fit, const std::vector<TimedSize>& samples,
                                    const std::string& backend) {
  const double payload_bps = fit.beta_s_per_byte > 0 ? 8.0 / fit.beta_s_per_byte : 0.0;
  nlohmann::json measured = nlohmann::json::array();
  for (const TimedSize& s : samples) measured.push_back({{"bytes", s.bytes}, {"seconds", s.seconds}});
  return {{"format", "uniference-network-profile"},
          {"format_version", 1},
          {"backend", backend},
          {"alpha_s", fit.alpha_s},
          {"beta_s_per_byte", fit.beta_s_per_byte},
          {"payload_bps", payload_bps},
          {"star_link", {{"rate_bps", payload_bps * kTcpFramingFactor},
                         {"delay_s", std::max(0.0, fit.alpha_s / 2)}}},
          {"samples", measured}};
}

std::string star_link_overrides(const AlphaBeta& fit) {
  char text[160];
  const double mbps = fit.beta_s_per_byte > 0 ? 8.0 / fit.beta_s_per_byte / 1e6 * kTcpFramingFactor : 0;
  const double delay_us = std::max(0.0, fit.alpha_s / 2 * 1e6);
  std::snprintf(text, sizeof text, "--set /network/link/rate=%.0fMbps --set /network/link/delay=%.0fus",
                mbps, delay_us);
  return text;
}

MeasuredStarLink load_network_profile(const std::string& path) {
  const std::string hint = "write one with uniference profile-network --out FILE.json";
  const nlohmann::json profile = read_format_file(path, "network profile", "uniference-network-profile", hint);
  const auto bad = [&](const std::string& what) { return format_file_error(path, "network profile", what, hint); };
  const nlohmann::json* link = profile.contains("star_link") ? &profile["star_link"] : nullptr;
  const auto number = [&](const char* key) {
    if (link == nullptr || !link->contains(key) || !(*link)[key].is_number()) {
      throw bad(std::string("no number at /star_link/") + key);
    }
    return (*link)[key].get<double>();
  };
  const double rate = number("rate_bps");
  const double delay = number("delay_s");
  if (!(rate >= 1) || !(rate < 1e18)) throw bad("/star_link/rate_bps is not a positive rate");
  if (!(delay > 0) || !(delay < 1e3)) throw bad("/star_link/delay_s is not a positive duration");
  return {uint64_t(std::llround(rate)), std::max<int64_t>(1, std::llround(delay * 1e9))};
}

}  // namespace uniference
