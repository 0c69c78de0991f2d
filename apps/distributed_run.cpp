#include "apps/distributed_run.h"

#include "apps/record_json.h"
#include "bridge/link_sampler.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <deque>
#include <map>
#include <sstream>
#include <stdexcept>

namespace uniference {

using nlohmann::json;

std::string part_to_text(const ProcessPart& part) {
  return json{{"record", record_to_json(part.record)},
              {"ranks_here", part.ranks_here},
              {"sent_elsewhere", messages_to_json(part.sent_elsewhere)},
              {"arrived", messages_to_json(part.arrived)},
              {"status", int(part.outcome.status)},
              {"report", part.outcome.report},
              {"signal", part.outcome.signal}}
      .dump();
}

ProcessPart part_from_text(const std::string& text) {
  try {
    const json in = json::parse(text);
    ProcessPart part;
    part.record = record_from_json(in.at("record"));
    part.ranks_here = in.at("ranks_here").get<std::vector<bool>>();
    part.sent_elsewhere = messages_from_json(in.at("sent_elsewhere"));
    part.arrived = messages_from_json(in.at("arrived"));
    part.outcome.status = RunOutcome::Status(in.at("status").get<int>());
    part.outcome.report = in.at("report").get<std::string>();
    part.outcome.signal = in.at("signal").get<int>();
    return part;
  } catch (const json::exception& e) {
    throw std::invalid_argument(std::string("a process's part of the run is malformed: ") + e.what());
  }
}

namespace {

// An error outranks a deadlock, which outranks completion.
int severity(RunOutcome::Status status) {
  switch (status) {
    case RunOutcome::Status::kCompleted: return 0;
    case RunOutcome::Status::kDeadlock: return 1;
    default: return 2;
  }
}

std::vector<NetMessage> join_messages(const std::vector<ProcessPart>& parts) {
  std::vector<NetMessage> messages;
  std::map<std::pair<int, int>, std::deque<NetMessage>> sent;  // per pair, in send order
  for (const ProcessPart& part : parts) {
    messages.insert(messages.end(), part.record.messages.begin(), part.record.messages.end());
    for (const NetMessage& m : part.sent_elsewhere) sent[{m.src, m.dst}].push_back(m);
  }
  for (const ProcessPart& part : parts) {
    for (const NetMessage& arrival : part.arrived) {
      auto& wire = sent[{arrival.src, arrival.dst}];
      if (wire.empty()) {
        throw std::logic_error("a message from rank " + std::to_string(arrival.src) + " to rank " +
                               std::to_string(arrival.dst) + " arrived that no process sent");
      }
      NetMessage message = std::move(wire.front());
      wire.pop_front();
      message.recv_ns = arrival.recv_ns;
      messages.push_back(std::move(message));
    }
  }
  // One process records a message when it arrives.
  std::stable_sort(messages.begin(), messages.end(),
                   [](const NetMessage& a, const NetMessage& b) { return a.recv_ns < b.recv_ns; });
  return messages;
}

LinkActivity join_links(const std::vector<ProcessPart>& parts,
                        const std::vector<std::string>& direction_order) {
  std::map<std::string, size_t> place;
  for (size_t i = 0; i < direction_order.size(); ++i) place.emplace(direction_order[i], i);
  LinkActivity links;
  for (const ProcessPart& part : parts) {
    links.interval_ns = std::max(links.interval_ns, part.record.links.interval_ns);
    links.links.insert(links.links.end(), part.record.links.links.begin(), part.record.links.links.end());
  }
  std::stable_sort(links.links.begin(), links.links.end(), [&](const LinkSeries& a, const LinkSeries& b) {
    return place.at(a.name) < place.at(b.name);
  });
  keep_busiest(links, LinkSampler::kMaxLinks);
  return links;
}

}  // namespace

JoinedRun join_parts(const std::vector<ProcessPart>& parts,
                     const std::vector<std::string>& direction_order) {
  if (parts.empty()) throw std::invalid_argument("join_parts: no parts");
  JoinedRun joined;
  std::vector<RunRecord> records;
  std::vector<size_t> owner(parts.front().ranks_here.size(), parts.size());
  for (size_t p = 0; p < parts.size(); ++p) {
    records.push_back(parts[p].record);
    for (size_t r = 0; r < owner.size(); ++r) {
      if (parts[p].ranks_here.at(r)) owner[r] = p;
    }
    const RunOutcome& outcome = parts[p].outcome;
    if (severity(outcome.status) > severity(joined.outcome.status)) {
      joined.outcome = outcome;
    } else if (outcome.status == RunOutcome::Status::kDeadlock &&
               joined.outcome.status == RunOutcome::Status::kDeadlock) {
      // One deadlock: this process's blocked ranks join the list under the first's heading.
      std::istringstream lines(outcome.report);
      for (std::string line; std::getline(lines, line);) {
        if (line.rfind("  ", 0) == 0) joined.outcome.report += line + "\n";
      }
    } else if (outcome.status == joined.outcome.status && !outcome.report.empty()) {
      // The same kind of end elsewhere: its errors belong in the one report.
      joined.outcome.report += (joined.outcome.report.empty() ? "" : "\n") + outcome.report;
    }
  }
  joined.record = merge_rank_records(records, owner);
  RunRecord& record = joined.record;
  record.messages = join_messages(parts);
  record.links = join_links(parts, direction_order);
  // Time-varying links and faults are refused across processes: each process has them all.
  record.outages = parts.front().record.outages;
  record.link_conditions = parts.front().record.link_conditions;
  return joined;
}

}  // namespace uniference
