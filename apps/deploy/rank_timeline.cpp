#include "apps/deploy/rank_timeline.h"

#include <chrono>

namespace uniference {

RankTimeline::RankTimeline(int rank, int world) : rank_(rank) { recorder_.set_ranks(world); }

int64_t RankTimeline::clock_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void RankTimeline::set_origin(int64_t epoch_ns) {
  origin_ns_ = epoch_ns;
  compute_from_ns_ = now_ns();
}

int64_t RankTimeline::now_ns() const { return clock_ns() - (origin_ns_ < 0 ? 0 : origin_ns_); }

void RankTimeline::close_compute(int64_t until_ns) {
  if (started() && until_ns > compute_from_ns_) {
    recorder_.compute(rank_, compute_from_ns_, until_ns, label_);
  }
  compute_from_ns_ = until_ns;
}

void RankTimeline::label(const std::string& label) {
  ++events_;
  close_compute(now_ns());
  label_ = label;
}

int64_t RankTimeline::call_begins() {
  ++events_;
  const int64_t now = now_ns();
  close_compute(now);
  return now;
}

void RankTimeline::waited(const std::string& operation, int64_t start_ns, int64_t end_ns,
                          uint64_t bytes, int peer) {
  if (started()) recorder_.comm_wait(rank_, operation, start_ns, end_ns, bytes, peer);
  compute_from_ns_ = end_ns;
}

void RankTimeline::flew(const std::string& operation, const std::string& label, int64_t issued_ns,
                        int64_t completed_ns, uint64_t bytes, int peer) {
  if (started()) recorder_.comm_flight(rank_, operation, label, issued_ns, completed_ns, bytes, peer);
}

void RankTimeline::sent(const std::string& operation, const std::string& label, uint64_t bytes) {
  if (started() && bytes > 0) recorder_.payload_sent(rank_, operation, label, bytes);
}

void RankTimeline::token(int64_t prompt, int64_t token) { recorder_.token(rank_, prompt, token, now_ns()); }

void RankTimeline::memory(uint64_t weights, uint64_t kv_cache, uint64_t activations) {
  recorder_.memory(rank_, weights, kv_cache, activations);
}

void RankTimeline::finished() {
  const int64_t now = now_ns();
  close_compute(now);
  recorder_.finished(rank_, now);
}

}  // namespace uniference
