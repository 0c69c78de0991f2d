// What `uniference plan` reports (docs/planner.md): a table of the plans simulated, why the
// winner wins and the command that deploys it on stdout; in the plan's folder plan.csv (every
// candidate: pruned, estimated, checked), plan.png (latency against throughput, the Pareto front
// marked, through gnuplot) and plan.html (the same plot as inline SVG, the table, the
// explanation). Equal results give byte-identical files: no wall times or paths inside, but
// the winner's scenario, named as written.
#pragma once

#include "apps/plan.h"

#include <string>
#include <vector>

namespace uniference {

// The figures a plan is best known by: the packet-level check's where it ran, else the estimate's.
const PlanFigures& best_figures(const PlanEntry& entry);

// Indexes of the entries on the Pareto front of latency (the objective's: TTFT for ttft, TPOT
// otherwise) against throughput, by best_figures, in order of throughput.
std::vector<size_t> pareto_front(const PlanResult& result, PlanObjective objective);

// The table printed: the plans checked at packet level in their order, then the best estimates.
std::string plan_table(const PlanSpec& spec, const PlanResult& result);

// Why the winner wins, against the default plan: the objective, where the slowest rank's time
// went, and the busiest link; then the command that deploys it.
std::string plan_explanation(const PlanSpec& spec, const PlanResult& result);

std::string plan_csv(const PlanResult& result);

// Writes plan.csv, plan.html and, where gnuplot is installed, plan.png into the result's folder.
void write_plan_outputs(const PlanSpec& spec, const PlanResult& result);

}  // namespace uniference
