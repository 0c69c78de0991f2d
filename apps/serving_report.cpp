#include "apps/serving_report.h"

#include "apps/record_json.h"
#include "apps/report.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

namespace uniference {

using nlohmann::json;

Percentiles percentiles(std::vector<int64_t> values) {
  Percentiles out;
  out.count = values.size();
  if (values.empty()) return out;
  std::sort(values.begin(), values.end());
  const auto rank = [&](double p) {
    const size_t k = size_t(std::ceil(p / 100.0 * double(values.size())));
    return values[std::clamp<size_t>(k, 1, values.size()) - 1];
  };
  out.mean_ns = std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
  out.p50_ns = rank(50);
  out.p90_ns = rank(90);
  out.p99_ns = rank(99);
  out.max_ns = values.back();
  return out;
}

QueueingModel queueing_model(double rate_per_s, const std::vector<RequestRecord>& requests) {
  QueueingModel m;
  m.rate_per_s = rate_per_s;
  if (requests.empty()) return m;
  double sum = 0, sum_sq = 0;
  for (const RequestRecord& r : requests) {
    const double service = double(r.finish_ns - r.scheduled_ns);
    sum += service;
    sum_sq += service * service;
  }
  const double n = double(requests.size());
  m.mean_service_ns = sum / n;
  const double variance = std::max(0.0, sum_sq / n - m.mean_service_ns * m.mean_service_ns);
  m.service_cv = m.mean_service_ns > 0 ? std::sqrt(variance) / m.mean_service_ns : 0;
  m.utilisation = rate_per_s * m.mean_service_ns * 1e-9;
  if (m.utilisation < 1) {
    m.md1_wait_ns = m.utilisation * m.mean_service_ns / (2 * (1 - m.utilisation));
    m.mm1_wait_ns = m.utilisation * m.mean_service_ns / (1 - m.utilisation);
  }
  return m;
}

int64_t tpot_of(const RequestRecord& r) {
  return (r.finish_ns - r.first_token_ns) / (r.new_tokens - 1);
}

namespace {

bool meets_slo(const ServingSpec& slo, const RequestRecord& r) {
  if (slo.slo_ttft_ns > 0 && r.first_token_ns - r.arrival_ns > slo.slo_ttft_ns) return false;
  if (slo.slo_tpot_ns > 0 && r.new_tokens > 1 && tpot_of(r) > slo.slo_tpot_ns) return false;
  return true;
}

std::vector<RequestRecord> by_id(const RunRecord& record) {
  std::vector<RequestRecord> requests = record.requests;
  std::sort(requests.begin(), requests.end(),
            [](const RequestRecord& a, const RequestRecord& b) { return a.id < b.id; });
  return requests;
}

json percentiles_json(const Percentiles& p) {
  return {{"mean", p.mean_ns}, {"p50", p.p50_ns}, {"p90", p.p90_ns}, {"p99", p.p99_ns},
          {"max", p.max_ns}};
}

std::string percentiles_text(const Percentiles& p) {
  if (p.count == 0) return "-";
  return "p50 " + format_duration(p.p50_ns) + ", p90 " + format_duration(p.p90_ns) + ", p99 " +
         format_duration(p.p99_ns);
}

std::string fixed(double value, int decimals) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(decimals);
  out << value;
  return out.str();
}

}  // namespace

ServingMetrics serving_metrics(const Scenario& scenario, const RunRecord& record) {
  const ServingSpec& spec = scenario.workload.serving;
  ServingMetrics m;
  m.requests = record.requests.size();
  std::vector<int64_t> ttft, tpot, e2e, queueing;
  int64_t first_arrival = INT64_MAX, last_finish = 0;
  for (const RequestRecord& r : record.requests) {
    ttft.push_back(r.first_token_ns - r.arrival_ns);
    if (r.new_tokens > 1) tpot.push_back(tpot_of(r));
    e2e.push_back(r.finish_ns - r.arrival_ns);
    queueing.push_back(r.scheduled_ns - r.arrival_ns);
    m.output_tokens += uint64_t(r.new_tokens);
    first_arrival = std::min(first_arrival, r.arrival_ns);
    last_finish = std::max(last_finish, r.finish_ns);
    if (meets_slo(spec, r)) ++m.within_slo;
  }
  m.ttft = percentiles(ttft);
  m.tpot = percentiles(tpot);
  m.e2e = percentiles(e2e);
  m.queueing = percentiles(queueing);
  if (m.requests > 0 && last_finish > first_arrival) {
    m.span_ns = last_finish - first_arrival;
    const double seconds = double(m.span_ns) * 1e-9;
    m.requests_per_s = double(m.requests) / seconds;
    m.tokens_per_s = double(m.output_tokens) / seconds;
    m.goodput_per_s = double(m.within_slo) / seconds;
  }
  // Each replica is one server of its share of the arrivals.
  m.model = queueing_model(spec.arrivals.rate_per_s / scenario.parallel.dp, record.requests);
  return m;
}

std::string serving_summary(const Scenario& scenario, const RunRecord& record) {
  const ServingMetrics m = serving_metrics(scenario, record);
  const ServingSpec& spec = scenario.workload.serving;
  std::string out;
  const auto line = [&](const std::string& label, const std::string& value) {
    std::string padded = label;
    padded.resize(std::max<size_t>(16, label.size() + 1), ' ');
    out += "  " + padded + value + "\n";
  };
  line("requests", std::to_string(m.requests) + " (" + std::to_string(m.output_tokens) +
                       " tokens) over " + format_duration(m.span_ns));
  line("throughput", fixed(m.requests_per_s, 2) + " requests/s, " + fixed(m.tokens_per_s, 1) +
                         " tokens/s");
  line("TTFT", percentiles_text(m.ttft));
  line("TPOT", percentiles_text(m.tpot));
  line("end to end", percentiles_text(m.e2e));
  line("queueing", "mean " + format_duration(std::llround(m.queueing.mean_ns)) + ", " +
                       percentiles_text(m.queueing));
  if (spec.slo_ttft_ns > 0 || spec.slo_tpot_ns > 0) {
    std::string objectives;
    if (spec.slo_ttft_ns > 0) objectives += "TTFT <= " + format_duration(spec.slo_ttft_ns);
    if (spec.slo_tpot_ns > 0) {
      objectives += (objectives.empty() ? "" : ", ") + ("TPOT <= " + format_duration(spec.slo_tpot_ns));
    }
    line("goodput", fixed(m.goodput_per_s, 2) + " requests/s within " + objectives + " (" +
                        std::to_string(m.within_slo) + " of " + std::to_string(m.requests) + ")");
  }
  const QueueingModel& q = m.model;
  if (q.utilisation < 1) {
    line("queueing model", "one server at batch 1, rho " + fixed(q.utilisation, 3) +
                               " (mean service " + format_duration(std::llround(q.mean_service_ns)) +
                               "): M/D/1 wait " + format_duration(std::llround(q.md1_wait_ns)) +
                               (q.service_cv > 0.01
                                    ? ", M/M/1 wait " + format_duration(std::llround(q.mm1_wait_ns))
                                    : std::string()));
  } else {
    line("queueing model", "rho " + fixed(q.utilisation, 3) +
                               " >= 1 at batch 1: a single-request server would not keep up");
  }
  return out;
}

json serving_json(const Scenario& scenario, const RunRecord& record) {
  const ServingMetrics m = serving_metrics(scenario, record);
  const ServingSpec& spec = scenario.workload.serving;
  const QueueingModel& q = m.model;
  json requests = json::array();
  for (const RequestRecord& r : by_id(record)) requests.push_back(request_to_json(r));
  return {
      {"requests", m.requests},
      {"output_tokens", m.output_tokens},
      {"span_ns", m.span_ns},
      {"requests_per_s", m.requests_per_s},
      {"tokens_per_s", m.tokens_per_s},
      {"ttft_ns", percentiles_json(m.ttft)},
      {"tpot_ns", percentiles_json(m.tpot)},
      {"e2e_ns", percentiles_json(m.e2e)},
      {"queueing_ns", percentiles_json(m.queueing)},
      {"slo", {{"ttft_ns", spec.slo_ttft_ns}, {"tpot_ns", spec.slo_tpot_ns}}},
      {"within_slo", m.within_slo},
      {"goodput_per_s", m.goodput_per_s},
      {"queueing_model",
       {{"arrival_rate_per_s", q.rate_per_s},
        {"mean_service_ns", q.mean_service_ns},
        {"service_cv", q.service_cv},
        {"utilisation", q.utilisation},
        {"md1_wait_ns", q.md1_wait_ns},
        {"mm1_wait_ns", q.mm1_wait_ns}}},
      {"scheduler",
       {{"name", spec.scheduler.name},
        {"max_batch", spec.scheduler.max_batch},
        {"kv_cache_tokens", scenario.workload.kv_cache_tokens()}}},
      {"per_request", std::move(requests)},
  };
}

std::string requests_csv(const RunRecord& record) {
  std::string out =
      "id,replica,arrival_ns,scheduled_ns,first_token_ns,finish_ns,prompt_tokens,new_tokens,"
      "queueing_ns,ttft_ns,tpot_ns,e2e_ns,preemptions\n";
  for (const RequestRecord& r : by_id(record)) {
    const auto cell = [&out](int64_t v) { out += std::to_string(v) + ","; };
    cell(r.id);
    cell(r.replica);
    cell(r.arrival_ns);
    cell(r.scheduled_ns);
    cell(r.first_token_ns);
    cell(r.finish_ns);
    cell(r.prompt_tokens);
    cell(r.new_tokens);
    cell(r.scheduled_ns - r.arrival_ns);
    cell(r.first_token_ns - r.arrival_ns);
    out += r.new_tokens > 1 ? std::to_string(tpot_of(r)) + "," : std::string(",");
    cell(r.finish_ns - r.arrival_ns);
    out += std::to_string(r.preemptions) + "\n";
  }
  return out;
}

}  // namespace uniference
