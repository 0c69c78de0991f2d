// The one writer of a RunRecord. The kernel reports compute and waits, the network side
// reports messages as the transports trace them, the runner reports tokens; nothing else
// touches the record while a run is going, so what a report reads has one source.
#pragma once

#include "bridge/run_record.h"

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>

namespace uniference {

class RunRecorder {
 public:
  // Makes room for `ranks` ranks (0..ranks-1); called once the LPs are known.
  void set_ranks(int ranks);

  // An LP was charged compute over [start, end), computing `label` ("" for unnamed).
  void compute(int rank, int64_t start_ns, int64_t end_ns, const std::string& label = "");
  // An LP waited in a communication call over [start, end).
  void comm_wait(int rank, const std::string& operation, int64_t start_ns, int64_t end_ns,
                 uint64_t bytes, int peer);
  // An asynchronous call was in flight over [issued, completed): issued under the compute
  // label `label`.
  void comm_flight(int rank, const std::string& operation, const std::string& label,
                   int64_t issued_ns, int64_t completed_ns, uint64_t bytes, int peer);
  // What a rank's model holds, in bytes.
  void memory(int rank, uint64_t weights, uint64_t kv_cache, uint64_t activations);
  // A phase of the LP began (begins) or ended at `ns`.
  void phase(int rank, const std::string& name, bool begins, int64_t ns);
  // An LP's shard code returned at `ns`.
  void finished(int rank, int64_t ns);
  // An LP crashed at `ns` (a fault): compute it had been charged for beyond then never ran,
  // so its spans stop there.
  void crashed(int rank, int64_t ns);

  // A message's first byte was offered to the network / its last byte arrived. The
  // transport keeps each ordered pair's messages in order, so they are paired in order.
  // `label` names the operation; `compute_label` the sender's label when it issued it.
  void message_sent(int src, int dst, const std::string& label, uint64_t bytes, int64_t ns,
                    const std::string& compute_label = "");
  void message_delivered(int src, int dst, int64_t ns);
  // In one process of a distributed simulation: a message from a rank whose LP runs in
  // another process arrived (its sending half is in that process's recorder).
  void message_arrived(int src, int dst, int64_t ns) {
    arrived_.push_back(NetMessage{src, dst, 0, 0, ns, ""});
  }
  // The halves of messages between processes: those sent here and not delivered here (recv_ns
  // 0), in the order each pair sent them, and those that arrived from elsewhere, in arrival
  // order (bytes and send_ns 0). A distributed run's process 0 joins them pair by pair.
  std::vector<NetMessage> sent_elsewhere() const;
  const std::vector<NetMessage>& arrived_from_elsewhere() const { return arrived_; }
  // A deployed rank handed `bytes` (the call's payload, nccl-tests' S) to a library whose
  // messages are not seen: counted as sent, under `label` and `operation`.
  void payload_sent(int rank, const std::string& operation, const std::string& label,
                    uint64_t bytes);

  // The network's link activity, once the run is over (bridge/link_sampler.h).
  void links(LinkActivity activity) { record_.links = std::move(activity); }
  // The outages of links that have them, once the run is over (bridge/varying_links.h).
  void outages(std::vector<LinkOutage> outages) { record_.outages = std::move(outages); }
  // Their delay and rates over the run (bridge/varying_links.h).
  void link_conditions(std::vector<LinkConditionSamples> samples) {
    record_.link_conditions = std::move(samples);
  }

  // The faults the scenario injects (/faults), before the run starts; what each costs is
  // added as the run pays it.
  void faults(std::vector<FaultRecord> faults) { record_.faults = std::move(faults); }
  void fault_cost(size_t fault, uint64_t packets_lost, int64_t compute_added_ns) {
    record_.faults.at(fault).packets_lost += packets_lost;
    record_.faults.at(fault).compute_added_ns += compute_added_ns;
  }

  // `rank`, producing `prompt`'s tokens, knew token `token` of it at `ns`.
  void token(int rank, int64_t prompt, int64_t token, int64_t ns);
  // A served request finished, on `rank`'s scheduler.
  void request(int rank, RequestRecord record) {
    record_.requests.push_back(std::move(record));
    record_.request_ranks.push_back(rank);
  }

  // The jobs of a run of several (/jobs), before it starts.
  void jobs(std::vector<JobRanks> jobs) { record_.jobs = std::move(jobs); }

  const RunRecord& record() const { return record_; }

 private:
  RankStats& stats(int rank);

  RunRecord record_;
  // Messages sent and not yet delivered, per (source, destination) packed into one key: a
  // hash map, since a large all-to-all has a million pairs and this is looked up twice for
  // every message.
  std::unordered_map<uint64_t, std::deque<NetMessage>> on_the_wire_;
  std::map<std::pair<int, std::string>, int64_t> open_phases_;  // (rank, name) -> began at
  std::vector<NetMessage> arrived_;  // message_arrived's
};

}  // namespace uniference
