// The backend-free half of an nccl-tests-style sweep: which sizes, what one iteration of each
// operation does on a Comm, and how iteration times become rows (time, algbw, busbw). The
// simulator (colltest.h) and real deployments (uniference colltest --backend gloo) run the
// same sweep, so their rows pair size by size.
#pragma once

#include "compute/comm.h"

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
  std::string backend;            // empty: simulated; "gloo", "nccl": real processes
  int ranks = 0;                  // 0: the scenario's number of ranks
  std::vector<uint64_t> sizes;    // the sizes to run, in order; empty: min..max by step
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

// Throws std::invalid_argument for an unknown operation, fewer than 2 ranks or a bad range.
void check_colltest(const ColltestOptions& options, int ranks);

// The sizes S of the sweep (options.sizes, else min_bytes to max_bytes by step_factor), each
// rounded down to what the operation splits evenly.
std::vector<uint64_t> sweep_sizes(const ColltestOptions& options, int ranks);

// One rank's sweep: for every size, warm-up then timed iterations, each after a barrier.
// Returns elapsed[size][iteration] in the nanoseconds of `clock`. Tensors have `options`
// (meta for a data-free simulation, CPU for a real backend).
std::vector<std::vector<int64_t>> run_sweep(Comm& comm, const ColltestOptions& options,
                                            const std::vector<uint64_t>& sizes,
                                            const at::TensorOptions& tensors,
                                            const std::function<int64_t()>& clock,
                                            const std::function<void(uint64_t)>& progress = {});

// nccl-tests' bus bandwidth factor: algbw x factor = busbw.
double bus_bandwidth_factor(const std::string& op, int ranks);

// Rows from every rank's elapsed times (elapsed[rank][size][iteration]): an iteration takes
// its slowest rank's time, a size the mean over the timed iterations. `algorithm(bytes)`
// names what ran.
std::vector<ColltestRow> sweep_rows(const ColltestOptions& options, int ranks,
                                    const std::vector<uint64_t>& sizes,
                                    const std::vector<std::vector<std::vector<int64_t>>>& elapsed,
                                    const std::function<std::string(uint64_t)>& algorithm);

// nccl-tests' table: size, count, type, algorithm, time, algbw, busbw.
std::string colltest_table(const std::vector<ColltestRow>& rows);
// op,ranks,bytes,algorithm,time_s,algbw_GBps,busbw_GBps
std::string colltest_csv(const std::vector<ColltestRow>& rows);
// Writes a gnuplot PNG of bus bandwidth against size; throws if gnuplot is missing or fails.
// `label` names the line ("simulated", "gloo").
void plot_colltest(const std::vector<ColltestRow>& rows, const std::string& png_path,
                   const std::string& label);

// "64K", "1M", "2G" (powers of 1024) or plain bytes; throws std::invalid_argument.
uint64_t parse_byte_count(const std::string& text);

}  // namespace uniference
