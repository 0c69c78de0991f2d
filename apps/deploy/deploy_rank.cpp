#include "apps/deploy/deploy_rank.h"

#include "apps/deploy/peer_watch.h"
#include "apps/deploy/rank_timeline.h"
#include "apps/deploy/timed_comm.h"
#include "apps/record_json.h"
#include "apps/report.h"
#include "compute/compute_label.h"

#include <filesystem>
#include <iostream>
#include <numeric>

namespace uniference {

namespace {

// The scenario key that sets a degree above 1, for an error about the world's size.
std::string degree_keys(const ParallelSpec& parallel) {
  std::string keys;
  const auto add = [&](const char* key, int value) {
    if (value > 1) keys += std::string(keys.empty() ? "" : " x ") + key + " " + std::to_string(value);
  };
  add("tp", parallel.tp);
  add("pp", parallel.pp);
  add("sp", parallel.sp);
  add("dp", parallel.dp);
  return keys.empty() ? "every degree 1" : keys;
}

std::string record_key(int rank) { return "record/" + std::to_string(rank); }

void put(c10d::Store& store, const std::string& key, const std::string& text) {
  store.set(key, std::vector<uint8_t>(text.begin(), text.end()));
}

std::string get(c10d::Store& store, const std::string& key) {
  const std::vector<uint8_t> value = store.get(key);
  return std::string(value.begin(), value.end());
}

// Rank 0: every rank's record, merged.
RunRecord gather_records(c10d::Store& store, int world) {
  std::vector<RunRecord> parts;
  for (int r = 0; r < world; ++r) {
    parts.push_back(record_from_json(nlohmann::json::parse(get(store, record_key(r)))));
  }
  return merge_rank_records(parts);
}

// The label sink is the process's; it is removed on every way out.
class LabelSinkScope {
 public:
  explicit LabelSinkScope(RankTimeline& timeline) {
    set_compute_label_sink([&timeline](const std::string& label) { timeline.label(label); });
  }
  ~LabelSinkScope() { set_compute_label_sink(nullptr); }
};

}  // namespace

void check_deployment(const Scenario& scenario, const CheckedCompute& checked,
                      const DeployOptions& options) {
  const int world = options.placement.world;
  if (world != checked.ranks) {
    throw ScenarioError(scenario.source, "/parallel",
                        "the scenario needs " + std::to_string(checked.ranks) + " ranks (" +
                            degree_keys(scenario.parallel) + "), but WORLD_SIZE is " +
                            std::to_string(world));
  }
  if (scenario.shapes_only) {
    throw ScenarioError(scenario.source, "/compute/shapes_only",
                        "a deployment computes and sends real tensors; shape-only models are for "
                        "simulation");
  }
  if (options.placement.rank < 0 || options.placement.rank >= world) {
    throw ScenarioError(scenario.source, "/parallel",
                        "RANK " + std::to_string(options.placement.rank) +
                            " is not in a world of " + std::to_string(world));
  }
}

std::string run_deploy_rank(const Scenario& scenario, const CheckedCompute& checked,
                            const DeployOptions& options) {
  const DeployBackend& backend = deploy_backends().at(options.backend);
  const std::string why_not = backend.unavailable();
  const int rank = options.placement.rank;
  const int world = options.placement.world;
  const std::string who = "rank " + std::to_string(rank) + ": ";
  if (!why_not.empty()) return who + "backend " + backend.name + " cannot run here: " + why_not;

  c10::intrusive_ptr<c10d::Store> store;
  std::unique_ptr<PeerWatch> watch;
  std::shared_ptr<Comm> comm;
  RankPlacement placement = options.placement;
  try {
    placement.address =
        local_address_toward(options.rendezvous.master_addr, options.rendezvous.master_port);
    store = open_store(options.rendezvous, rank, world);
    watch = std::make_unique<PeerWatch>(options.rendezvous, rank, world);
    comm = backend.make(store, placement, options.timeout);
  } catch (const std::exception& e) {
    return who + first_line(e.what());
  }

  RankTimeline timeline(rank, world);
  TimedComm timed(comm, timeline, [&] {
    std::vector<int> ranks(static_cast<size_t>(world));
    std::iota(ranks.begin(), ranks.end(), 0);
    return ranks;
  }());
  StrategyInputs inputs = strategy_inputs(scenario, checked);
  inputs.weights_loaded = [&] {
    timeline.set_origin(agree_on_origin(*store, world, RankTimeline::clock_ns()));
  };
  inputs.on_memory = [&](const MemoryUse& use) {
    timeline.memory(use.weights, use.kv_cache, use.activations);
  };
  inputs.on_token = [&](int64_t prompt, int64_t step, int64_t token) {
    timeline.token(prompt, token);
    if (options.progress) {
      std::cerr << "  token " << step + 1 << "/" << scenario.workload.new_tokens
                << (scenario.workload.batch > 1 ? " of prompt " + std::to_string(prompt) : "")
                << " (id " << token << ") at t=" << format_duration(timeline.now_ns()) << "\n";
    }
  };

  std::string failure;
  try {
    LabelSinkScope labels(timeline);
    run_strategy(*checked.strategy, timed, inputs);
    timeline.finished();
    put(*store, record_key(rank), record_to_json(timeline.record()).dump());
    if (rank == 0) {
      RunRecord merged = gather_records(*store, world);
      merged.device_memory_bytes = uint64_t(checked.device.memory_bytes);
      merged.deployed_on = backend.name;
      std::cout << summary_table(scenario, merged);
      write_outputs(scenario, merged, options.out_dir);
    }
    RunRecord own = timeline.record();
    own.deployed_on = backend.name;
    own.ranks = {own.ranks[size_t(rank)]};
    write_outputs(scenario, own,
                  (std::filesystem::path(options.out_dir) / ("rank" + std::to_string(rank))).string());
  } catch (const std::exception& e) {
    failure = who + first_line(e.what());
    const std::string lost = watch->lost_peers();
    failure += lost.empty() ? "; every peer is still alive" : "; lost peer: " + lost;
  }
  if (!failure.empty()) {
    // A failed group's destructor waits for its stuck operations to time out; the process
    // exits without running it.
    static std::shared_ptr<Comm> abandoned;
    abandoned = comm;
  }
  comm.reset();
  watch->leave(options.timeout);
  return failure;
}

}  // namespace uniference
