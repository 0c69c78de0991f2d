#include "apps/colltest_sweep.h"

#include "apps/units.h"

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

// The operation colltest sweeps under `name` ("send_recv" is nccl-tests' name for send and
// recv); nullptr if none.
const CollectiveDescription* swept(const std::string& name) {
  for (const CollectiveDescription& op : collective_descriptions()) {
    if (op.colltest_name != nullptr && name == op.colltest_name) return &op;
  }
  return nullptr;
}

// One iteration of the operation on the call its description made for the size.
void run_once(Comm& comm, const CommCall& call) {
  if (call.op != OpType::kSend) {
    comm.issue(call)->wait();
    return;
  }
  // nccl-tests' sendrecv: every rank sends to the next and receives from the previous. The
  // receive is posted first: Gloo's pair sends a "ready to receive" notice through the
  // same ordered queue as its data, and a send waits for the peer's notice, so a rank
  // whose send starts first would hold its own notice behind its whole message, and the
  // two directions of a 2-rank exchange would run one after the other.
  const int n = comm.size();
  at::Tensor into = call.output;
  WorkPtr received = comm.irecv(into, (comm.rank() + n - 1) % n);
  WorkPtr sent = comm.isend(call.input, (comm.rank() + 1) % n);
  sent->wait();
  received->wait();
}

// S rounded down to what the operation can split evenly (whole float32 elements per rank).
uint64_t usable_bytes(const CollectiveDescription& op, uint64_t bytes, int n) {
  const uint64_t unit = kElement * (op.colltest_blocks ? uint64_t(n) : 1);
  return op.bus_bandwidth == BusBandwidth::kNone ? 0 : bytes / unit * unit;
}

}  // namespace

const std::vector<std::string>& colltest_ops() {
  static const std::vector<std::string> ops = [] {
    std::vector<std::string> names;
    for (const CollectiveDescription& op : collective_descriptions()) {
      if (op.colltest_name != nullptr) names.push_back(op.colltest_name);
    }
    return names;
  }();
  return ops;
}

void check_colltest(const ColltestOptions& options, int ranks) {
  const std::string& op = options.op;
  if (swept(op) == nullptr) {
    std::string known;
    for (const std::string& o : colltest_ops()) known += (known.empty() ? "" : ", ") + o;
    throw std::invalid_argument("unknown --op " + op + "; known: " + known);
  }
  if (ranks < 2) {
    throw std::invalid_argument("colltest needs at least 2 ranks (give --ranks)");
  }
  if (options.min_bytes > options.max_bytes || options.step_factor <= 1 || options.iters < 1 ||
      options.warmup < 0) {
    throw std::invalid_argument(
        "need --min-bytes <= --max-bytes, --step-factor > 1, --iters >= 1, --warmup >= 0");
  }
}

std::vector<uint64_t> sweep_sizes(const ColltestOptions& options, int ranks) {
  std::vector<uint64_t> sizes;
  if (!options.sizes.empty()) {
    for (uint64_t bytes : options.sizes) sizes.push_back(usable_bytes(*swept(options.op), bytes, ranks));
    return sizes;
  }
  for (double s = double(options.min_bytes); s <= double(options.max_bytes) * (1 + 1e-9);
       s *= options.step_factor) {
    const uint64_t bytes = usable_bytes(*swept(options.op), uint64_t(s), ranks);
    if (sizes.empty() || bytes != sizes.back()) sizes.push_back(bytes);
    if (swept(options.op)->bus_bandwidth == BusBandwidth::kNone) break;  // a barrier: one row
  }
  return sizes;
}

std::vector<std::vector<int64_t>> run_sweep(Comm& comm, const ColltestOptions& options,
                                            const std::vector<uint64_t>& sizes,
                                            const at::TensorOptions& tensors,
                                            const std::function<int64_t()>& clock,
                                            const std::function<void(uint64_t)>& progress) {
  const int total = options.warmup + options.iters;
  std::vector<std::vector<int64_t>> elapsed(sizes.size(), std::vector<int64_t>(size_t(total)));
  for (size_t k = 0; k < sizes.size(); ++k) {
    if (comm.rank() == 0 && progress) progress(sizes[k]);
    const CommCall call = swept(options.op)->colltest_call(
        static_cast<int64_t>(sizes[k] / kElement), comm.size(), tensors);
    for (int i = 0; i < total; ++i) {
      comm.barrier();
      const int64_t start = clock();
      run_once(comm, call);
      elapsed[k][size_t(i)] = clock() - start;
    }
  }
  return elapsed;
}

double bus_bandwidth_factor(const std::string& op, int ranks) {
  const CollectiveDescription* described = swept(op);
  if (described == nullptr) throw std::invalid_argument("colltest does not sweep " + op);
  return bus_bandwidth_factor(described->bus_bandwidth, ranks);
}

std::vector<ColltestRow> sweep_rows(const ColltestOptions& options, int ranks,
                                    const std::vector<uint64_t>& sizes,
                                    const std::vector<std::vector<std::vector<int64_t>>>& elapsed,
                                    const std::function<std::string(uint64_t)>& algorithm) {
  const int total = options.warmup + options.iters;
  std::vector<ColltestRow> rows;
  for (size_t k = 0; k < sizes.size(); ++k) {
    double sum = 0;
    for (int i = options.warmup; i < total; ++i) {
      int64_t slowest = 0;
      for (const auto& rank : elapsed) slowest = std::max(slowest, rank.at(k).at(size_t(i)));
      sum += double(slowest) * 1e-9;
    }
    ColltestRow row;
    row.op = options.op;
    row.ranks = ranks;
    row.bytes = sizes[k];
    row.count = sizes[k] / kElement;
    row.algorithm = algorithm(sizes[k]);
    row.time_s = sum / options.iters;
    row.algbw_gbps = row.time_s > 0 ? double(row.bytes) / row.time_s / 1e9 : 0;
    row.busbw_gbps = row.algbw_gbps * bus_bandwidth_factor(options.op, ranks);
    rows.push_back(row);
  }
  return rows;
}

uint64_t parse_byte_count(const std::string& text) {
  size_t used = 0;
  const double value = leading_number(text, &used);
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

void plot_colltest(const std::vector<ColltestRow>& rows, const std::string& png_path,
                   const std::string& label) {
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
        << "plot '" << data << "' using 1:2 with linespoints title '" << label << "'\n";
  }
  const int status = std::system(("gnuplot '" + script + "'").c_str());
  std::filesystem::remove(data);
  std::filesystem::remove(script);
  if (status != 0) throw std::runtime_error("gnuplot failed to write " + png_path);
}

}  // namespace uniference
