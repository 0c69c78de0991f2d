// What one simulated run leaves behind: the spans of every LP, the network messages,
// per-rank totals and the generated tokens. The bridge fills it; reports read it.
// All times are integer nanoseconds of simulated time (docs/design.md section 2).
#pragma once

#include "compute/serving/request_record.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace uniference {

// A stretch of one LP's simulated time: compute it was charged for, a communication call
// it waited in, or an asynchronous call's flight from issue to completion (which the LP
// may have spent computing).
struct Span {
  enum class Kind { kCompute, kComm, kFlight };
  int rank = 0;
  Kind kind = Kind::kCompute;
  std::string name;  // the compute label ("layer3.q_proj", or "compute"), "all_reduce", ...
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  uint64_t bytes = 0;  // payload of a communication call; 0 for compute
  int peer = -1;       // send/recv peer (rank in the world), -1 otherwise
  std::string label;   // a flight's compute label at issue
};

// One framed message on the network, from the first byte offered to TCP to the
// last byte delivered at the receiver.
struct NetMessage {
  int src = 0;
  int dst = 0;
  uint64_t bytes = 0;
  int64_t send_ns = 0;
  int64_t recv_ns = 0;
  std::string label;  // "send", "all_reduce", ...
};

struct RankStats {
  int rank = 0;
  int64_t compute_ns = 0;    // simulated time charged for compute
  int64_t comm_wait_ns = 0;  // simulated time blocked in communication calls
  uint64_t bytes_sent = 0;   // payload bytes this rank handed to the network
  int64_t finish_ns = 0;     // when its shard code returned
  // What the rank's model holds (0 when the shard code did not say): weights, KV cache, and
  // an estimate of its largest live activations.
  uint64_t weight_bytes = 0;
  uint64_t kv_cache_bytes = 0;
  uint64_t activation_bytes = 0;
  // The same bytes by the compute label in force when their call was issued, then by
  // operation ("layer3.o_proj" -> "all_reduce" -> bytes).
  std::map<std::string, std::map<std::string, uint64_t>> bytes_by_label;
};

// A phase the shard code named (compute/timed_phase.h) on one LP: from its begin to its end.
struct PhaseSpan {
  int rank = 0;
  std::string name;  // "moe.dispatch"
  int64_t start_ns = 0;
  int64_t end_ns = 0;
};

// The k-th phase of one name across the ranks that ran it: one collective step (a dispatch
// of every rank), from the first rank's begin to the last rank's end.
struct PhaseStep {
  int64_t first_begin_ns = 0;
  int64_t last_end_ns = 0;
  int64_t rank_total_ns = 0;  // the ranks' own durations, summed
  int ranks = 0;
  int64_t latency_ns() const { return last_end_ns - first_begin_ns; }
};

// Bytes one direction of one cable carried, per sampling interval (bridge/link_sampler.h).
struct LinkSeries {
  std::string name;                // "rank0 -> hub": sender -> receiver (bridge/node_names.h)
  uint64_t rate_bps = 0;           // line rate
  std::vector<uint64_t> bytes;     // per interval: bytes of the packets that started in it
  std::vector<int64_t> busy_ps;    // per interval: time the line spent serialising
  uint64_t drops = 0;  // packets lost: dropped before the line (a full queue) or on arrival
  uint64_t marks = 0;  // packets marked congested (ECN, FECN) as they left for this line
  // Bytes waiting for the line: in the sender's queues (device queue and queue discs), or, for
  // a lossless switch's output, in its input buffers bound for it. Peak of the levels that
  // lasted, and the mean over the run.
  uint64_t queue_peak_bytes = 0;
  double queue_mean_bytes = 0;
  // Lossless fabric: the line idle for want of the receiver's credits while a packet waited.
  int64_t credit_stall_ps = 0;
  // Runs of several jobs (/jobs): bytes by job (RunRecord::jobs' order), and the time of the
  // intervals in which two or more jobs sent on it (to the intervals' resolution). Empty and 0
  // otherwise, and at the flow level.
  std::vector<uint64_t> job_bytes;
  int64_t shared_ps = 0;
};

// Link activity of a run, in intervals of one fixed length from t = 0 to total_ns (the
// last one may be shorter). Only directions that carried bytes are listed.
struct LinkActivity {
  int64_t interval_ns = 0;  // 0: not sampled
  std::vector<LinkSeries> links;
  uint64_t links_omitted = 0;  // busy directions left out by the cap (the least busy ones)
};

// A time a link with outages (a satellite handover, a blocked beam) carried nothing.
struct LinkOutage {
  std::string link;  // "edge <-> cloud": the link's two nodes (bridge/node_names.h)
  int64_t start_ns = 0;
  int64_t end_ns = 0;
};

// A time-varying link's delay and its two directions' rates, sampled at instants spread evenly
// over the run (a change shorter than the spacing may fall between them; outages are exact in
// `outages`).
struct LinkConditionSamples {
  std::string link;                // "edge <-> cloud", as its outages name it
  std::string directions[2];       // "edge -> cloud", "cloud -> edge"
  std::vector<int64_t> times_ns;
  std::vector<int64_t> delay_ns;   // one-way, of a packet sent then
  std::vector<uint64_t> rate_bps[2];
};

// A fault the scenario injected (/faults) and what it cost the run.
struct FaultRecord {
  std::string pointer;  // "/faults/0", where the scenario gives it
  std::string kind;     // "link_down", "switch_down", "loss_burst", "straggler", "rank_crash"
  std::string target;   // as written: "rank0 <-> hub", "leaf0", "rank2"
  int64_t start_ns = 0;
  int64_t end_ns = -1;  // -1: to the end of the run (a crash, or a fault without "for")
  double loss = 0;      // loss_burst: each packet's probability; link_down, switch_down: 1
  double factor = 1;    // straggler: compute takes this many times as long
  // What it cost: packets its windows lost (link faults), and compute time it added
  // (stragglers: the time charged beyond what the same work takes at full speed).
  uint64_t packets_lost = 0;
  int64_t compute_added_ns = 0;
};

// A job of a run of several (/jobs): its name and the world ranks it ran on.
struct JobRanks {
  std::string name;
  int first_rank = 0;
  int ranks = 0;
};

struct RunRecord {
  // "": simulated; else the backend a deployment ran on ("gloo", "nccl"), its times real
  // (nanoseconds since every rank had loaded its weights).
  std::string deployed_on;
  // A deployment's: the collective preset that models what its backend ran ("gloo",
  // "gloo-receive-first", "nccl"; compute/backends/backend.h).
  std::string deployed_collectives;
  int64_t total_ns = 0;                // when the last LP finished
  // Every generated token, in the order the ranks knew them: its id, when it was known, and
  // which prompt of the batch it continues.
  std::vector<int64_t> token_times_ns;
  std::vector<int64_t> tokens;
  std::vector<int64_t> token_prompts;
  // The rank that knew each token, and that scheduled each request, for telling jobs apart
  // (job_record.h); records read back from JSON (record_json.h) leave them empty.
  std::vector<int> token_ranks;
  // Serving runs: every finished request, in the order they finished.
  std::vector<RequestRecord> requests;
  std::vector<int> request_ranks;
  std::vector<RankStats> ranks;
  uint64_t device_memory_bytes = 0;  // memory of the ranks' device profile; 0: unknown
  std::vector<Span> spans;
  std::vector<NetMessage> messages;
  LinkActivity links;
  std::vector<LinkOutage> outages;  // in time order, within the run
  std::vector<LinkConditionSamples> link_conditions;  // time-varying links, in channel order
  std::vector<PhaseSpan> phases;    // in the order they ended
  std::vector<FaultRecord> faults;  // in the scenario's order
  std::vector<JobRanks> jobs;       // /jobs, in the scenario's order; empty for one job
  // Why the run stopped before its end ("interrupted by SIGINT at t=1.200 ms"): what it
  // holds is what had happened by then. Empty for a run that ran to its end.
  std::string partial;

  // Each prompt's token times, in order, for prompts 0 .. prompts() - 1: one pass, since a
  // batch may hold tens of thousands of prompts.
  std::vector<std::vector<int64_t>> token_times_by_prompt() const;
  // The prompts that have tokens: 0 .. n - 1.
  int64_t prompts() const;
  // Time to first token, the mean over prompts (0 when none).
  int64_t ttft_ns() const;
  // Time per output token after the first, the mean over prompts with two or more (0 when
  // none has).
  double tpot_ns() const;
  // The steps of every phase name, in order: step k of a name joins each rank's k-th span
  // of it.
  std::map<std::string, std::vector<PhaseStep>> phase_steps() const;

};

inline std::map<std::string, std::vector<PhaseStep>> RunRecord::phase_steps() const {
  std::map<std::string, std::vector<PhaseStep>> steps;
  std::map<std::pair<std::string, int>, size_t> seen;  // spans of (name, rank) so far
  for (const PhaseSpan& span : phases) {
    std::vector<PhaseStep>& of_name = steps[span.name];
    const size_t k = seen[{span.name, span.rank}]++;
    if (k == of_name.size()) of_name.push_back(PhaseStep{span.start_ns, span.end_ns, 0, 0});
    PhaseStep& step = of_name[k];
    step.first_begin_ns = std::min(step.first_begin_ns, span.start_ns);
    step.last_end_ns = std::max(step.last_end_ns, span.end_ns);
    step.rank_total_ns += span.end_ns - span.start_ns;
    ++step.ranks;
  }
  return steps;
}

inline std::vector<std::vector<int64_t>> RunRecord::token_times_by_prompt() const {
  std::vector<std::vector<int64_t>> times(static_cast<size_t>(prompts()));
  for (size_t i = 0; i < token_times_ns.size(); ++i) times[size_t(token_prompts[i])].push_back(token_times_ns[i]);
  return times;
}

inline int64_t RunRecord::prompts() const {
  int64_t count = 0;
  for (int64_t prompt : token_prompts) count = std::max(count, prompt + 1);
  return count;
}

inline int64_t RunRecord::ttft_ns() const {
  const std::vector<std::vector<int64_t>> by_prompt = token_times_by_prompt();
  if (by_prompt.empty()) return 0;
  double sum = 0;
  for (const std::vector<int64_t>& times : by_prompt) {
    if (!times.empty()) sum += double(times.front());
  }
  return std::llround(sum / double(by_prompt.size()));
}

inline double RunRecord::tpot_ns() const {
  double sum = 0;
  int64_t counted = 0;
  for (const std::vector<int64_t>& times : token_times_by_prompt()) {
    if (times.size() < 2) continue;
    sum += double(times.back() - times.front()) / double(times.size() - 1);
    ++counted;
  }
  return counted == 0 ? 0.0 : sum / double(counted);
}


}  // namespace uniference
