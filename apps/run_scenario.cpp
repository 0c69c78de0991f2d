#include "apps/run_scenario.h"

#include "apps/report.h"
#include "bridge/sim_cluster.h"
#include "compute/compute_meter.h"
#include "compute/generation.h"
#include "compute/llama.h"
#include "compute/model_config.h"

#include <iostream>
#include <stdexcept>

namespace uniference {

namespace {

ModelConfig checked_model(const Scenario& scenario) {
  ModelConfig config;
  try {
    config = model_preset(scenario.model.preset);
  } catch (const std::invalid_argument& e) {
    throw ScenarioError(scenario.source, "/model/preset", e.what());
  }
  std::string problem = check_tensor_parallel(config, scenario.parallel.tp);
  if (!problem.empty()) throw ScenarioError(scenario.source, "/parallel/tp", problem);
  return config;
}

DeviceProfile checked_device(const Scenario& scenario) {
  DeviceProfile profile;
  try {
    profile = device_profile(scenario.devices.profile);
  } catch (const std::invalid_argument& e) {
    throw ScenarioError(scenario.source, "/devices/profile", e.what());
  }
  profile.efficiency = scenario.devices.efficiency;
  profile.slowdown = scenario.devices.slowdown;
  return profile;
}

StarNetworkConfig network_of(const Scenario& scenario) {
  const NetworkSpec& net = scenario.network;
  StarNetworkConfig config;
  config.link_rate = std::to_string(net.link.rate_bps) + "bps";
  config.link_delay = std::to_string(net.link.delay_ns) + "ns";
  config.mtu = net.link.mtu;
  config.tcp_variant = net.transport.tcp_type_id;
  config.segment_size = net.transport.segment_size;
  config.snd_buf = net.transport.snd_buf;
  config.rcv_buf = net.transport.rcv_buf;
  return config;
}

std::unique_ptr<ComputeMeter> meter_for(const Scenario& scenario, const DeviceProfile& profile) {
  if (scenario.compute_mode == ComputeMode::kMeasured) {
    return make_measured_meter(profile.slowdown);
  }
  return make_modeled_meter(profile);
}

}  // namespace

void check_scenario(const Scenario& scenario) {
  checked_model(scenario);
  checked_device(scenario);
}

ScenarioRun run_scenario(const Scenario& scenario, bool progress) {
  const ModelConfig config = checked_model(scenario);
  const DeviceProfile profile = checked_device(scenario);
  const int ranks = scenario.parallel.tp;
  const std::vector<int64_t> prompt =
      make_prompt(scenario.workload.prompt_tokens, config.vocab, scenario.seed);

  std::vector<int64_t> tokens;
  std::vector<int64_t> token_times;
  KernelConfig kernel;
  kernel.seed = scenario.seed;
  SimCluster cluster(network_of(scenario), kernel);
  for (int r = 0; r < ranks; ++r) {
    cluster.add_rank(meter_for(scenario, profile), [&](Comm& comm) {
      Kernel& kernel = Kernel::current();
      LlamaModel model(config, scenario.seed, &comm);
      // Loading weights happens before requests arrive; it is not simulated work.
      kernel.discard_compute();
      auto on_token = [&](int64_t step, int64_t token) {
        if (comm.rank() != 0) return;
        token_times.push_back(kernel.lp_clock());
        if (progress) {
          std::cerr << "  token " << step + 1 << "/" << scenario.workload.new_tokens << " (id "
                    << token << ") at t=" << format_duration(kernel.now_ns()) << "\n";
        }
      };
      std::vector<int64_t> generated =
          generate(model, prompt, scenario.workload.new_tokens, on_token);
      if (comm.rank() == 0) tokens = generated;
    });
  }
  ScenarioRun run;
  run.outcome = cluster.run();
  run.record = cluster.record();
  run.record.tokens = tokens;
  run.record.token_times_ns = token_times;
  return run;
}

}  // namespace uniference
