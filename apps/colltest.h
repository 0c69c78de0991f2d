// uniference colltest: an nccl-tests-style sweep of one communication operation on a
// scenario's network. Every rank runs the operation on meta tensors (the bytes move through
// ns-3, no data is allocated), warm-up iterations first, each iteration after a barrier; an
// iteration's time is the slowest rank's, as a real sweep measures it per rank.
#pragma once

#include "apps/scenario_check.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace uniference {

struct ColltestOptions {
  std::string op = "all_reduce";  // or all_gather, reduce_scatter, broadcast, reduce,
                                  // all_to_all, gather, scatter, send_recv, barrier
  std::string algorithm;          // empty: the scenario's choice (or the preset's)
  std::vector<std::pair<std::string, std::string>> attributes;  // for `algorithm`
  std::string preset;             // empty: the scenario's
  int ranks = 0;                  // 0: the scenario's number of ranks
  uint64_t min_bytes = 1 << 10;
  uint64_t max_bytes = 1 << 20;
  double step_factor = 2;
  int warmup = 1;
  int iters = 3;
};

struct ColltestRow {
  std::string op;
  int ranks = 0;
  uint64_t bytes = 0;  // nccl-tests' S
  uint64_t count = 0;  // float32 elements of S
  std::string algorithm;
  double time_s = 0;
  double algbw_gbps = 0;  // GB/s
  double busbw_gbps = 0;
};

// The operations colltest knows, in the order --help lists them.
const std::vector<std::string>& colltest_ops();

// Checks the options against the scenario (throws ScenarioError / std::invalid_argument with
// the reason) and runs the sweep; `progress` is told of each size as it starts.
std::vector<ColltestRow> run_colltest(const CheckedScenario& scenario, const ColltestOptions& options,
                                      const std::function<void(uint64_t bytes)>& progress = {});

// nccl-tests' table: size, count, type, algorithm, time, algbw, busbw.
std::string colltest_table(const std::vector<ColltestRow>& rows);
// op,ranks,bytes,algorithm,time_s,algbw_GBps,busbw_GBps
std::string colltest_csv(const std::vector<ColltestRow>& rows);
// Writes a gnuplot PNG of bus bandwidth against size; throws if gnuplot is missing or fails.
void plot_colltest(const std::vector<ColltestRow>& rows, const std::string& png_path);

// "64K", "1M", "2G" (powers of 1024) or plain bytes; throws std::invalid_argument.
uint64_t parse_byte_count(const std::string& text);

}  // namespace uniference
