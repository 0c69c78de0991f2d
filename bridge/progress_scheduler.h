// The simulation's event list (ns3::FabricFirstScheduler, which SimCluster installs) that
// also calls a hook every 4096th event taken from it: how a progress line hears of a simulation that runs long without resuming a rank
// (one large collective is thousands of packets inside ns-3 and no rank code). An event of
// its own would not do: it would keep the simulator from running dry, which is how the
// kernel recognises a deadlock, and outlive the run. The events come out in the same order,
// so a run's results are the same with the hook as without.
#pragma once

#include <ns3/fabric-first-scheduler.h>

#include <functional>

namespace uniference {

class ProgressScheduler : public ns3::FabricFirstScheduler {
 public:
  static ns3::TypeId GetTypeId();

  Event RemoveNext() override;

  // Gives the current simulation this scheduler (its pending events move over), and `hook` to
  // call; a hook of nullptr stops the calls. One simulation runs per process at a time, so
  // the hook is the process's.
  static void Install(std::function<void()> hook);

 private:
  uint64_t taken_ = 0;
};

}  // namespace uniference
