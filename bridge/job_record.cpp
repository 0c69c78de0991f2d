#include "bridge/job_record.h"

#include <stdexcept>

namespace uniference {

RunRecord job_record(const RunRecord& run, int first, int ranks) {
  if (run.token_ranks.size() != run.tokens.size() || run.request_ranks.size() != run.requests.size()) {
    throw std::invalid_argument("job_record: the record does not say which rank knew each token and request");
  }
  const auto in_job = [&](int rank) { return rank >= first && rank < first + ranks; };
  RunRecord job;
  job.deployed_on = run.deployed_on;
  job.deployed_collectives = run.deployed_collectives;
  job.device_memory_bytes = run.device_memory_bytes;
  job.partial = run.partial;
  for (RankStats stats : run.ranks) {
    if (!in_job(stats.rank)) continue;
    stats.rank -= first;
    job.total_ns = std::max(job.total_ns, stats.finish_ns);
    job.ranks.push_back(std::move(stats));
  }
  for (size_t i = 0; i < run.tokens.size(); ++i) {
    if (!in_job(run.token_ranks[i])) continue;
    job.tokens.push_back(run.tokens[i]);
    job.token_times_ns.push_back(run.token_times_ns[i]);
    job.token_prompts.push_back(run.token_prompts[i]);
    job.token_ranks.push_back(run.token_ranks[i] - first);
  }
  for (size_t i = 0; i < run.requests.size(); ++i) {
    if (!in_job(run.request_ranks[i])) continue;
    job.requests.push_back(run.requests[i]);
    job.request_ranks.push_back(run.request_ranks[i] - first);
  }
  for (Span span : run.spans) {
    if (!in_job(span.rank)) continue;
    span.rank -= first;
    if (span.peer >= 0) span.peer -= first;  // a job's ranks talk among themselves only
    job.spans.push_back(std::move(span));
  }
  for (NetMessage message : run.messages) {
    if (!in_job(message.src)) continue;
    message.src -= first;
    message.dst -= first;
    job.messages.push_back(std::move(message));
  }
  for (PhaseSpan phase : run.phases) {
    if (!in_job(phase.rank)) continue;
    phase.rank -= first;
    job.phases.push_back(std::move(phase));
  }
  return job;
}

}  // namespace uniference
