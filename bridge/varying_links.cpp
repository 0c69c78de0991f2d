#include "bridge/varying_links.h"

#include "bridge/node_names.h"

#include <ns3/channel-list.h>
#include <ns3/node.h>
#include <ns3/varying-link-channel.h>

#include <algorithm>
#include <string>
#include <tuple>

namespace uniference {

namespace {

// Every time-varying cable with both ends attached, in channel order.
std::vector<ns3::Ptr<ns3::VaryingLinkChannel>> varying_channels() {
  std::vector<ns3::Ptr<ns3::VaryingLinkChannel>> channels;
  for (uint32_t i = 0; i < ns3::ChannelList::GetNChannels(); ++i) {
    auto channel = ns3::DynamicCast<ns3::VaryingLinkChannel>(ns3::ChannelList::GetChannel(i));
    if (channel && channel->GetNDevices() >= 2) channels.push_back(channel);
  }
  return channels;
}

std::string end_name(const ns3::Ptr<ns3::VaryingLinkChannel>& channel, size_t end) {
  return node_name(channel->GetDevice(end)->GetNode());
}

}  // namespace

std::vector<LinkOutage> link_outages(int64_t end_ns) {
  std::vector<LinkOutage> outages;
  for (const auto& channel : varying_channels()) {
    // An outage takes both directions of the cable down at once.
    const std::string name = end_name(channel, 0) + " <-> " + end_name(channel, 1);
    for (const auto& [start, end] : channel->GetOutages(ns3::Time(0), ns3::NanoSeconds(end_ns))) {
      outages.push_back({name, start.GetNanoSeconds(), end.GetNanoSeconds()});
    }
  }
  std::sort(outages.begin(), outages.end(), [](const LinkOutage& a, const LinkOutage& b) {
    return std::tie(a.start_ns, a.link) < std::tie(b.start_ns, b.link);
  });
  return outages;
}

std::vector<LinkConditionSamples> link_conditions(int64_t end_ns, uint32_t samples) {
  std::vector<LinkConditionSamples> out;
  samples = std::max<uint32_t>(samples, 1);
  for (const auto& channel : varying_channels()) {
    LinkConditionSamples link;
    link.link = end_name(channel, 0) + " <-> " + end_name(channel, 1);
    link.directions[0] = end_name(channel, 0) + " -> " + end_name(channel, 1);
    link.directions[1] = end_name(channel, 1) + " -> " + end_name(channel, 0);
    for (uint32_t i = 0; i <= samples; ++i) {
      const int64_t t_ns = int64_t((__int128(end_ns) * i) / samples);
      const ns3::Time t = ns3::NanoSeconds(t_ns);
      link.times_ns.push_back(t_ns);
      link.delay_ns.push_back(channel->GetDelayAt(t).GetNanoSeconds());
      for (uint32_t direction = 0; direction < 2; ++direction) {
        link.rate_bps[direction].push_back(channel->GetRateAt(direction, t).GetBitRate());
      }
    }
    out.push_back(std::move(link));
  }
  return out;
}

}  // namespace uniference
