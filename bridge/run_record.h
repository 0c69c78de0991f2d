// What one simulated run leaves behind: the spans of every LP, the network messages,
// per-rank totals and the generated tokens. The bridge fills it; reports read it.
// All times are integer nanoseconds of simulated time (docs/design.md section 2).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace uniference {

// A stretch of one LP's simulated time: compute it was charged for, or a
// communication call it waited in.
struct Span {
  enum class Kind { kCompute, kComm };
  int rank = 0;
  Kind kind = Kind::kCompute;
  std::string name;  // "compute", "all_reduce", "send", "recv", ...
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  uint64_t bytes = 0;  // payload of a communication call; 0 for compute
  int peer = -1;       // send/recv peer (rank in the world), -1 otherwise
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
};

// Bytes one direction of one cable carried, per sampling interval (bridge/link_sampler.h).
struct LinkSeries {
  std::string name;                // "rank 0 -> node 16": sender -> receiver of this direction
  uint64_t rate_bps = 0;           // line rate
  std::vector<uint64_t> bytes;     // per interval: bytes of the packets that started in it
  std::vector<int64_t> busy_ps;    // per interval: time the line spent serialising
};

// Link activity of a run, in intervals of one fixed length from t = 0 to total_ns (the
// last one may be shorter). Only directions that carried bytes are listed.
struct LinkActivity {
  int64_t interval_ns = 0;  // 0: not sampled
  std::vector<LinkSeries> links;
  uint64_t links_omitted = 0;  // busy directions left out by the cap (the least busy ones)
};

struct RunRecord {
  int64_t total_ns = 0;                // when the last LP finished
  std::vector<int64_t> token_times_ns;  // rank 0: simulated time each token was known
  std::vector<int64_t> tokens;          // the generated token ids
  std::vector<RankStats> ranks;
  std::vector<Span> spans;
  std::vector<NetMessage> messages;
  LinkActivity links;

  // Time to first token: the first entry of token_times_ns (0 when none).
  int64_t ttft_ns() const { return token_times_ns.empty() ? 0 : token_times_ns.front(); }
  // Mean time per output token after the first (0 when fewer than two tokens).
  double tpot_ns() const {
    if (token_times_ns.size() < 2) return 0.0;
    return double(token_times_ns.back() - token_times_ns.front()) /
           double(token_times_ns.size() - 1);
  }
};

}  // namespace uniference
