#include "apps/alpha_beta_fit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

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

TEST(AlphaBetaFit, AWrittenProfileReadsBackAsTheStarLinkItSuggests) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "uniference-profile-read.json";
  std::ofstream(path) << network_profile_json(AlphaBeta{50e-6, 8e-9}, exact_link(), "gloo").dump(2);
  const MeasuredStarLink link = load_network_profile(path.string());
  EXPECT_EQ(link.rate_bps, uint64_t(std::llround(1e9 * 1538 / 1448)));
  EXPECT_EQ(link.delay_ns, 25000);
  std::ofstream(path) << "{\"format\": \"uniference-network-profile\", \"star_link\": {\"rate_bps\": -5, \"delay_s\": 1e-5}}";
  try {
    load_network_profile(path.string());
    ADD_FAILURE() << "a negative rate was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("/star_link/rate_bps"), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
}

TEST(AlphaBetaFit, OneSizeIsNotEnough) {
  EXPECT_THROW(fit_alpha_beta({{1024, 1e-3}, {1024, 2e-3}}), std::invalid_argument);
  EXPECT_THROW(fit_alpha_beta({{1024, 0}}), std::invalid_argument);
}

}  // namespace
}  // namespace uniference
