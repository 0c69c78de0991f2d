// A scenario run across the processes of mpirun (bridge/distributed.h): what each process
// recorded, joined on process 0 into the record one process would have made.
#pragma once

#include "bridge/kernel.h"
#include "bridge/run_record.h"

#include <string>
#include <vector>

namespace uniference {

// What one process of a distributed run hands to process 0.
struct ProcessPart {
  RunRecord record;                     // its ranks' stats, spans, tokens; its links
  std::vector<bool> ranks_here;         // which ranks' LPs it ran
  std::vector<NetMessage> sent_elsewhere;   // messages sent here to ranks elsewhere
  std::vector<NetMessage> arrived;          // messages from ranks elsewhere, as they arrived
  RunOutcome outcome;
};

std::string part_to_text(const ProcessPart& part);
ProcessPart part_from_text(const std::string& text);

// The parts of every process, in process order, as one record and one outcome:
//  - each rank's stats from the process that ran it; total_ns the latest finish;
//  - tokens in time order (one process's in its order), spans, phases and requests in
//    process order;
//  - a message between processes joined from its halves, pair by pair in order; every
//    message in order of arrival;
//  - the link directions in `direction_order` (the network's cable directions, by name),
//    the busiest LinkSampler::kMaxLinks kept;
//  - the outcome: an error before a deadlock before completion, the reports joined.
struct JoinedRun {
  RunRecord record;
  RunOutcome outcome;
};
JoinedRun join_parts(const std::vector<ProcessPart>& parts,
                     const std::vector<std::string>& direction_order);

}  // namespace uniference
