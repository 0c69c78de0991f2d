// A RunRecord as JSON and back, whole: how deployed ranks hand their records to rank 0,
// which merges them into one (results.json is a report of a record, not the record).
#pragma once

#include "bridge/run_record.h"

#include <nlohmann/json.hpp>

namespace uniference {

nlohmann::json record_to_json(const RunRecord& record);
// A served request's times, lengths and tokens, as results.json lists it.
nlohmann::json request_to_json(const RequestRecord& request);
// Throws std::invalid_argument on a malformed record.
RunRecord record_from_json(const nlohmann::json& json);
// Its network messages and link activity, as record_to_json writes them.
nlohmann::json messages_to_json(const std::vector<NetMessage>& messages);
std::vector<NetMessage> messages_from_json(const nlohmann::json& list);
nlohmann::json links_to_json(const LinkActivity& links);
LinkActivity links_from_json(const nlohmann::json& links);

// One record of parts that each hold some ranks: rank r's stats from records[owner[r]], every
// span, phase, request and token (tokens in time order, a part's own in its order), the total
// the latest finish.
RunRecord merge_rank_records(const std::vector<RunRecord>& records, const std::vector<size_t>& owner);
// Deployed ranks' own parts: rank r's record is records[r].
RunRecord merge_rank_records(const std::vector<RunRecord>& records);

}  // namespace uniference
