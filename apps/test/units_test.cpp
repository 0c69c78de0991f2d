// Data rates and durations, against values computed by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "apps/scenario.h"

namespace uniference {
namespace {

uint64_t rate(const char* text) {
  uint64_t bps = 0;
  EXPECT_TRUE(parse_data_rate(text, &bps)) << text;
  return bps;
}

int64_t duration(const char* text) {
  int64_t ns = 0;
  EXPECT_TRUE(parse_duration(text, &ns)) << text;
  return ns;
}

TEST(Units, DataRates) {
  EXPECT_EQ(rate("1Gbps"), 1000000000u);
  EXPECT_EQ(rate("2.5Mb/s"), 2500000u);
  EXPECT_EQ(rate("100Mbps"), 100000000u);
  EXPECT_EQ(rate("10Kbps"), 10000u);
  EXPECT_EQ(rate("10kb/s"), 10000u);
  EXPECT_EQ(rate("1500bps"), 1500u);
  EXPECT_EQ(rate("1500b/s"), 1500u);
  EXPECT_EQ(rate("1500"), 1500u);  // a bare number is bit/s, as in ns-3
  EXPECT_EQ(rate("1Bps"), 8u);
  EXPECT_EQ(rate("1KB/s"), 8000u);
  EXPECT_EQ(rate("1kBps"), 8000u);
  EXPECT_EQ(rate("1Kib/s"), 1024u);
  EXPECT_EQ(rate("1KiB/s"), 8192u);
  EXPECT_EQ(rate("3Mib/s"), 3u * 1024 * 1024);
  EXPECT_EQ(rate("1.25GB/s"), 10000000000u);
  EXPECT_EQ(rate("10Gib/s"), uint64_t(10) << 30);
  EXPECT_EQ(rate("0.8Tbps"), 800000000000u);
  // Exact decimal arithmetic: 0.3 * 1e6 in binary floating point truncates to 299999.
  EXPECT_EQ(rate("0.3Mbps"), 300000u);
  EXPECT_EQ(rate("33.333333Mbps"), 33333333u);
  EXPECT_EQ(rate("0Gbps"), 0u);  // parses; the scenario rejects it with its path
  EXPECT_EQ(rate("18446744073709551615bps"), std::numeric_limits<uint64_t>::max());
}

TEST(Units, BadDataRates) {
  uint64_t bps = 0;
  for (const char* text :
       {"", "Gbps", "1 Gbps", "1gbps", "1Gbit", "-1Gbps", "+1Gbps", "1e9", "1.Gbps", ".5Gbps",
        "1,5Mbps", "1Gbps ", "1.5bps", "0.1KiB/s", "18446744073709551616bps", "20000000000Gbps"}) {
    EXPECT_FALSE(parse_data_rate(text, &bps)) << text;
  }
}

TEST(Units, Durations) {
  EXPECT_EQ(duration("50us"), 50000);
  EXPECT_EQ(duration("1.5ms"), 1500000);
  EXPECT_EQ(duration("7ns"), 7);
  EXPECT_EQ(duration("2s"), 2000000000);
  EXPECT_EQ(duration("0.000001s"), 1000);
  EXPECT_EQ(duration("0.001us"), 1);
  EXPECT_EQ(duration("9223372036.854775807s"), std::numeric_limits<int64_t>::max());
}

TEST(Units, BadDurations) {
  int64_t ns = 0;
  for (const char* text : {"", "50", "us", "50 us", "50sec", "1min", "-5us", "0.5ns", "1e3ns",
                           "0.0001us", "9223372036.854775808s"}) {
    EXPECT_FALSE(parse_duration(text, &ns)) << text;
  }
}

}  // namespace
}  // namespace uniference
