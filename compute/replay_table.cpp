#include "compute/replay_table.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace uniference {

void ReplayTable::add(const std::string& op, bool matmul, double flops, double bytes, double ns) {
  const Point p{matmul ? flops : bytes, flops, bytes, ns};
  by_op_[op].push_back(p);
  op_is_matmul_[op] = matmul;
  (matmul ? matmul_ : other_).push_back(p);
}

void ReplayTable::sort() {
  const auto by_size = [](const Point& a, const Point& b) {
    return std::tie(a.size, a.ns) < std::tie(b.size, b.ns);
  };
  for (auto& [op, points] : by_op_) std::sort(points.begin(), points.end(), by_size);
  std::sort(matmul_.begin(), matmul_.end(), by_size);
  std::sort(other_.begin(), other_.end(), by_size);
}

ReplayTable ReplayTable::from_timings(const std::vector<OperatorTiming>& timings) {
  std::map<std::tuple<std::string, bool, double, double>, std::vector<double>> samples;
  for (const OperatorTiming& t : timings) samples[{t.op, t.matmul, t.flops, t.bytes}].push_back(t.ns);
  ReplayTable table;
  for (auto& [key, times] : samples) {
    std::nth_element(times.begin(), times.begin() + long(times.size() / 2), times.end());
    table.add(std::get<0>(key), std::get<1>(key), std::get<2>(key), std::get<3>(key),
              times[times.size() / 2]);
  }
  table.sort();
  return table;
}

ReplayTable ReplayTable::parse_csv(const std::string& text, const std::string& source) {
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line.rfind("op,class,flops,bytes,ns", 0) != 0) {
    throw std::invalid_argument(source + ":1: expected the header op,class,flops,bytes,ns");
  }
  ReplayTable table;
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty() || line == "\r") continue;
    std::istringstream cells(line);
    std::string op, kind, flops, bytes, ns;
    std::getline(cells, op, ',');
    std::getline(cells, kind, ',');
    std::getline(cells, flops, ',');
    std::getline(cells, bytes, ',');
    std::getline(cells, ns);
    try {
      size_t used = 0;
      const double f = std::stod(flops), b = std::stod(bytes), t = std::stod(ns, &used);
      if (op.empty() || (kind != "matmul" && kind != "other") || f < 0 || b < 0 || !(t >= 0)) {
        throw std::invalid_argument("bad value");
      }
      table.add(op, kind == "matmul", f, b, t);
    } catch (const std::exception&) {
      throw std::invalid_argument(source + ":" + std::to_string(number) +
                                  ": expected op,matmul|other,flops,bytes,ns with numbers >= 0");
    }
  }
  if (table.matmul_.empty() && table.other_.empty()) {
    throw std::invalid_argument(source + ": the table has no rows");
  }
  table.sort();
  return table;
}

ReplayTable ReplayTable::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot read the replay table");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_csv(text.str(), path);
}

std::string ReplayTable::csv() const {
  std::string out = "op,class,flops,bytes,ns\n";
  char row[128];
  for (const auto& [op, points] : by_op_) {
    for (const Point& p : points) {
      std::snprintf(row, sizeof row, ",%s,%.0f,%.0f,%.0f\n", op_is_matmul_.at(op) ? "matmul" : "other",
                    p.flops, p.bytes, p.ns);
      out += op + row;
    }
  }
  return out;
}

size_t ReplayTable::rows() const { return matmul_.size() + other_.size(); }

double ReplayTable::interpolate(const std::vector<Point>& points, double size) {
  if (size <= points.front().size) return points.front().ns;
  const auto above = std::lower_bound(points.begin(), points.end(), size,
                                      [](const Point& p, double s) { return p.size < s; });
  if (above != points.end()) {
    const Point& hi = *above;
    const Point& lo = *(above - 1);
    if (hi.size == lo.size) return hi.ns;
    return lo.ns + (hi.ns - lo.ns) * (size - lo.size) / (hi.size - lo.size);
  }
  const Point& last = points.back();
  if (last.size <= 0) return last.ns;
  if (points.size() == 1 || last.size == points[points.size() - 2].size) {
    return last.ns * size / last.size;
  }
  const Point& before = points[points.size() - 2];
  const double slope = std::max(0.0, (last.ns - before.ns) / (last.size - before.size));
  return last.ns + slope * (size - last.size);
}

double ReplayTable::ns(const std::string& op, bool matmul, double flops, double bytes) const {
  const double size = matmul ? flops : bytes;
  const auto it = by_op_.find(op);
  if (it != by_op_.end() && op_is_matmul_.at(op) == matmul) return interpolate(it->second, size);
  const std::vector<Point>& pool = matmul ? matmul_ : other_;
  if (pool.empty()) {
    throw std::runtime_error("the replay table has no timing for " + op + " nor any " +
                             (matmul ? "matrix product" : "operator of its class"));
  }
  return interpolate(pool, size);
}

}  // namespace uniference
