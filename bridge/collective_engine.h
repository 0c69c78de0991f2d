// The collectives of one simulated run in progress: each call of a group becomes one ns-3
// Collective (the algorithm the scenario chose for its operation, else the operation's
// default) over the members' transports. Its messages carry the members' tensors
// (TensorCollectiveData), so each member's result is what the algorithm's own schedule
// computed; a call on meta tensors moves its bytes and no data.
#pragma once

#include "bridge/collective_ops.h"
#include "bridge/collective_presets.h"
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

// How the record names a channel's messages: the operation, and each sender's compute
// label when it entered the call (by world rank).
struct ChannelLabel {
  std::string operation;
  std::map<int, std::string> compute;
};

class CollectiveEngine {
 public:
  // channel_labels: where each call's channel is named after its operation, for the
  // message records; entries are removed when the call is done.
  CollectiveEngine(Kernel& kernel, const std::vector<ns3::Ptr<ns3::MessageTransport>>& transports,
                   const GroupTable& groups, CollectiveSelection selection,
                   std::map<uint64_t, ChannelLabel>& channel_labels);
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
  CollectiveSelection selection_;
  std::map<uint64_t, ChannelLabel>& channel_labels_;
  std::map<std::pair<int, uint64_t>, std::unique_ptr<Call>> calls_;
};

}  // namespace uniference
