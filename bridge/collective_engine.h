// The collectives of one simulated run in progress: each call of a group becomes one ns-3
// Collective (the algorithm the scenario chose for its operation, else the operation's
// default) over the members' transports, and its tensor result is built in memory, in
// group order, so every member sees exactly what a real run gives it.
#pragma once

#include "bridge/collective_ops.h"
#include "bridge/group_table.h"
#include "bridge/kernel.h"
#include "bridge/sim_work.h"

#include <ns3/collective.h>
#include <ns3/message-transport.h>
#include <ns3/ptr.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace uniference {

// The algorithm and Attributes a scenario chose for one operation.
struct CollectiveChoice {
  std::string algorithm;  // registered with ns3::CollectiveHelper for the operation
  std::vector<std::pair<std::string, std::string>> attributes;  // Attribute name, value text
};
using CollectiveChoices = std::map<OpType, CollectiveChoice>;

class CollectiveEngine {
 public:
  // channel_labels: where each call's channel is named after its operation, for the
  // message records; entries are removed when the call is done.
  CollectiveEngine(Kernel& kernel, const std::vector<ns3::Ptr<ns3::MessageTransport>>& transports,
                   const GroupTable& groups, CollectiveChoices choices,
                   std::map<uint64_t, std::string>& channel_labels);
  ~CollectiveEngine();

  // Member `index` of `group` makes its `seq`-th collective call of the group.
  std::shared_ptr<SimWork> enter(int group, uint64_t seq, int index, const CollectiveArgs& args);

 private:
  struct Call;

  Call& start(int group, uint64_t seq, const CollectiveArgs& args, uint64_t bytes);
  static void member_done(Call* call, uint32_t index);
  void finish(Call& call, uint32_t index);

  Kernel& kernel_;
  std::vector<ns3::Ptr<ns3::MessageTransport>> transports_;
  const GroupTable& groups_;
  CollectiveChoices choices_;
  std::map<uint64_t, std::string>& channel_labels_;
  std::map<std::pair<int, uint64_t>, std::unique_ptr<Call>> calls_;
};

}  // namespace uniference
