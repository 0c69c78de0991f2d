// The collective-long-links example run as a user runs it, its times checked against the
// links' physics. Every path crosses the hub: two links of delay d, so a message takes 2d to
// arrive and a TCP connection opens in a round trip (SYN out, SYN-ACK back: 4d) before its
// first message leaves.
//  - Latency-bound (small buffer, 20 ms links): the ring opens one connection (to its
//    successor) and runs 2(n-1) steps; recursive halving-doubling opens one per halving step
//    (log2 n new partners; doubling reuses them) and runs 2 log2 n steps. Serialisation is
//    well under 1% of the time.
//  - Bandwidth-bound (1 MiB, 10 us links): no all-reduce beats 2(n-1)/n S / B, with B the
//    payload rate TCP leaves of the link (1448 payload bytes in 1502 on the wire: TCP with
//    timestamps 32, IPv4 20, PPP 2); ring and halving-doubling reach it within 5%.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "example_run.h"

namespace {

using uniference::examples::ExampleRun;
using uniference::examples::run_example;

struct Result {
  double time_s;
  double busbw;  // MB/s
};

/// \return per algorithm, the time and bus bandwidth the example printed
std::map<std::string, Result> results_of(const std::string& args, uint64_t bytes, int stations) {
  const ExampleRun run = run_example(EXAMPLE_BINARY, args);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  std::map<std::string, Result> results;
  for (const std::vector<std::string>& row : run.rows) {
    EXPECT_EQ(row.size(), 3u) << run.output;
    if (row.size() != 3) continue;
    const Result result{std::stod(row[1]) / 1e3, std::stod(row[2])};
    // busbw = S / t x 2(n-1)/n, printed in MB/s to 3 decimals from the unrounded time.
    const double busbw = bytes / result.time_s * 2.0 * (stations - 1) / stations / 1e6;
    EXPECT_NEAR(result.busbw, busbw, 1e-3 + busbw * 1e-5) << row[0];
    results[row[0]] = result;
  }
  return results;
}

TEST(CollectiveLongLinksExample, SmallAllReducesTakeTheirHandshakesAndStepsAcrossTheHub) {
  constexpr int n = 8;
  constexpr double d = 20e-3;
  const auto results = results_of(
      "--algorithms=ring,halving_doubling --bytes=8192 --stations=8 --rate=100Mbps "
      "--delay=20ms",
      8192, n);
  ASSERT_EQ(results.size(), 2u);
  const double ring = 4 * d + 2 * (n - 1) * 2 * d;            // 640 ms
  const double halving_doubling = 3 * 4 * d + 2 * 3 * 2 * d;  // 480 ms
  EXPECT_NEAR(results.at("ring").time_s, ring, ring * 0.01);
  EXPECT_NEAR(results.at("halving_doubling").time_s, halving_doubling, halving_doubling * 0.01);
}

TEST(CollectiveLongLinksExample, LargeAllReducesAreBoundByTheLinkRate) {
  constexpr int n = 4;
  constexpr double bytes = 1 << 20;
  constexpr double payload_rate = 100e6 / 8 * 1448 / 1502;  // bytes/s
  const double bound = 2.0 * (n - 1) / n * bytes / payload_rate;
  const auto results = results_of(
      "--algorithms=ring,halving_doubling,tree --bytes=1048576 "
      "--stations=4 --rate=100Mbps --delay=10us",
      1 << 20, n);
  ASSERT_EQ(results.size(), 3u);
  for (const auto& [algorithm, result] : results) {
    EXPECT_GE(result.time_s, bound) << algorithm << " beats the link rate";
  }
  EXPECT_LE(results.at("ring").time_s, 1.05 * bound);
  EXPECT_LE(results.at("halving_doubling").time_s, 1.05 * bound);
}

TEST(CollectiveLongLinksExample, RefusesAnUnknownAlgorithm) {
  const ExampleRun run = run_example(EXAMPLE_BINARY, "--algorithms=ring,nonesuch");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("nonesuch"), std::string::npos) << run.output;
}

}  // namespace
