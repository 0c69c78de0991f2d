// What the link sampler (bridge/link_sampler.h) keeps per direction while a run goes, and the
// small pieces its taps share: bridge/link_sampler.cpp taps cables (Ethernet, point-to-point,
// the lossless fabric), bridge/radio_link_taps.cpp the radio cells (Wi-Fi, LTE).
#pragma once

#include "bridge/link_sampler.h"

#include <ns3/net-device.h>
#include <ns3/queue-disc.h>
#include <ns3/simulator.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace uniference {

struct LinkSampler::State {
  struct Direction {
    std::string name;
    uint64_t rate_bps = 0;
    std::vector<uint64_t> bytes;   // empty until the first packet: idle links cost nothing
    std::vector<int64_t> busy_ps;
    int64_t line_free_ps = 0;  // InfiniBand-like ports: when the last packet's time ends
    uint64_t drops = 0;        // packets lost before the line or on arrival
    uint64_t marks = 0;        // packets marked congested as they left
    int64_t stall_ps = 0;      // the line idle for want of credits, a packet waiting
    // Bytes waiting for the line, over every queue that feeds it, and their integral over
    // time (exact: bytes x picoseconds fit 128 bits for any run).
    int64_t queue_bytes = 0;
    int64_t queue_since_ps = 0;
    uint64_t queue_peak_bytes = 0;
    unsigned __int128 queue_byte_ps = 0;
    // Runs of several jobs (/jobs): bytes by job, and per bin the jobs that sent in it (bit j:
    // job j).
    std::vector<uint64_t> job_bytes;
    std::vector<uint64_t> job_mask;

    // The backlog held over [queue_since_ps, now_ps) counts from now on; a level that
    // lasted no time (a packet through an empty queue, straight onto the line) is no peak.
    void queue_until(int64_t now_ps) {
      if (now_ps <= queue_since_ps) return;
      const uint64_t level = uint64_t(std::max<int64_t>(queue_bytes, 0));
      queue_peak_bytes = std::max(queue_peak_bytes, level);
      queue_byte_ps += static_cast<unsigned __int128>(level) * uint64_t(now_ps - queue_since_ps);
      queue_since_ps = now_ps;
    }
    void queue_change(int64_t now_ps, int64_t delta) {
      queue_until(now_ps);
      queue_bytes += delta;
    }
  };

  size_t max_bins = 1;
  int64_t width_ps = 1000;  // whole nanoseconds, so interval_ns is exact
  std::vector<Direction> directions;

  // Runs of several jobs (LinkSampler::attribute_jobs): a packet's job, by the rank it comes
  // from: its endpoint id on the lossless fabric (a rank's), its IPv4 source address else.
  size_t jobs = 0;  // 0: packets are not told apart
  std::vector<int> job_of_rank;
  std::unordered_map<uint32_t, int> job_of_address;

  // What a tap saw, held back until the run's end is known (keep_until_end).
  struct Seen {
    enum Kind : uint8_t { kPacket, kQueue, kCount } kind;
    size_t index;
    int64_t at_ps;  // kPacket: its start
    int64_t end_ps;  // kPacket: its end
    int64_t amount;  // kPacket: bytes; kQueue: the level's change
    uint64_t Direction::*counter;  // kCount
    int job = -1;    // kPacket
  };
  bool keeping = false;
  std::vector<Seen> seen;

  // Applies what was held back up to end_ps (inclusive), in the order it was seen; drops the
  // rest; then takes taps as they come.
  void apply_until(int64_t end_ps) {
    keeping = false;
    for (const Seen& s : seen) {
      if (s.at_ps > end_ps) continue;
      switch (s.kind) {
        case Seen::kPacket: packet_at(s.index, uint64_t(s.amount), s.at_ps, s.end_ps, s.job); break;
        case Seen::kQueue: directions[s.index].queue_change(s.at_ps, s.amount); break;
        case Seen::kCount: ++(directions[s.index].*s.counter); break;
      }
    }
    seen.clear();
    seen.shrink_to_fit();
  }

  void queue_change(size_t index, int64_t now_ps, int64_t delta) {
    if (keeping) {
      seen.push_back({Seen::kQueue, index, now_ps, 0, delta, nullptr});
      return;
    }
    directions[index].queue_change(now_ps, delta);
  }

  void count(size_t index, uint64_t Direction::*counter) {
    if (keeping) {
      seen.push_back({Seen::kCount, index, ns3::Simulator::Now().GetPicoSeconds(), 0, 0, counter});
      return;
    }
    ++(directions[index].*counter);
  }

  // Halves the number of bins in use: bin i takes bins 2i and 2i + 1.
  void widen() {
    for (Direction& direction : directions) {
      if (direction.bytes.empty()) continue;
      for (size_t i = 0; i < max_bins; ++i) {
        const size_t a = 2 * i;
        const size_t b = a + 1;
        direction.bytes[i] = a < max_bins ? direction.bytes[a] : 0;
        direction.busy_ps[i] = a < max_bins ? direction.busy_ps[a] : 0;
        if (b < max_bins) {
          direction.bytes[i] += direction.bytes[b];
          direction.busy_ps[i] += direction.busy_ps[b];
        }
        if (!direction.job_mask.empty()) {
          direction.job_mask[i] = (a < max_bins ? direction.job_mask[a] : 0) |
                                  (b < max_bins ? direction.job_mask[b] : 0);
        }
      }
    }
    width_ps *= 2;
  }

  // Widens until [0, end_ps) fits in max_bins bins.
  void fit(int64_t end_ps) {
    while (end_ps > width_ps * int64_t(max_bins)) widen();
  }

  // A packet of `bytes` starting now whose serialisation takes `busy_ps`.
  void packet(size_t index, uint64_t bytes, int64_t busy_ps, int job = -1) {
    const int64_t start_ps = ns3::Simulator::Now().GetPicoSeconds();
    packet_at(index, bytes, start_ps, start_ps + busy_ps, job);
  }

  // A packet of `bytes` whose serialisation occupies [start, end) on `index`, sent by a rank
  // of job `job` (-1: not told apart).
  void packet_at(size_t index, uint64_t bytes, int64_t start_ps, int64_t end_ps, int job = -1) {
    if (keeping) {
      seen.push_back({Seen::kPacket, index, start_ps, end_ps, int64_t(bytes), nullptr, job});
      return;
    }
    const int64_t busy_ps = std::max<int64_t>(end_ps - start_ps, 0);
    fit(std::max(end_ps, start_ps + 1));
    Direction& direction = directions[index];
    if (direction.bytes.empty()) {
      direction.bytes.assign(max_bins, 0);
      direction.busy_ps.assign(max_bins, 0);
    }
    direction.bytes[size_t(start_ps / width_ps)] += bytes;
    if (job >= 0) {
      if (direction.job_bytes.empty()) {
        direction.job_bytes.assign(jobs, 0);
        direction.job_mask.assign(max_bins, 0);
      }
      direction.job_bytes[size_t(job)] += bytes;
      const int64_t last = std::max(start_ps, end_ps - 1) / width_ps;
      for (int64_t bin = start_ps / width_ps; bin <= last; ++bin) direction.job_mask[size_t(bin)] |= uint64_t(1) << job;
    }
    // The line time goes to the bins it falls in, so no bin is busier than it is long.
    for (int64_t t = start_ps; t < start_ps + busy_ps;) {
      const int64_t bin = t / width_ps;
      const int64_t take = std::min(start_ps + busy_ps, (bin + 1) * width_ps) - t;
      direction.busy_ps[size_t(bin)] += take;
      t += take;
    }
  }

  // Streams using `load` (0 to 1) of the line rate on `index` over [start, end): each bin
  // gets the bytes and the busy time of its part of the interval.
  void load_at(size_t index, int64_t start_ps, int64_t end_ps, double load) {
    if (end_ps <= start_ps || load <= 0) return;
    fit(end_ps);
    Direction& direction = directions[index];
    if (direction.bytes.empty()) {
      direction.bytes.assign(max_bins, 0);
      direction.busy_ps.assign(max_bins, 0);
    }
    const double bytes_per_ps = double(direction.rate_bps) / 8e12 * load;
    for (int64_t t = start_ps; t < end_ps;) {
      const int64_t bin = t / width_ps;
      const int64_t take = std::min(end_ps, (bin + 1) * width_ps) - t;
      direction.bytes[size_t(bin)] += uint64_t(std::llround(bytes_per_ps * double(take)));
      direction.busy_ps[size_t(bin)] += std::llround(load * double(take));
      t += take;
    }
  }
};

namespace link_taps {

using State = LinkSampler::State;

// A packet lost or marked on a direction: the signature differs by trace, the count does not.
template <uint64_t State::Direction::*counter, typename... Args>
inline void count(std::shared_ptr<State> state, size_t index, Args...) {
  state->count(index, counter);
}

// A queue (a device's, a queue disc's) that feeds the line of `index` changed its level.
inline void queue_level(std::shared_ptr<State> state, size_t index, uint32_t old_bytes, uint32_t new_bytes) {
  state->queue_change(index, ns3::Simulator::Now().GetPicoSeconds(),
                      int64_t(new_bytes) - int64_t(old_bytes));
}

// Taps on direction `index` the queue discs in front of `device` (its node's traffic control: a
// host's IP stack; an Ethernet switch's disc on that port: a shaper): their levels, their
// drops when full and their ECN marks.
void tap_queue_discs(const std::shared_ptr<State>& state, size_t index, const ns3::Ptr<ns3::NetDevice>& device);

}  // namespace link_taps
}  // namespace uniference
