// The leo-pass example run as a user runs it: each request's one-way delay is two slant
// ranges to a satellite on a 550 km circular orbit at the request's elevation (computed here
// from the triangle Earth centre - station - satellite) plus its serialisation on the 20 Mbit/s
// uplink, and exactly the requests sent in a handover's outage (every 15 s, 50 ms) are lost.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "example_run.h"

namespace {

constexpr double kEarthRadius = 6371e3;
constexpr double kAltitude = 550e3;
constexpr double kLight = 299792458.0;
// A 64-byte echo request with UDP (8), IPv4 (20) and PPP (2) headers at 20 Mbit/s.
constexpr double kSerialisationMs = (64 + 8 + 20 + 2) * 8 / 20e6 * 1e3;

// Law of cosines in the triangle Earth centre - station - satellite, solved for the side
// station - satellite, given the angle at the station (90 degrees + elevation).
double slant_range(double elevation_deg) {
  const double e = elevation_deg * M_PI / 180;
  const double r = kEarthRadius + kAltitude;
  // r^2 = R^2 + d^2 + 2 R d sin(e)  =>  d = -R sin(e) + sqrt(R^2 sin^2(e) + r^2 - R^2)
  const double s = kEarthRadius * std::sin(e);
  return -s + std::sqrt(s * s + r * r - kEarthRadius * kEarthRadius);
}

TEST(LeoPassExample, OneWayDelaysFollowTheSlantRangeAndHandoversLoseTheirRequests) {
  const uniference::examples::ExampleRun run =
      uniference::examples::run_example(EXAMPLE_BINARY, "--handoverOutage=50ms --interval=5s");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  int delivered = 0;
  int lost = 0;
  for (const std::vector<std::string>& row : run.rows) {
    ASSERT_EQ(row.size(), 3u) << run.output;
    const double sent = std::stod(row[0]);
    const double elevation = std::stod(row[1]);
    const std::string& delay = row[2];
    const std::string line = row[0] + " " + row[1] + " " + row[2];
    const bool in_outage = std::fmod(sent, 15.0) < 0.05 && sent >= 15.0;
    if (delay == "lost") {
      ++lost;
      EXPECT_TRUE(in_outage) << "lost outside an outage: " << line;
      continue;
    }
    ++delivered;
    EXPECT_FALSE(in_outage) << "delivered from an outage: " << line;
    const double expected_ms = 2 * slant_range(elevation) / kLight * 1e3 + kSerialisationMs;
    EXPECT_NEAR(std::stod(delay), expected_ms, expected_ms * 0.01) << line;
  }
  // A 269 s pass pinged every 5 s: 54 requests, the 17 at 15 s, 30 s, ... lost.
  EXPECT_EQ(lost, 17);
  EXPECT_EQ(delivered, 54 - 17);
}

}  // namespace
