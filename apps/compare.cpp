#include "apps/compare.h"

#include "apps/atomic_file.h"
#include "apps/report.h"
#include "apps/units.h"
#include "bridge/collective_presets.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace uniference {

namespace {

std::string format_bytes_binary(uint64_t bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB"};
  size_t unit = 0;
  double value = double(bytes);
  while (unit + 1 < 4 && value >= 1024) value /= 1024, ++unit;
  char text[32];
  std::snprintf(text, sizeof text, value == std::floor(value) ? "%.0f %s" : "%.1f %s", value, kUnits[unit]);
  return text;
}

// Cases of whole runs (compare_end_to_end) have no size.
bool end_to_end(const std::vector<ComparedCase>& cases) {
  return std::all_of(cases.begin(), cases.end(), [](const ComparedCase& c) { return c.measured.bytes == 0; });
}

// A case's ranks, "-" where two measurements of whole runs were compared (neither says).
std::string ranks_text(const ComparedCase& c) { return c.measured.ranks > 0 ? std::to_string(c.measured.ranks) : "-"; }

// The cases of at least `large_bytes`.
std::vector<ComparedCase> large(const std::vector<ComparedCase>& cases, uint64_t large_bytes) {
  std::vector<ComparedCase> out;
  for (const ComparedCase& c : cases) {
    if (c.measured.bytes >= large_bytes) out.push_back(c);
  }
  return out;
}

// "MAPE 3.2%, R² 0.998 over 12 cases".
std::string accuracy_text(const std::vector<ComparedCase>& cases) {
  if (cases.empty()) return "no cases";
  std::vector<double> predicted, measured;
  for (const ComparedCase& c : cases) {
    predicted.push_back(c.predicted_seconds);
    measured.push_back(c.measured.seconds);
  }
  char text[96];
  const double r2 = r_squared(predicted, measured);
  if (std::isnan(r2)) {
    std::snprintf(text, sizeof text, "MAPE %.2f%% over %zu cases", mape(predicted, measured), cases.size());
  } else {
    std::snprintf(text, sizeof text, "MAPE %.2f%%, R² %.4f over %zu cases", mape(predicted, measured), r2,
                  cases.size());
  }
  return text;
}

void run_gnuplot(const std::string& script) {
  if (std::system("command -v gnuplot > /dev/null 2>&1") != 0) {
    throw std::runtime_error("the report's plots need gnuplot (Debian: apt-get install gnuplot-nox)");
  }
  if (std::system(("gnuplot '" + script + "'").c_str()) != 0) {
    throw std::runtime_error("gnuplot failed on " + script);
  }
}

}  // namespace

std::vector<std::string> split_csv_line(const std::string& line, char separator) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  for (std::string field; std::getline(in, field, separator);) {
    while (!field.empty() && (field.back() == '\r' || field.back() == ' ')) field.pop_back();
    while (!field.empty() && field.front() == ' ') field.erase(0, 1);
    fields.push_back(field);
  }
  return fields;
}

std::vector<Measurement> read_measurements(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot be read");
  std::string line;
  if (!std::getline(in, line)) throw std::invalid_argument(path + ": empty, expected a header line");
  const std::vector<std::string> header = split_csv_line(line);
  const auto column = [&](std::initializer_list<const char*> names) -> size_t {
    for (const char* name : names) {
      const auto found = std::find(header.begin(), header.end(), name);
      if (found != header.end()) return size_t(found - header.begin());
    }
    throw std::invalid_argument(path + ":1: the header has no column " + *names.begin() +
                                " (needs op, ranks, bytes and seconds or time_s)");
  };
  const size_t op = column({"op"}), ranks = column({"ranks"}), bytes = column({"bytes"}),
               seconds = column({"seconds", "time_s"});
  const auto algorithm_column = std::find(header.begin(), header.end(), "algorithm");
  std::vector<Measurement> measurements;
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty() || line == "\r") continue;
    const std::vector<std::string> fields = split_csv_line(line);
    const std::string where = path + ":" + std::to_string(number) + ": ";
    const auto field = [&](size_t index, const char* name) -> const std::string& {
      if (index >= fields.size()) throw std::invalid_argument(where + "no " + name + " field");
      return fields[index];
    };
    const auto number_in = [&](size_t index, const char* name) {
      const std::string& text = field(index, name);
      const std::optional<double> value = parse_number(text);
      if (!value || !(*value > 0) || !std::isfinite(*value)) {
        throw std::invalid_argument(where + name + " must be a positive number, found \"" + text + "\"");
      }
      return *value;
    };
    Measurement m;
    m.op = field(op, "op");
    const std::vector<std::string>& ops = colltest_ops();
    if (std::find(ops.begin(), ops.end(), m.op) == ops.end() || m.op == "barrier") {
      throw std::invalid_argument(where + "op \"" + m.op + "\" is not an operation colltest sizes");
    }
    const double ranks_value = number_in(ranks, "ranks");
    const double bytes_value = number_in(bytes, "bytes");
    // Checked before the conversions, which are undefined past what the integers hold.
    if (ranks_value != std::floor(ranks_value) || ranks_value < 2 || ranks_value > 1e6) {
      throw std::invalid_argument(where + "ranks must be a whole number from 2 to 1000000");
    }
    if (bytes_value > 0x1p53) {
      throw std::invalid_argument(where + "bytes must be at most 2^53 (9.0e15)");
    }
    m.ranks = int(ranks_value);
    m.bytes = uint64_t(bytes_value);
    m.seconds = number_in(seconds, "seconds");
    if (algorithm_column != header.end()) {
      m.algorithm = field(size_t(algorithm_column - header.begin()), "algorithm");
    }
    measurements.push_back(m);
  }
  if (measurements.empty()) throw std::invalid_argument(path + ": no measurements after the header");
  return measurements;
}

double mape(const std::vector<double>& predicted, const std::vector<double>& measured) {
  if (predicted.size() != measured.size() || measured.empty()) {
    throw std::invalid_argument("mape: needs equally many predictions and measurements, at least one");
  }
  double sum = 0;
  for (size_t i = 0; i < measured.size(); ++i) sum += std::fabs(predicted[i] - measured[i]) / measured[i];
  return 100.0 * sum / double(measured.size());
}

double r_squared(const std::vector<double>& predicted, const std::vector<double>& measured) {
  if (predicted.size() != measured.size() || measured.empty()) {
    throw std::invalid_argument("r_squared: needs equally many predictions and measurements, at least one");
  }
  double mean = 0;
  for (double m : measured) mean += m;
  mean /= double(measured.size());
  double residual = 0, total = 0;
  for (size_t i = 0; i < measured.size(); ++i) {
    residual += (measured[i] - predicted[i]) * (measured[i] - predicted[i]);
    total += (measured[i] - mean) * (measured[i] - mean);
  }
  return total == 0 ? std::nan("") : 1.0 - residual / total;
}

std::vector<ComparedCase> compare_measurements(const CheckedScenario& scenario,
                                               const std::vector<Measurement>& measured,
                                               const ColltestOptions& options,
                                               const std::function<void(const std::string&)>& progress) {
  // The preset a case names, where the command line chose nothing.
  const bool rows_choose = options.preset.empty() && options.algorithm.empty();
  const auto preset_of = [&](const Measurement& m) {
    return rows_choose && collective_presets().find(m.algorithm) ? m.algorithm : std::string();
  };
  // One simulated sweep per operation, world size and preset, over exactly the measured sizes.
  using Sweep = std::tuple<std::string, int, std::string>;
  std::map<Sweep, std::vector<uint64_t>> sizes;
  for (const Measurement& m : measured) sizes[{m.op, m.ranks, preset_of(m)}].push_back(m.bytes);
  std::map<Sweep, std::map<uint64_t, ColltestRow>> simulated;
  for (auto& [key, list] : sizes) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    ColltestOptions run = options;
    const auto& [op, ranks, preset] = key;
    run.op = op;
    run.ranks = ranks;
    run.sizes = list;
    if (!preset.empty()) run.preset = preset;
    if (progress) {
      progress(op + " on " + std::to_string(ranks) + " ranks" + (preset.empty() ? "" : " by " + preset));
    }
    const std::vector<ColltestRow> rows = run_colltest(scenario, run);
    for (size_t i = 0; i < list.size(); ++i) simulated[key][list[i]] = rows.at(i);
  }
  std::vector<ComparedCase> cases;
  for (const Measurement& m : measured) {
    const std::string preset = preset_of(m);
    const ColltestRow& row = simulated.at({m.op, m.ranks, preset}).at(m.bytes);
    cases.push_back(ComparedCase{m, row.time_s, preset.empty() ? row.algorithm : preset + "/" + row.algorithm});
  }
  return cases;
}

std::vector<ComparedCase> compare_with_measurements(const std::vector<Measurement>& measured,
                                                    const std::vector<Measurement>& other,
                                                    const std::string& other_name) {
  using Case = std::tuple<std::string, int, uint64_t>;
  const auto describe = [](const Measurement& m) {
    return m.op + " on " + std::to_string(m.ranks) + " ranks at " + std::to_string(m.bytes) +
           " bytes";
  };
  std::map<Case, double> seconds;
  for (const Measurement& m : other) {
    if (!seconds.emplace(Case{m.op, m.ranks, m.bytes}, m.seconds).second) {
      throw std::invalid_argument(other_name + " holds " + describe(m) + " twice");
    }
  }
  std::vector<ComparedCase> cases;
  for (const Measurement& m : measured) {
    const auto it = seconds.find(Case{m.op, m.ranks, m.bytes});
    if (it == seconds.end()) throw std::invalid_argument(other_name + " has no " + describe(m));
    cases.push_back(ComparedCase{m, it->second, "measured"});
  }
  return cases;
}

std::string comparison_table(const std::vector<ComparedCase>& cases, uint64_t large_bytes,
                             const std::string& predicted_label) {
  const bool runs = end_to_end(cases);
  std::ostringstream out;
  out << std::left << std::setw(16) << (runs ? "metric" : "op") << std::right << std::setw(6) << "ranks"
      << std::setw(12) << (runs ? "" : "bytes") << std::setw(14) << "measured" << std::setw(14)
      << predicted_label << std::setw(10) << "error" << (runs ? "  scenario\n" : "  algorithm\n");
  for (const ComparedCase& c : cases) {
    char error[32];
    std::snprintf(error, sizeof error, "%+.1f%%", c.error_percent());
    out << std::left << std::setw(16) << c.measured.op << std::right << std::setw(6) << ranks_text(c)
        << std::setw(12) << (runs ? "" : std::to_string(c.measured.bytes)) << std::setw(14)
        << format_duration(std::llround(c.measured.seconds * 1e9)) << std::setw(14)
        << format_duration(std::llround(c.predicted_seconds * 1e9)) << std::setw(10) << error << "  "
        << c.algorithm << "\n";
  }
  out << "\n" << (runs ? "all cases: " : "all sizes: ") << accuracy_text(cases) << "\n";
  if (!runs) {
    out << ">= " << format_bytes_binary(large_bytes) << ": " << accuracy_text(large(cases, large_bytes)) << "\n";
  }
  return out.str();
}

void write_comparison_report(const std::vector<ComparedCase>& cases, uint64_t large_bytes,
                             const std::string& title, const std::string& dir,
                             const std::string& predicted_label) {
  const std::string& p = predicted_label;
  namespace fs = std::filesystem;
  const bool runs = end_to_end(cases);
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) throw OutputError("cannot create report folder " + dir + ": " + error.message());
  const fs::path folder(dir);
  const std::string data = (folder / "cases.dat").string();
  {
    std::ofstream out(data);
    out << std::setprecision(9);
    for (size_t i = 0; i < cases.size(); ++i) {
      const ComparedCase& c = cases[i];
      out << c.measured.seconds << " " << c.predicted_seconds << " "
          << (runs ? double(i + 1) : double(c.measured.bytes)) << " " << c.error_percent() << "\n";
    }
  }
  // Collectives: error against size; whole runs: error by case, numbered as in the table.
  const std::string error_plot = runs ? "error-by-case.png" : "error-vs-size.png";
  const std::string script = (folder / "plots.gp").string();
  {
    std::ofstream out(script);
    out << "set terminal pngcairo size 800,600\nset grid\nset key left top\n"
        << "set output '" << (folder / "predicted-vs-measured.png").string() << "'\n"
        << "set logscale xy\nset xlabel 'measured (s)'\nset ylabel '" << p << " (s)'\n"
        << "set title '" << p << " against measured'\n"
        << "plot '" << data << "' using 1:2 with points pt 7 title 'cases', x with lines title 'y = x'\n"
        << "unset logscale\n" << (runs ? "set xtics 1\n" : "set logscale x 2\n")
        << "set output '" << (folder / error_plot).string() << "'\n"
        << (runs ? "set xlabel 'case'\nset ylabel 'error (%)'\nset title 'error by case'\n"
                 : "set xlabel 'size (bytes)'\nset ylabel 'error (%)'\nset title 'error against size'\n")
        << "plot '" << data << "' using 3:4 with points pt 7 title 'cases', 0 with lines title ''\n";
  }
  run_gnuplot(script);
  fs::remove(data, error);
  fs::remove(script, error);

  std::ostringstream md;
  md << "# " << title << "\n\n";
  if (runs) {
    md << "- all cases: " << accuracy_text(cases) << "\n\n";
  } else {
    md << "- all sizes: " << accuracy_text(cases) << "\n"
       << "- sizes >= " << format_bytes_binary(large_bytes) << ": " << accuracy_text(large(cases, large_bytes))
       << "\n\n";
  }
  md << "MAPE is the mean of |" << p << " - measured| / measured; R² is 1 - Σ(measured - " << p
     << ")² / Σ(measured - mean)², over the cases listed.\n\n"
     << "![" << p << " against measured](predicted-vs-measured.png)\n"
     << "![" << (runs ? "error by case" : "error against size") << "](" << error_plot << ")\n\n"
     << (runs ? "| case | metric | ranks | measured | " + p + " | error | scenario |\n"
                "| ---: | --- | ---: | ---: | ---: | ---: | --- |\n"
              : "| op | ranks | bytes | measured | " + p + " | error | algorithm |\n"
                "| --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
  for (size_t i = 0; i < cases.size(); ++i) {
    const ComparedCase& c = cases[i];
    char error_text[32];
    std::snprintf(error_text, sizeof error_text, "%+.1f%%", c.error_percent());
    md << "| " << (runs ? std::to_string(i + 1) + " | " + c.measured.op + " | " + ranks_text(c)
                        : c.measured.op + " | " + std::to_string(c.measured.ranks) + " | " +
                              std::to_string(c.measured.bytes))
       << " | " << format_duration(std::llround(c.measured.seconds * 1e9)) << " | "
       << format_duration(std::llround(c.predicted_seconds * 1e9)) << " | " << error_text << " | "
       << c.algorithm << " |\n";
  }
  write_file_atomically((folder / "report.md").string(), md.str());
}

}  // namespace uniference
