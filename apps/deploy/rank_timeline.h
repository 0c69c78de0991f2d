// One deployed rank's RunRecord, in real time: the same spans, waits, flights, tokens and
// memory the simulator records, so a deployment and its simulation pair up one to one.
//
// Times are nanoseconds of the host's real-time clock since the origin every rank agrees on
// (the moment the last rank had loaded its weights, rendezvous.h), so the ranks' records
// merge onto one timeline. Work before the origin (building weights) is not serving work
// and is not recorded, as the simulator discards it.
#pragma once

#include "bridge/run_recorder.h"

#include <cstdint>
#include <string>

namespace uniference {

class RankTimeline {
 public:
  RankTimeline(int rank, int world);

  // The host's real-time clock, in nanoseconds since the epoch.
  static int64_t clock_ns();
  // Time 0 of the run; compute is counted from here.
  void set_origin(int64_t epoch_ns);
  bool started() const { return origin_ns_ >= 0; }
  // Now, in nanoseconds since the origin.
  int64_t now_ns() const;

  // Shard code labelled what it computes next: the compute so far goes under the old label.
  void label(const std::string& label);
  const std::string& current_label() const { return label_; }

  // A communication call begins now: the compute since the last call ends here.
  int64_t call_begins();
  // How many calls and labels the rank has seen: a handle waited on when this has moved
  // since its issue overlapped other work, and its flight is worth a span.
  uint64_t events() const { return events_; }
  // The caller waited in `operation` over [start, end): compute resumes at end.
  void waited(const std::string& operation, int64_t start_ns, int64_t end_ns, uint64_t bytes,
              int peer);
  // An asynchronous call issued at `issued_ns` under `label` completed by `completed_ns`.
  void flew(const std::string& operation, const std::string& label, int64_t issued_ns,
            int64_t completed_ns, uint64_t bytes, int peer);
  void sent(const std::string& operation, const std::string& label, uint64_t bytes);

  void token(int64_t prompt, int64_t token);
  // A served request finished (this rank drives its replica).
  void request(const RequestRecord& record) { recorder_.request(rank_, record); }
  void memory(uint64_t weights, uint64_t kv_cache, uint64_t activations);
  // A phase the shard code timed began or ended now.
  void phase(const std::string& name, bool begins) {
    if (started()) recorder_.phase(rank_, name, begins, now_ns());
  }
  // The shard code returned: the last compute span closes.
  void finished();

  const RunRecord& record() const { return recorder_.record(); }

 private:
  void close_compute(int64_t until_ns);

  int rank_;
  RunRecorder recorder_;
  int64_t origin_ns_ = -1;
  int64_t compute_from_ns_ = 0;
  std::string label_;
  uint64_t events_ = 0;
};

}  // namespace uniference
