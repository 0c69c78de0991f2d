// `uniference plan`: the best layout for a model on a network, found by simulation. Every
// candidate layout (apps/plan_candidates.h) is checked like a scenario and against the
// devices' memory (a static estimate, compute/memory_estimate.h); the rest are ranked by a fast
// estimate (the flow level with shape-only compute, or the packet level where the flow level
// refuses the network); the best few and the default plan are then simulated as the spec's
// scenario runs them, at packet level, and the winner is the best of those. Each stage is a
// sweep of listed points (apps/sweep.h), run N at a time and resumed where it stopped.
#pragma once

#include "apps/plan_candidates.h"
#include "apps/plan_spec.h"

#include <cstdint>
#include <string>
#include <vector>

namespace uniference {

struct PlanOptions {
  std::string binary;  // this program: each point runs as `uniference sweep ... --point K`
  int jobs = 1;
  double budget_s = 0;  // 0: none; else no point starts after it, and those running are stopped
  bool quiet = false;
  bool dry_run = false;  // enumerate, check and prune, write plan.csv, simulate nothing
  std::string out;  // overrides the spec's
};

// A candidate's figures from one simulation of it.
struct PlanFigures {
  bool ran = false;  // simulated to its end
  int exit_code = -1;  // -1: not simulated
  std::string message;
  int64_t ttft_ns = 0;
  double tpot_ns = 0;       // a serving run's: P99 of the requests'; TTFT likewise
  double tokens_per_s = 0;  // generated tokens over the run
  double goodput_per_s = 0;  // requests per second within the targets (a batch: tokens/s if met)
  bool meets_slo = false;
  // Where the slowest rank's time went (shares of its run: a serving rank also idles between
  // requests), and the busiest cable direction (packet level only).
  double compute_share = 0, wait_share = 0;
  std::string busiest_link;
  double busiest_utilisation = 0;
};

struct PlanEntry {
  PlanCandidate candidate;
  std::string pruned;         // why it was not simulated (invalid, out of memory); empty if not
  uint64_t memory_bytes = 0;  // the fullest rank's static estimate
  uint64_t memory_limit = 0;  // that rank's device memory; 0: unknown
  PlanFigures estimate, packet;
};

struct PlanResult {
  std::string folder;
  std::string estimate_level;  // "flow", or "packet" where the flow level refuses the network
  std::string estimate_note;   // what the estimate could not do as it would (the level, shape-only
                               // compute), and why
  std::vector<PlanEntry> entries;  // in the order enumerated; the default plan first
  int winner = -1;                 // index into entries; -1: nothing ran
  int default_plan = -1;
  bool budget_reached = false;
  std::string winner_scenario;  // the winning scenario, written into the folder
  std::string deploy_command;
};

// Runs the search and writes its outputs (apps/plan_report.h) into the plan's folder. Throws
// ScenarioError for a spec or base scenario that cannot be used.
PlanResult run_plan(const PlanSpec& spec, const PlanOptions& options);

// Whether `a` ranks before `b` on the objective with the figures of one level: a plan that
// meets the targets before one that does not, then the objective, then fewer devices, then
// the name.
bool ranks_before(const PlanEntry& a, const PlanFigures& fa, const PlanEntry& b, const PlanFigures& fb,
                  PlanObjective objective);

}  // namespace uniference
