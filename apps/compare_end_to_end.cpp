#include "apps/compare_end_to_end.h"

#include "apps/serving_report.h"
#include "apps/units.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <tuple>

namespace uniference {

namespace {

std::string joined(const std::vector<std::string>& overrides) {
  std::string text;
  for (const std::string& o : overrides) text += (text.empty() ? "" : " ") + o;
  return text;
}

// The scenario's file name and the overrides, as the report names a case.
std::string case_name(const EndToEndMeasurement& m) {
  return std::filesystem::path(m.scenario).filename().string() +
         (m.overrides.empty() ? "" : " " + joined(m.overrides));
}

std::string figure_name(const EndToEndMeasurement& m) {
  return m.metric + (m.request ? " #" + std::to_string(*m.request) : "");
}

// What makes two rows the same case: the scenario file (two CSVs in different folders may
// name it differently), the overrides, the figure.
using CaseKey = std::tuple<std::string, std::vector<std::string>, std::string, std::optional<int64_t>>;
CaseKey case_key(const EndToEndMeasurement& m) {
  return {std::filesystem::absolute(m.scenario).lexically_normal().string(), m.overrides, m.metric, m.request};
}

}  // namespace

const std::vector<std::string>& end_to_end_metrics() {
  static const std::vector<std::string> metrics = {"ttft", "tpot", "total", "e2e"};
  return metrics;
}

bool is_end_to_end_csv(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return false;
  const std::vector<std::string> header = split_csv_line(line);
  const auto has = [&](const char* name) { return std::find(header.begin(), header.end(), name) != header.end(); };
  return has("scenario") && has("metric");
}

std::vector<EndToEndMeasurement> read_end_to_end(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot be read");
  std::string line;
  if (!std::getline(in, line)) throw std::invalid_argument(path + ": empty, expected a header line");
  const std::vector<std::string> header = split_csv_line(line);
  const auto column = [&](const char* name, bool required) -> std::optional<size_t> {
    const auto found = std::find(header.begin(), header.end(), name);
    if (found != header.end()) return size_t(found - header.begin());
    if (!required) return std::nullopt;
    throw std::invalid_argument(path + ":1: the header has no column " + name +
                                " (needs scenario, metric and seconds; set and request are optional)");
  };
  const size_t scenario = *column("scenario", true), metric = *column("metric", true),
               seconds = *column("seconds", true);
  const std::optional<size_t> set = column("set", false), request = column("request", false);
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();

  std::vector<EndToEndMeasurement> measurements;
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty() || line == "\r") continue;
    const std::vector<std::string> fields = split_csv_line(line);
    const std::string where = path + ":" + std::to_string(number) + ": ";
    const auto field = [&](size_t index, const char* name) -> std::string {
      if (index >= fields.size()) throw std::invalid_argument(where + "no " + name + " field");
      return fields[index];
    };
    EndToEndMeasurement m;
    m.scenario = field(scenario, "scenario");
    if (m.scenario.empty()) throw std::invalid_argument(where + "the scenario field is empty");
    if (std::filesystem::path(m.scenario).is_relative()) m.scenario = (folder / m.scenario).string();
    m.metric = field(metric, "metric");
    const std::vector<std::string>& metrics = end_to_end_metrics();
    if (std::find(metrics.begin(), metrics.end(), m.metric) == metrics.end()) {
      throw std::invalid_argument(where + "metric \"" + m.metric + "\" is not one of ttft, tpot, total, e2e");
    }
    if (set && *set < fields.size()) {
      for (const std::string& assignment : split_csv_line(fields[*set], ';')) {
        if (!assignment.empty()) m.overrides.push_back(assignment);
      }
    }
    if (request && *request < fields.size() && !fields[*request].empty()) {
      const std::optional<double> id = parse_number(fields[*request]);
      if (!id || *id < 0 || *id != std::floor(*id)) {
        throw std::invalid_argument(where + "request must be a request id (an integer from 0), found \"" +
                                    fields[*request] + "\"");
      }
      m.request = int64_t(*id);
    }
    if (m.metric == "total" && m.request) {
      throw std::invalid_argument(where + "metric total is the run's; a request's is e2e");
    }
    if (m.metric == "e2e" && !m.request) {
      throw std::invalid_argument(where + "metric e2e is a request's; give its id in the request column");
    }
    const std::string text = field(seconds, "seconds");
    const std::optional<double> value = parse_number(text);
    if (!value || !(*value > 0) || !std::isfinite(*value)) {
      throw std::invalid_argument(where + "seconds must be a positive number, found \"" + text + "\"");
    }
    m.seconds = *value;
    measurements.push_back(m);
  }
  if (measurements.empty()) throw std::invalid_argument(path + ": no measurements after the header");
  return measurements;
}

double end_to_end_figure(const RunRecord& record, const EndToEndMeasurement& m) {
  if (!m.request) {
    if (m.metric == "total") return double(record.total_ns) * 1e-9;
    if (record.token_times_ns.empty()) throw std::invalid_argument("the run generated no token");
    if (m.metric == "ttft") return double(record.ttft_ns()) * 1e-9;
    if (record.tpot_ns() <= 0) throw std::invalid_argument("no prompt of the run has two tokens: no tpot");
    return record.tpot_ns() * 1e-9;
  }
  const auto found = std::find_if(record.requests.begin(), record.requests.end(),
                                  [&](const RequestRecord& r) { return r.id == *m.request; });
  if (found == record.requests.end()) {
    throw std::invalid_argument("the run served no request " + std::to_string(*m.request));
  }
  const RequestRecord& r = *found;
  if (m.metric == "ttft") return double(r.first_token_ns - r.arrival_ns) * 1e-9;
  if (m.metric == "e2e") return double(r.finish_ns - r.arrival_ns) * 1e-9;
  if (r.new_tokens < 2) throw std::invalid_argument("request " + std::to_string(r.id) + " has one token: no tpot");
  return double(tpot_of(r)) * 1e-9;
}

std::vector<ComparedCase> compare_end_to_end(
    const std::vector<EndToEndMeasurement>& measured,
    const std::function<RunRecord(const std::string& scenario, const std::vector<std::string>& overrides)>&
        simulate,
    const std::function<void(const std::string&)>& progress, int repeats) {
  if (repeats < 1) {
    throw std::invalid_argument("compare_end_to_end: repeats must be at least 1, not " +
                                std::to_string(repeats));
  }
  std::map<std::pair<std::string, std::vector<std::string>>, std::vector<RunRecord>> runs;
  std::vector<ComparedCase> cases;
  for (const EndToEndMeasurement& m : measured) {
    const auto key = std::make_pair(m.scenario, m.overrides);
    auto run = runs.find(key);
    if (run == runs.end()) {
      run = runs.emplace(key, std::vector<RunRecord>{}).first;
      const std::string what = m.scenario + (m.overrides.empty() ? "" : " " + joined(m.overrides));
      for (int r = 0; r < repeats; ++r) {
        const std::string of = " (" + std::to_string(r + 1) + "/" + std::to_string(repeats) + ")";
        if (progress) progress(what + (repeats > 1 ? of : ""));
        run->second.push_back(simulate(m.scenario, m.overrides));
      }
    }
    std::vector<double> figures;
    for (const RunRecord& record : run->second) figures.push_back(end_to_end_figure(record, m));
    std::sort(figures.begin(), figures.end());
    const size_t middle = figures.size() / 2;
    ComparedCase c;
    c.measured.op = figure_name(m);
    c.measured.ranks = int(run->second.front().ranks.size());
    c.measured.seconds = m.seconds;
    c.predicted_seconds =
        figures.size() % 2 ? figures[middle] : (figures[middle - 1] + figures[middle]) / 2;
    c.algorithm = case_name(m);
    cases.push_back(c);
  }
  return cases;
}

std::vector<ComparedCase> compare_end_to_end_against(const std::vector<EndToEndMeasurement>& measured,
                                                     const std::vector<EndToEndMeasurement>& other,
                                                     const std::string& other_name) {
  std::map<CaseKey, double> seconds;
  for (const EndToEndMeasurement& m : other) {
    if (!seconds.emplace(case_key(m), m.seconds).second) {
      throw std::invalid_argument(other_name + ": " + figure_name(m) + " of " + case_name(m) + " is there twice");
    }
  }
  std::vector<ComparedCase> cases;
  for (const EndToEndMeasurement& m : measured) {
    const auto found = seconds.find(case_key(m));
    if (found == seconds.end()) {
      throw std::invalid_argument(other_name + " has no " + figure_name(m) + " of " + case_name(m));
    }
    ComparedCase c;
    c.measured.op = figure_name(m);
    c.measured.seconds = m.seconds;
    c.predicted_seconds = found->second;
    c.algorithm = case_name(m);
    cases.push_back(c);
  }
  return cases;
}

}  // namespace uniference
