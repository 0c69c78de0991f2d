#include "bridge/run_recorder.h"

#include <algorithm>
#include <stdexcept>

namespace uniference {

namespace {

uint64_t pair_key(int src, int dst) {
  return (uint64_t(uint32_t(src)) << 32) | uint32_t(dst);
}

}  // namespace

void RunRecorder::set_ranks(int ranks) {
  record_.ranks.resize(static_cast<size_t>(ranks));
  for (int r = 0; r < ranks; ++r) record_.ranks[static_cast<size_t>(r)].rank = r;
}

RankStats& RunRecorder::stats(int rank) {
  if (rank < 0 || static_cast<size_t>(rank) >= record_.ranks.size()) {
    throw std::out_of_range("run recorder: no rank " + std::to_string(rank));
  }
  return record_.ranks[static_cast<size_t>(rank)];
}

void RunRecorder::compute(int rank, int64_t start_ns, int64_t end_ns, const std::string& label) {
  stats(rank).compute_ns += end_ns - start_ns;
  record_.spans.push_back(Span{rank, Span::Kind::kCompute, label.empty() ? "compute" : label,
                               start_ns, end_ns, 0, -1, ""});
}

void RunRecorder::crashed(int rank, int64_t ns) {
  std::vector<Span>& spans = record_.spans;
  for (Span& span : spans) {
    if (span.rank != rank || span.kind != Span::Kind::kCompute || span.end_ns <= ns) continue;
    const int64_t kept = std::max(span.start_ns, ns);
    stats(rank).compute_ns -= span.end_ns - kept;
    span.end_ns = kept;
  }
  spans.erase(std::remove_if(spans.begin(), spans.end(),
                             [&](const Span& s) {
                               return s.rank == rank && s.kind == Span::Kind::kCompute && s.start_ns >= ns;
                             }),
              spans.end());
}

void RunRecorder::comm_flight(int rank, const std::string& operation, const std::string& label,
                              int64_t issued_ns, int64_t completed_ns, uint64_t bytes, int peer) {
  record_.spans.push_back(
      Span{rank, Span::Kind::kFlight, operation, issued_ns, completed_ns, bytes, peer, label});
}

void RunRecorder::comm_wait(int rank, const std::string& operation, int64_t start_ns,
                            int64_t end_ns, uint64_t bytes, int peer) {
  stats(rank).comm_wait_ns += end_ns - start_ns;
  record_.spans.push_back(
      Span{rank, Span::Kind::kComm, operation, start_ns, end_ns, bytes, peer, ""});
}

void RunRecorder::memory(int rank, uint64_t weights, uint64_t kv_cache, uint64_t activations) {
  RankStats& rank_stats = stats(rank);
  rank_stats.weight_bytes = weights;
  rank_stats.kv_cache_bytes = kv_cache;
  rank_stats.activation_bytes = activations;
}

void RunRecorder::phase(int rank, const std::string& name, bool begins, int64_t ns) {
  const std::pair<int, std::string> key{rank, name};
  if (begins) {
    if (!open_phases_.emplace(key, ns).second) {
      throw std::logic_error("rank " + std::to_string(rank) + ": phase " + name +
                             " begins again before it ended");
    }
    return;
  }
  auto open = open_phases_.find(key);
  if (open == open_phases_.end()) {
    throw std::logic_error("rank " + std::to_string(rank) + ": phase " + name +
                           " ends without having begun");
  }
  record_.phases.push_back(PhaseSpan{rank, name, open->second, ns});
  open_phases_.erase(open);
}

void RunRecorder::finished(int rank, int64_t ns) {
  stats(rank).finish_ns = ns;
  record_.total_ns = std::max(record_.total_ns, ns);
}

void RunRecorder::message_sent(int src, int dst, const std::string& label, uint64_t bytes,
                               int64_t ns, const std::string& compute_label) {
  RankStats& sender = stats(src);
  sender.bytes_sent += bytes;
  static const std::string kUnlabelled = "unlabelled";
  sender.bytes_by_label[compute_label.empty() ? kUnlabelled : compute_label][label] += bytes;
  on_the_wire_[pair_key(src, dst)].push_back(NetMessage{src, dst, bytes, ns, /*recv_ns=*/0, label});
}

void RunRecorder::payload_sent(int rank, const std::string& operation, const std::string& label,
                               uint64_t bytes) {
  RankStats& sender = stats(rank);
  sender.bytes_sent += bytes;
  sender.bytes_by_label[label.empty() ? "unlabelled" : label][operation] += bytes;
}

void RunRecorder::message_delivered(int src, int dst, int64_t ns) {
  auto& wire = on_the_wire_[pair_key(src, dst)];
  if (wire.empty()) return;  // a frame of the transport's own (a hello), not a message
  NetMessage message = std::move(wire.front());
  wire.pop_front();
  message.recv_ns = ns;
  record_.messages.push_back(std::move(message));
}

std::vector<NetMessage> RunRecorder::sent_elsewhere() const {
  std::vector<NetMessage> sent;
  for (const auto& [pair, wire] : on_the_wire_) sent.insert(sent.end(), wire.begin(), wire.end());
  // The hash map's order is not the same in every build: by pair, each pair's in order.
  std::stable_sort(sent.begin(), sent.end(), [](const NetMessage& a, const NetMessage& b) {
    return std::make_pair(a.src, a.dst) < std::make_pair(b.src, b.dst);
  });
  return sent;
}

void RunRecorder::token(int rank, int64_t prompt, int64_t token, int64_t ns) {
  record_.token_ranks.push_back(rank);
  record_.token_prompts.push_back(prompt);
  record_.tokens.push_back(token);
  record_.token_times_ns.push_back(ns);
}

}  // namespace uniference
