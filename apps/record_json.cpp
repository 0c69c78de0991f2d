#include "apps/record_json.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace uniference {

using nlohmann::json;

namespace {

const char* kind_name(Span::Kind kind) {
  switch (kind) {
    case Span::Kind::kCompute:
      return "compute";
    case Span::Kind::kComm:
      return "comm";
    case Span::Kind::kFlight:
      return "flight";
  }
  return "?";
}

Span::Kind kind_named(const std::string& name) {
  if (name == "compute") return Span::Kind::kCompute;
  if (name == "comm") return Span::Kind::kComm;
  if (name == "flight") return Span::Kind::kFlight;
  throw std::invalid_argument("record: unknown span kind '" + name + "'");
}

}  // namespace

json record_to_json(const RunRecord& record) {
  json spans = json::array();
  for (const Span& s : record.spans) {
    spans.push_back({s.rank, kind_name(s.kind), s.name, s.start_ns, s.end_ns, s.bytes, s.peer, s.label});
  }
  json ranks = json::array();
  for (const RankStats& r : record.ranks) {
    ranks.push_back({{"rank", r.rank},
                     {"compute_ns", r.compute_ns},
                     {"comm_wait_ns", r.comm_wait_ns},
                     {"bytes_sent", r.bytes_sent},
                     {"finish_ns", r.finish_ns},
                     {"weight_bytes", r.weight_bytes},
                     {"kv_cache_bytes", r.kv_cache_bytes},
                     {"activation_bytes", r.activation_bytes},
                     {"bytes_by_label", r.bytes_by_label}});
  }
  json requests = json::array();
  for (const RequestRecord& r : record.requests) requests.push_back(request_to_json(r));
  json phases = json::array();
  for (const PhaseSpan& p : record.phases) phases.push_back({p.rank, p.name, p.start_ns, p.end_ns});
  return {{"deployed_on", record.deployed_on}, {"deployed_collectives", record.deployed_collectives},
          {"total_ns", record.total_ns},         {"tokens", record.tokens},
          {"token_times_ns", record.token_times_ns}, {"token_prompts", record.token_prompts},
          {"device_memory_bytes", record.device_memory_bytes},
          {"ranks", std::move(ranks)},           {"spans", std::move(spans)},
          {"requests", std::move(requests)}, {"phases", std::move(phases)},
          {"messages", messages_to_json(record.messages)}, {"links", links_to_json(record.links)}};
}

json messages_to_json(const std::vector<NetMessage>& messages) {
  json list = json::array();
  for (const NetMessage& m : messages) list.push_back({m.src, m.dst, m.bytes, m.send_ns, m.recv_ns, m.label});
  return list;
}

std::vector<NetMessage> messages_from_json(const json& list) {
  std::vector<NetMessage> messages;
  for (const json& m : list) {
    messages.push_back(NetMessage{m.at(0).get<int>(), m.at(1).get<int>(), m.at(2).get<uint64_t>(),
                                  m.at(3).get<int64_t>(), m.at(4).get<int64_t>(),
                                  m.at(5).get<std::string>()});
  }
  return messages;
}

json links_to_json(const LinkActivity& links) {
  json directions = json::array();
  for (const LinkSeries& l : links.links) {
    directions.push_back({{"name", l.name}, {"rate_bps", l.rate_bps}, {"bytes", l.bytes},
                          {"busy_ps", l.busy_ps}, {"drops", l.drops}, {"marks", l.marks},
                          {"queue_peak_bytes", l.queue_peak_bytes},
                          {"queue_mean_bytes", l.queue_mean_bytes},
                          {"credit_stall_ps", l.credit_stall_ps}});
  }
  return {{"interval_ns", links.interval_ns}, {"omitted", links.links_omitted},
          {"directions", std::move(directions)}};
}

LinkActivity links_from_json(const json& in) {
  LinkActivity links;
  links.interval_ns = in.at("interval_ns").get<int64_t>();
  links.links_omitted = in.at("omitted").get<uint64_t>();
  for (const json& l : in.at("directions")) {
    LinkSeries series;
    series.name = l.at("name").get<std::string>();
    series.rate_bps = l.at("rate_bps").get<uint64_t>();
    series.bytes = l.at("bytes").get<std::vector<uint64_t>>();
    series.busy_ps = l.at("busy_ps").get<std::vector<int64_t>>();
    series.drops = l.at("drops").get<uint64_t>();
    series.marks = l.at("marks").get<uint64_t>();
    series.queue_peak_bytes = l.at("queue_peak_bytes").get<uint64_t>();
    series.queue_mean_bytes = l.at("queue_mean_bytes").get<double>();
    series.credit_stall_ps = l.at("credit_stall_ps").get<int64_t>();
    links.links.push_back(std::move(series));
  }
  return links;
}

json request_to_json(const RequestRecord& r) {
  return {{"id", r.id},
          {"replica", r.replica},
          {"arrival_ns", r.arrival_ns},
          {"scheduled_ns", r.scheduled_ns},
          {"first_token_ns", r.first_token_ns},
          {"finish_ns", r.finish_ns},
          {"prompt_tokens", r.prompt_tokens},
          {"new_tokens", r.new_tokens},
          {"preemptions", r.preemptions},
          {"tokens", r.tokens}};
}

RunRecord record_from_json(const json& in) {
  try {
    RunRecord record;
    record.deployed_on = in.at("deployed_on").get<std::string>();
    record.deployed_collectives = in.value("deployed_collectives", std::string());
    record.total_ns = in.at("total_ns").get<int64_t>();
    record.tokens = in.at("tokens").get<std::vector<int64_t>>();
    record.token_times_ns = in.at("token_times_ns").get<std::vector<int64_t>>();
    record.token_prompts = in.at("token_prompts").get<std::vector<int64_t>>();
    record.device_memory_bytes = in.at("device_memory_bytes").get<uint64_t>();
    for (const json& r : in.at("ranks")) {
      RankStats stats;
      stats.rank = r.at("rank").get<int>();
      stats.compute_ns = r.at("compute_ns").get<int64_t>();
      stats.comm_wait_ns = r.at("comm_wait_ns").get<int64_t>();
      stats.bytes_sent = r.at("bytes_sent").get<uint64_t>();
      stats.finish_ns = r.at("finish_ns").get<int64_t>();
      stats.weight_bytes = r.at("weight_bytes").get<uint64_t>();
      stats.kv_cache_bytes = r.at("kv_cache_bytes").get<uint64_t>();
      stats.activation_bytes = r.at("activation_bytes").get<uint64_t>();
      stats.bytes_by_label =
          r.at("bytes_by_label").get<std::map<std::string, std::map<std::string, uint64_t>>>();
      record.ranks.push_back(std::move(stats));
    }
    for (const json& s : in.at("spans")) {
      Span span;
      span.rank = s.at(0).get<int>();
      span.kind = kind_named(s.at(1).get<std::string>());
      span.name = s.at(2).get<std::string>();
      span.start_ns = s.at(3).get<int64_t>();
      span.end_ns = s.at(4).get<int64_t>();
      span.bytes = s.at(5).get<uint64_t>();
      span.peer = s.at(6).get<int>();
      span.label = s.at(7).get<std::string>();
      record.spans.push_back(std::move(span));
    }
    for (const json& r : in.value("requests", json::array())) {
      RequestRecord request;
      request.id = r.at("id").get<int64_t>();
      request.replica = r.at("replica").get<int>();
      request.arrival_ns = r.at("arrival_ns").get<int64_t>();
      request.scheduled_ns = r.at("scheduled_ns").get<int64_t>();
      request.first_token_ns = r.at("first_token_ns").get<int64_t>();
      request.finish_ns = r.at("finish_ns").get<int64_t>();
      request.prompt_tokens = r.at("prompt_tokens").get<int64_t>();
      request.new_tokens = r.at("new_tokens").get<int64_t>();
      request.preemptions = r.at("preemptions").get<int64_t>();
      request.tokens = r.at("tokens").get<std::vector<int64_t>>();
      record.requests.push_back(std::move(request));
    }
    for (const json& p : in.value("phases", json::array())) {
      record.phases.push_back(PhaseSpan{p.at(0).get<int>(), p.at(1).get<std::string>(),
                                        p.at(2).get<int64_t>(), p.at(3).get<int64_t>()});
    }
    record.messages = messages_from_json(in.value("messages", json::array()));
    if (in.contains("links")) record.links = links_from_json(in.at("links"));
    if (record.tokens.size() != record.token_times_ns.size() ||
        record.tokens.size() != record.token_prompts.size()) {
      throw std::invalid_argument("tokens, token_times_ns and token_prompts differ in length");
    }
    return record;
  } catch (const json::exception& e) {
    throw std::invalid_argument(std::string("malformed run record: ") + e.what());
  }
}

RunRecord merge_rank_records(const std::vector<RunRecord>& records, const std::vector<size_t>& owner) {
  RunRecord merged;
  for (size_t r = 0; r < owner.size(); ++r) {
    if (owner[r] >= records.size() || r >= records[owner[r]].ranks.size()) {
      throw std::invalid_argument("record of rank " + std::to_string(r) + " has no stats for it");
    }
    merged.ranks.push_back(records[owner[r]].ranks[r]);
  }
  std::vector<std::tuple<int64_t, int64_t, int64_t>> tokens;  // time, prompt, token
  for (const RunRecord& part : records) {
    merged.deployed_on = part.deployed_on;
    merged.deployed_collectives = part.deployed_collectives;
    merged.total_ns = std::max(merged.total_ns, part.total_ns);
    merged.device_memory_bytes = std::max(merged.device_memory_bytes, part.device_memory_bytes);
    merged.spans.insert(merged.spans.end(), part.spans.begin(), part.spans.end());
    merged.requests.insert(merged.requests.end(), part.requests.begin(), part.requests.end());
    merged.phases.insert(merged.phases.end(), part.phases.begin(), part.phases.end());
    for (size_t i = 0; i < part.tokens.size(); ++i) {
      tokens.emplace_back(part.token_times_ns[i], part.token_prompts[i], part.tokens[i]);
    }
  }
  std::stable_sort(tokens.begin(), tokens.end(), [](const auto& a, const auto& b) {
    return std::get<0>(a) < std::get<0>(b);
  });
  for (const auto& [time, prompt, token] : tokens) {
    merged.token_times_ns.push_back(time);
    merged.token_prompts.push_back(prompt);
    merged.tokens.push_back(token);
  }
  return merged;
}

RunRecord merge_rank_records(const std::vector<RunRecord>& records) {
  std::vector<size_t> owner(records.size());
  std::iota(owner.begin(), owner.end(), size_t(0));
  return merge_rank_records(records, owner);
}

}  // namespace uniference
