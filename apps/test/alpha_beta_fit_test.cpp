#include "apps/alpha_beta_fit.h"

#include <gtest/gtest.h>

namespace uniference {
namespace {

// Times of a link of 50 µs latency and 1 Gbit/s (8 ns per byte), computed here.
std::vector<TimedSize> exact_link() {
  std::vector<TimedSize> samples;
  for (uint64_t bytes = 8; bytes <= (16u << 20); bytes *= 4) {
    samples.push_back({bytes, 50e-6 + 8e-9 * double(bytes)});
  }
  return samples;
}

TEST(AlphaBetaFit, RecoversAnExactLine) {
  const AlphaBeta fit = fit_alpha_beta(exact_link());
  EXPECT_NEAR(fit.alpha_s, 50e-6, 1e-12);
  EXPECT_NEAR(fit.beta_s_per_byte, 8e-9, 1e-18);
}

TEST(AlphaBetaFit, AnOutlierAmongSmallMessagesMovesNeither) {
  // A 512-byte message held 2 ms (a delayed ACK), as measured on the 100 Mbit/s testbed.
  std::vector<TimedSize> samples = exact_link();
  samples[3].seconds = 2e-3;
  const AlphaBeta fit = fit_alpha_beta(samples);
  EXPECT_NEAR(fit.alpha_s, 50e-6, 1e-9);
  EXPECT_NEAR(fit.beta_s_per_byte, 8e-9, 8e-9 * 1e-3);
}

TEST(AlphaBetaFit, TheBandwidthComesFromTheLargeMessagesAlone) {
  // Mid sizes 40% slow (a shaper's burst spent, a TCP window still growing): the slope of
  // the large sizes stays the link's.
  std::vector<TimedSize> samples = exact_link();
  for (TimedSize& s : samples) {
    if (s.bytes >= 32768 && s.bytes <= 131072) s.seconds *= 1.4;
  }
  EXPECT_NEAR(fit_alpha_beta(samples).beta_s_per_byte, 8e-9, 8e-9 * 0.02);
}

TEST(AlphaBetaFit, TheProfileSuggestsStarLinks) {
  const AlphaBeta fit{50e-6, 8e-9};
  // A message crosses two star links: half the latency each. 8 bits / 8 ns = 1 Gbit/s of
  // payload; in 1500-byte TCP frames, 1448 payload bytes take 1538 on the wire (Ethernet
  // header, FCS, preamble and gap: 38; IP and TCP with timestamps: 52), so the line runs
  // at 1e9 * 1538 / 1448 = 1062.15 Mbit/s.
  EXPECT_EQ(star_link_overrides(fit), "--set /network/link/rate=1062Mbps --set /network/link/delay=25us");
  const nlohmann::json profile = network_profile_json(fit, exact_link(), "gloo");
  EXPECT_EQ(profile.at("format"), "uniference-network-profile");
  EXPECT_DOUBLE_EQ(profile.at("payload_bps").get<double>(), 1e9);
  EXPECT_NEAR(profile.at("star_link").at("rate_bps").get<double>(), 1e9 * 1538 / 1448, 1);
  EXPECT_DOUBLE_EQ(profile.at("star_link").at("delay_s").get<double>(), 25e-6);
  EXPECT_EQ(profile.at("samples").size(), exact_link().size());
}

TEST(AlphaBetaFit, OneSizeIsNotEnough) {
  EXPECT_THROW(fit_alpha_beta({{1024, 1e-3}, {1024, 2e-3}}), std::invalid_argument);
  EXPECT_THROW(fit_alpha_beta({{1024, 0}}), std::invalid_argument);
}

}  // namespace
}  // namespace uniference
