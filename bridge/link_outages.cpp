#include "bridge/link_outages.h"

#include "bridge/node_names.h"

#include <ns3/channel-list.h>
#include <ns3/node.h>
#include <ns3/varying-link-channel.h>

#include <algorithm>
#include <string>
#include <tuple>

namespace uniference {

std::vector<LinkOutage> link_outages(int64_t end_ns) {
  std::vector<LinkOutage> outages;
  for (uint32_t i = 0; i < ns3::ChannelList::GetNChannels(); ++i) {
    auto channel = ns3::DynamicCast<ns3::VaryingLinkChannel>(ns3::ChannelList::GetChannel(i));
    if (!channel || channel->GetNDevices() < 2) continue;
    // An outage takes both directions of the cable down at once.
    const std::string name =
        node_name(channel->GetDevice(0)->GetNode()) + " <-> " + node_name(channel->GetDevice(1)->GetNode());
    for (const auto& [start, end] : channel->GetOutages(ns3::Time(0), ns3::NanoSeconds(end_ns))) {
      outages.push_back({name, start.GetNanoSeconds(), end.GetNanoSeconds()});
    }
  }
  std::sort(outages.begin(), outages.end(), [](const LinkOutage& a, const LinkOutage& b) {
    return std::tie(a.start_ns, a.link) < std::tie(b.start_ns, b.link);
  });
  return outages;
}

}  // namespace uniference
