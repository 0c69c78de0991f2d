#include "apps/colltest.h"

#include "bridge/collective_ops.h"
#include "bridge/network_registry.h"
#include "bridge/sim_cluster.h"
#include "bridge/this_lp.h"

#include <ns3/collective-helper.h>
#include <ns3/scheduled-collective.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace uniference {

namespace {

constexpr uint64_t kElement = 4;  // float32, as nccl-tests' default type

// One iteration of the operation on meta tensors of S = `bytes`.
void run_once(Comm& comm, const std::string& op, uint64_t bytes) {
  const int n = comm.size();
  const int64_t count = static_cast<int64_t>(bytes / kElement);
  const auto meta = at::TensorOptions().dtype(at::kFloat).device(at::kMeta);
  if (op == "all_reduce") {
    at::Tensor t = at::empty({count}, meta);
    comm.all_reduce(t);
  } else if (op == "broadcast") {
    at::Tensor t = at::empty({count}, meta);
    comm.broadcast(t, 0);
  } else if (op == "reduce") {
    at::Tensor t = at::empty({count}, meta);
    comm.reduce(t, 0);
  } else if (op == "all_gather") {
    at::Tensor in = at::empty({count / n}, meta), out = at::empty({count / n * n}, meta);
    comm.all_gather(out, in);
  } else if (op == "gather") {
    at::Tensor in = at::empty({count / n}, meta), out = at::empty({count / n * n}, meta);
    comm.gather(out, in, 0);
  } else if (op == "reduce_scatter") {
    at::Tensor in = at::empty({count / n * n}, meta), out = at::empty({count / n}, meta);
    comm.reduce_scatter(out, in);
  } else if (op == "scatter") {
    at::Tensor in = at::empty({count / n * n}, meta), out = at::empty({count / n}, meta);
    comm.scatter(out, in, 0);
  } else if (op == "all_to_all") {
    at::Tensor in = at::empty({count / n * n}, meta), out = at::empty({count / n * n}, meta);
    comm.all_to_all(out, in);
  } else if (op == "send_recv") {
    // nccl-tests' sendrecv: every rank sends to the next and receives from the previous.
    at::Tensor out = at::empty({count}, meta), in = at::empty({count}, meta);
    WorkPtr sent = comm.isend(out, (comm.rank() + 1) % n);
    WorkPtr received = comm.irecv(in, (comm.rank() + n - 1) % n);
    sent->wait();
    received->wait();
  } else {
    comm.barrier();
  }
}

// S rounded down to what the operation can split evenly (whole float32 elements per rank).
uint64_t usable_bytes(const std::string& op, uint64_t bytes, int n) {
  const bool blocks = op == "all_gather" || op == "gather" || op == "reduce_scatter" ||
                      op == "scatter" || op == "all_to_all";
  const uint64_t unit = kElement * (blocks ? uint64_t(n) : 1);
  return op == "barrier" ? 0 : bytes / unit * unit;
}

}  // namespace

const std::vector<std::string>& colltest_ops() {
  static const std::vector<std::string> ops = {"all_reduce", "all_gather", "reduce_scatter",
                                               "broadcast",  "reduce",     "all_to_all",
                                               "gather",     "scatter",    "send_recv",
                                               "barrier"};
  return ops;
}

uint64_t parse_byte_count(const std::string& text) {
  size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  uint64_t scale = 1;
  const std::string suffix = text.substr(used);
  if (suffix == "K" || suffix == "KiB") scale = 1ull << 10;
  else if (suffix == "M" || suffix == "MiB") scale = 1ull << 20;
  else if (suffix == "G" || suffix == "GiB") scale = 1ull << 30;
  else if (!suffix.empty()) used = 0;
  if (used == 0 || value < 0) {
    throw std::invalid_argument("expected a byte count such as 4096, 64K, 1M or 2G, found \"" +
                                text + "\"");
  }
  return static_cast<uint64_t>(std::llround(value * double(scale)));
}

std::vector<ColltestRow> run_colltest(const CheckedScenario& scenario, const ColltestOptions& options,
                                      const std::function<void(uint64_t)>& progress) {
  const std::string& op = options.op;
  if (std::find(colltest_ops().begin(), colltest_ops().end(), op) == colltest_ops().end()) {
    std::string known;
    for (const std::string& o : colltest_ops()) known += (known.empty() ? "" : ", ") + o;
    throw std::invalid_argument("unknown --op " + op + "; known: " + known);
  }
  const int n = options.ranks > 0 ? options.ranks : scenario.ranks;
  if (n < 2) {
    throw std::invalid_argument("colltest needs at least 2 ranks (the scenario has " +
                                std::to_string(scenario.ranks) + "; give --ranks)");
  }
  if (options.min_bytes > options.max_bytes || options.step_factor <= 1 || options.iters < 1 ||
      options.warmup < 0) {
    throw std::invalid_argument(
        "need --min-bytes <= --max-bytes, --step-factor > 1, --iters >= 1, --warmup >= 0");
  }
  NetworkConfig network = scenario.network;
  if (!options.preset.empty()) {
    collective_presets().at(options.preset);
    network.collective_preset = options.preset;
    network.collectives.clear();  // the preset decides every operation
  }
  const CollectiveOp* collective = find_collective_op(op);
  if (!options.algorithm.empty()) {
    if (collective == nullptr) throw std::invalid_argument("--algorithm: " + op + " has no algorithms");
    if (!ns3::CollectiveHelper::IsRegistered(op, options.algorithm)) {
      std::string known;
      for (const std::string& a : ns3::CollectiveHelper::GetAlgorithms(op)) {
        known += (known.empty() ? "" : ", ") + a;
      }
      throw std::invalid_argument("unknown --algorithm " + options.algorithm + " for " + op +
                                  "; known: " + known);
    }
    network.collectives[collective->op] = CollectiveChoice{options.algorithm, options.attributes};
  }

  std::vector<uint64_t> sizes;
  for (double s = double(options.min_bytes); s <= double(options.max_bytes) * (1 + 1e-9);
       s *= options.step_factor) {
    const uint64_t bytes = usable_bytes(op, uint64_t(s), n);
    if (sizes.empty() || bytes != sizes.back()) sizes.push_back(bytes);
    if (op == "barrier") break;
  }
  const int total = options.warmup + options.iters;
  // elapsed[size][iteration][rank]
  std::vector<std::vector<std::vector<int64_t>>> elapsed(
      sizes.size(), std::vector<std::vector<int64_t>>(size_t(total), std::vector<int64_t>(size_t(n))));
  SimCluster cluster(network);
  for (int r = 0; r < n; ++r) {
    // Modeled compute: the shard code between calls is bookkeeping on meta tensors.
    cluster.add_rank(make_modeled_meter(scenario.device), [&](Comm& comm) {
      for (size_t k = 0; k < sizes.size(); ++k) {
        if (comm.rank() == 0 && progress) progress(sizes[k]);
        for (int i = 0; i < total; ++i) {
          comm.barrier();
          const int64_t start = this_lp::clock_ns();
          run_once(comm, op, sizes[k]);
          elapsed[k][size_t(i)][size_t(comm.rank())] = this_lp::clock_ns() - start;
        }
      }
    });
  }
  RunOutcome outcome = cluster.run();
  if (outcome.status != RunOutcome::Status::kCompleted) throw std::runtime_error(outcome.report);

  // The algorithm column names what the run chose: the same selection SimCluster made.
  CollectiveSelection selection{network.collectives, network.collective_preset,
                                link_facts(network, uint32_t(n))};
  std::vector<ColltestRow> rows;
  for (size_t k = 0; k < sizes.size(); ++k) {
    double sum = 0;
    for (int i = options.warmup; i < total; ++i) {
      const auto& ranks = elapsed[k][size_t(i)];
      sum += double(*std::max_element(ranks.begin(), ranks.end())) * 1e-9;
    }
    ColltestRow row;
    row.op = op;
    row.ranks = n;
    row.bytes = sizes[k];
    row.count = sizes[k] / kElement;
    row.algorithm = collective ? selection.choose(collective->op, sizes[k], n).algorithm : "p2p";
    row.time_s = sum / options.iters;
    row.algbw_gbps = row.time_s > 0 ? double(row.bytes) / row.time_s / 1e9 : 0;
    row.busbw_gbps = row.algbw_gbps * ns3::ScheduledCollective::GetBusBandwidthFactor(op, uint32_t(n));
    rows.push_back(row);
  }
  return rows;
}

std::string colltest_table(const std::vector<ColltestRow>& rows) {
  std::ostringstream out;
  if (!rows.empty()) out << "# " << rows[0].op << " on " << rows[0].ranks << " ranks\n";
  out << "#" << std::setw(13) << "size" << std::setw(13) << "count" << std::setw(7) << "type"
      << std::setw(18) << "algorithm" << std::setw(13) << "time(us)" << std::setw(10)
      << "algbw" << std::setw(10) << "busbw" << "\n";
  out << "#" << std::setw(13) << "(B)" << std::setw(13) << "(elements)" << std::setw(7) << ""
      << std::setw(18) << "" << std::setw(13) << "" << std::setw(10) << "(GB/s)" << std::setw(10)
      << "(GB/s)" << "\n";
  out << std::fixed;
  for (const ColltestRow& row : rows) {
    out << std::setw(14) << row.bytes << std::setw(13) << row.count << std::setw(7) << "float"
        << std::setw(18) << row.algorithm << std::setw(13) << std::setprecision(1)
        << row.time_s * 1e6 << std::setw(10) << std::setprecision(4) << row.algbw_gbps
        << std::setw(10) << row.busbw_gbps << "\n";
  }
  return out.str();
}

std::string colltest_csv(const std::vector<ColltestRow>& rows) {
  std::ostringstream out;
  out << "op,ranks,bytes,algorithm,time_s,algbw_GBps,busbw_GBps\n" << std::setprecision(9);
  for (const ColltestRow& row : rows) {
    out << row.op << "," << row.ranks << "," << row.bytes << "," << row.algorithm << ","
        << row.time_s << "," << row.algbw_gbps << "," << row.busbw_gbps << "\n";
  }
  return out.str();
}

void plot_colltest(const std::vector<ColltestRow>& rows, const std::string& png_path) {
  if (std::system("command -v gnuplot > /dev/null 2>&1") != 0) {
    throw std::runtime_error("--plot needs gnuplot (Debian: apt-get install gnuplot-nox)");
  }
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::string data = (dir / ("colltest-" + std::to_string(::getpid()) + ".dat")).string();
  const std::string script = data + ".gp";
  {
    std::ofstream out(data);
    for (const ColltestRow& row : rows) out << row.bytes << " " << row.busbw_gbps << "\n";
  }
  {
    std::ofstream out(script);
    const std::string title = rows.empty() ? "" : rows[0].op + ", " + std::to_string(rows[0].ranks) + " ranks";
    out << "set terminal pngcairo size 800,500\nset output '" << png_path << "'\n"
        << "set logscale x 2\nset xlabel 'size (bytes)'\nset ylabel 'bus bandwidth (GB/s)'\n"
        << "set grid\nset title '" << title << "'\n"
        << "plot '" << data << "' using 1:2 with linespoints title 'simulated'\n";
  }
  const int status = std::system(("gnuplot '" + script + "'").c_str());
  std::filesystem::remove(data);
  std::filesystem::remove(script);
  if (status != 0) throw std::runtime_error("gnuplot failed to write " + png_path);
}

}  // namespace uniference
