// Replay: per-operator times measured on a real device (`uniference profile`), charged back
// in simulation by operator name and size. A table is a CSV file:
//
//   op,class,flops,bytes,ns
//   aten::linear,matmul,2097152,1114112,91234
//
// one row per measured (operator, size): its FLOPs and bytes as the modeled meter counts
// them, and the median wall time. An operator is charged by interpolating its own rows
// along its size (FLOPs for matrix products, bytes for the rest): linearly between the two
// rows around it, the smallest row's time below them (small operators cost their launch),
// and along the last two rows' slope above them. An operator the table does not name is
// charged from every row of its class together.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace uniference {

struct OperatorTiming {
  std::string op;        // "aten::linear"
  bool matmul = false;   // class: matrix product, or everything else
  double flops = 0;
  double bytes = 0;
  double ns = 0;         // wall time
};

class ReplayTable {
 public:
  // Rows as measured; several of one (op, flops, bytes) become their median.
  static ReplayTable from_timings(const std::vector<OperatorTiming>& timings);
  // Throws std::invalid_argument naming `source` and the line of a bad row.
  static ReplayTable parse_csv(const std::string& text, const std::string& source);
  static ReplayTable load(const std::string& path);

  std::string csv() const;
  size_t rows() const;

  // The nanoseconds to charge. Throws std::runtime_error when the table has no row of the
  // operator's class.
  double ns(const std::string& op, bool matmul, double flops, double bytes) const;

 private:
  struct Point {
    double size;  // FLOPs or bytes, by class
    double flops, bytes, ns;
  };
  void add(const std::string& op, bool matmul, double flops, double bytes, double ns);
  void sort();
  static double interpolate(const std::vector<Point>& points, double size);

  std::map<std::string, std::vector<Point>> by_op_;
  std::map<std::string, bool> op_is_matmul_;
  std::vector<Point> matmul_, other_;  // every row of each class
};

}  // namespace uniference
