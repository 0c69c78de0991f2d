// The layouts `uniference plan` tries: strategies, their degrees, data-parallel replicas,
// pipeline stage splits and micro-batches, collective presets and, on fabrics, placements.
// Pure enumeration: whether a layout fits the model, the workload and the devices' memory is
// checked afterwards, the way a scenario is (apps/plan.h).
#pragma once

#include "compute/parallel_degrees.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace uniference {

struct PlanCandidate {
  std::string name;          // stable and a plain folder name: "tp2-pp2-dp2-nccl-spread"
  ParallelDegrees parallel;  // strategy, degrees, stages, micro-batches
  std::string preset;        // /collectives/preset; empty: the base's
  std::string placement;     // "packed", "spread"; empty: the base's (a network without choice)
  std::vector<uint32_t> endpoints;  // "spread": each rank's endpoint
  bool is_default = false;   // tensor parallelism over every device: the plan to beat

  int devices() const { return parallel.world(); }
  // The assignments that make its scenario from the spec's base.
  std::vector<std::pair<std::string, nlohmann::json>> assignments() const;
};

// What shapes the search: the devices, the model's layers and experts, and the choices the
// spec allows.
struct CandidateSpace {
  int devices = 1;            // at most this many ranks
  bool exact_devices = false;  // every candidate uses exactly `devices` (ranks listed one by one)
  int64_t layers = 1;
  bool moe = false;
  std::vector<std::string> strategies;  // registered names, in the order to try
  std::vector<std::string> presets;     // {""}: the base's only
  std::vector<std::string> placements;  // {""}: no choice (a star, a link)
  std::vector<int> micro_batches = {1};
  // Whether two-stage pipelines try uneven splits: only unlike devices (an edge and a cloud)
  // finish sooner with one; alike ones, one after the other, take the same time either way.
  bool uneven_splits = false;
  // Fabrics: endpoints and endpoints per first-tier switch (what "spread" spreads over).
  uint32_t endpoints = 0, group = 0;
};

// Degrees tried for one axis up to `n`: every count to 8, powers of two beyond (and n itself),
// as deployments choose them.
std::vector<int> degree_choices(int n);

// Every candidate, the default plan (tp over all devices, the first preset and placement)
// first; names are unique.
std::vector<PlanCandidate> enumerate_candidates(const CandidateSpace& space);

// "spread": rank r on the first free endpoint of group r mod groups, in turn.
std::vector<uint32_t> spread_endpoints(int ranks, uint32_t endpoints, uint32_t group);

}  // namespace uniference
