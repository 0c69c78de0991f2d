// The `thz` wide-area model as a run builds it from scenarios/edge-cloud-thz.json: the rate
// its channel carries is the link budget's Shannon capacity, and over a long stretch of time
// the beam is out the share of it that alternating exponential clear spells and blockages,
// each followed by a fixed beam recovery, give in closed form. (link-impairment-test-suite.cc
// tests ns3::FadeCondition with parameters of its own; NetworkSetup checks the rate the reports
// state. Here it is the thz entry's 2 s, 0.3 s and 20 ms, wired as a run wires them.) And
// the scenario's /network/wan/fade keys, which replace that blockage, reaching the channel.
#include "apps/scenario_check.h"
#include "apps/test/shipped_scenario.h"
#include "bridge/network_registry.h"

#include <gtest/gtest.h>
#include <ns3/channel-list.h>
#include <ns3/fade-condition.h>
#include <ns3/rng-seed-manager.h>
#include <ns3/simulator.h>
#include <ns3/varying-link-channel.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <vector>

namespace uniference {
namespace {

// The wide-area channel of the edge-cloud topology built from `config` for two ranks.
ns3::Ptr<ns3::VaryingLinkChannel> build_wan(const NetworkConfig& config) {
  topologies().at("edge-cloud").build(config, 2);
  for (uint32_t i = 0; i < ns3::ChannelList::GetNChannels(); ++i) {
    if (auto wan = ns3::DynamicCast<ns3::VaryingLinkChannel>(ns3::ChannelList::GetChannel(i))) return wan;
  }
  return nullptr;
}

// Link budget: C = B log2(1 + SNR), SNR = 10^(dB / 10). The shipped 10 dB is an SNR of 10,
// where reading the dB as the ratio gives the same rate, so 20 dB (SNR 100) is checked too.
TEST(ThzLink, RunsAtTheShannonRateOfItsBudget) {
  for (const double snr_db : {10.0, 20.0}) {
    nlohmann::json document = test::shipped("edge-cloud-thz.json");
    document["network"]["wan"]["budget"]["snr_db"] = snr_db;
    const Scenario scenario = parse_scenario(document, "thz.json");
    const ns3::Ptr<ns3::VaryingLinkChannel> wan = build_wan(check_scenario(scenario).network);
    ASSERT_NE(wan, nullptr);
    // 172.97 Gbit/s at 10 dB, 332.92 at 20 dB, each way; the first spell is clear.
    const double shannon = 50e9 * std::log2(1 + std::pow(10.0, snr_db / 10));
    EXPECT_NEAR(double(wan->GetRateAt(0, ns3::MilliSeconds(1)).GetBitRate()), shannon, 1.0) << snr_db;
    EXPECT_NEAR(double(wan->GetRateAt(1, ns3::MilliSeconds(1)).GetBitRate()), shannon, 1.0) << snr_db;
    ns3::Simulator::Destroy();
  }
}

TEST(ThzLink, IsOutTheClosedFormShareOfTheTime) {
  const Scenario scenario = parse_scenario(test::shipped("edge-cloud-thz.json"), "thz.json");
  ns3::RngSeedManager::SetSeed(uint32_t(scenario.seed));
  const ns3::Ptr<ns3::VaryingLinkChannel> wan = build_wan(check_scenario(scenario).network);
  ASSERT_NE(wan, nullptr);

  // Blockage (wan_models.cpp, human_blockage): clear spells of mean 1/lambda = 2 s, blockages
  // of mean D = 0.3 s, both exponential, each blockage followed by R = 20 ms of beam recovery
  // with the link still out. A cycle is out for B = D' + R (D' ~ Exp(D)) and clear for
  // C ~ Exp(1/lambda), so the long-run out share is E[B] / (E[B] + E[C]) =
  // lambda (D + R) / (1 + lambda (D + R)) (0.1379; lambda D / (1 + lambda D) without R).
  const double lambda = 0.5, d = 0.3, r = 0.020;
  const double mean_cycle = 1 / lambda + d + r;
  const double expected_share = lambda * (d + r) / (1 + lambda * (d + r));
  const double horizon_s = 200000;  // about 86,000 cycles
  const auto outages = wan->GetOutages(ns3::Time(0), ns3::Seconds(horizon_s));
  double out_s = 0, shortest_s = horizon_s;
  for (const auto& [from, to] : outages) {
    out_s += (to - from).GetSeconds();
    if (to < ns3::Seconds(horizon_s)) shortest_s = std::min(shortest_s, (to - from).GetSeconds());
  }
  const double cycles = horizon_s / mean_cycle;
  // Bounds at 4.5 standard deviations (a chance of about 1 in 150,000 to fail when right).
  // The out share is a ratio of sums over N cycles; by the delta method its deviation is
  // sqrt(Var(B (1 - f) - C f) / N) / E[cycle], with Var(B) = D^2, Var(C) = 1/lambda^2: 0.0006.
  const double share_sd =
      std::sqrt((std::pow((1 - expected_share) * d, 2) + std::pow(expected_share / lambda, 2)) / cycles) /
      mean_cycle;
  std::cout << outages.size() << " outages (expected " << cycles << "), out " << out_s / horizon_s
            << " of the time (expected " << expected_share << " +- " << share_sd << "), shortest "
            << shortest_s << " s\n";
  EXPECT_NEAR(out_s / horizon_s, expected_share, 4.5 * share_sd)
      << "out " << out_s << " s of " << horizon_s << " s";
  // The number of outages is a renewal count: mean T / E[cycle], variance T Var(cycle) /
  // E[cycle]^3 with Var(cycle) = D^2 + 1/lambda^2.
  const double count_sd = std::sqrt(horizon_s * (d * d + 1 / (lambda * lambda)) / std::pow(mean_cycle, 3));
  EXPECT_NEAR(double(outages.size()), cycles, 4.5 * count_sd);
  // Every outage lasts its blockage and the whole recovery after it; the mean outage is D + R
  // (deviation D / sqrt(N): 1 ms, so a missing 20 ms recovery is 20 deviations off).
  EXPECT_GE(shortest_s, r - 1e-9);
  EXPECT_NEAR(out_s / double(outages.size()), d + r, 4.5 * d / std::sqrt(cycles));
  ns3::Simulator::Destroy();
}

// The scenario path of /network/wan/fade: its keys, in the scenario's units, replace the thz
// model's own blockage in the channel a run builds. An attenuating fade (clear spells of mean
// 1/lambda = 1 s, fades of mean D = 0.25 s at half the rate) makes the channel carry exactly
// two rates, the clear one lambda D / (1 + lambda D) = 0.2 of the time less often; an outage
// fade's recovery keeps every outage at least that long; `false` leaves the link never out.
TEST(WanFade, TheScenariosKeysReachTheChannel) {
  nlohmann::json document = test::shipped("edge-cloud-thz.json");
  document["network"]["wan"]["fade"] = {{"mean_clear", "1s"}, {"mean_fade", "250ms"}, {"rate_factor", 0.5}};
  Scenario scenario = parse_scenario(document, "fade.json");
  ns3::RngSeedManager::SetSeed(uint32_t(scenario.seed));
  const NetworkConfig config = check_scenario(scenario).network;
  ASSERT_TRUE(config.wan.fade.has_value());
  EXPECT_DOUBLE_EQ(config.wan.fade->mean_clear_s, 1.0);
  EXPECT_DOUBLE_EQ(config.wan.fade->mean_fade_s, 0.25);
  EXPECT_DOUBLE_EQ(config.wan.fade->rate_factor, 0.5);
  {
    const ns3::Ptr<ns3::VaryingLinkChannel> wan = build_wan(config);
    ASSERT_NE(wan, nullptr);
    ns3::Ptr<ns3::FadeCondition> fade;
    for (const auto& condition : wan->GetConditions()) {
      if (auto f = ns3::DynamicCast<ns3::FadeCondition>(condition)) fade = f;
    }
    ASSERT_NE(fade, nullptr);
    const uint64_t clear_bps = wan->GetRateAt(0, ns3::MilliSeconds(1)).GetBitRate();
    const double lambda = 1, d = 0.25, horizon_s = 20000;
    const double expected_share = lambda * d / (1 + lambda * d);
    double faded_s = 0;
    size_t other_rates = 0;
    for (ns3::Time t(0); t < ns3::Seconds(horizon_s);) {
      const ns3::Time next = std::min(fade->GetNextRateChange(t), ns3::Seconds(horizon_s));
      const uint64_t bps = wan->GetRateAt(0, t).GetBitRate();
      if (bps == clear_bps / 2) faded_s += (next - t).GetSeconds();
      else if (bps != clear_bps) ++other_rates;
      t = next;
    }
    EXPECT_EQ(other_rates, 0u) << "a faded rate other than half the clear " << clear_bps << " bit/s";
    EXPECT_TRUE(wan->GetOutages(ns3::Time(0), ns3::Seconds(horizon_s)).empty()) << "an attenuating fade is no outage";
    // As in ThzLink: 4.5 deviations of the ratio of sums over about 16,000 cycles (0.003).
    const double mean_cycle = 1 / lambda + d, cycles = horizon_s / mean_cycle;
    const double share_sd =
        std::sqrt((std::pow((1 - expected_share) * d, 2) + std::pow(expected_share / lambda, 2)) / cycles) /
        mean_cycle;
    EXPECT_NEAR(faded_s / horizon_s, expected_share, 4.5 * share_sd);
    ns3::Simulator::Destroy();
  }

  document["network"]["wan"]["fade"] = {{"mean_clear", "2s"}, {"mean_fade", "100ms"}, {"recovery", "0.5s"}};
  scenario = parse_scenario(document, "fade.json");
  {
    const ns3::Ptr<ns3::VaryingLinkChannel> wan = build_wan(check_scenario(scenario).network);
    ASSERT_NE(wan, nullptr);
    const auto outages = wan->GetOutages(ns3::Time(0), ns3::Seconds(2000));
    ASSERT_GT(outages.size(), 500u);  // about 2000 / 2.6 = 770
    double shortest_s = 2000;
    for (size_t i = 0; i + 1 < outages.size(); ++i) {
      shortest_s = std::min(shortest_s, (outages[i].second - outages[i].first).GetSeconds());
    }
    EXPECT_GE(shortest_s, 0.5 - 1e-9) << "every outage holds the scenario's 0.5 s recovery";
    ns3::Simulator::Destroy();
  }

  document["network"]["wan"]["fade"] = false;
  scenario = parse_scenario(document, "fade.json");
  {
    const ns3::Ptr<ns3::VaryingLinkChannel> wan = build_wan(check_scenario(scenario).network);
    ASSERT_NE(wan, nullptr);
    EXPECT_TRUE(wan->GetOutages(ns3::Time(0), ns3::Seconds(2000)).empty()) << "fade false: no blockage";
    ns3::Simulator::Destroy();
  }
}

}  // namespace
}  // namespace uniference
