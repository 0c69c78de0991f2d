#include "bridge/node_names.h"

#include <ns3/channel.h>
#include <ns3/names.h>
#include <ns3/node-list.h>
#include <ns3/simulator.h>

#include <map>

namespace uniference {

namespace {

// Whether this simulation has already arranged to forget its names at Simulator::Destroy.
bool forget_scheduled = false;

void forget_names() {
  ns3::Names::Clear();
  forget_scheduled = false;
}

}  // namespace

void name_node(ns3::Ptr<ns3::Node> node, const std::string& name) {
  if (!forget_scheduled) {
    ns3::Simulator::ScheduleDestroy(&forget_names);
    forget_scheduled = true;
  }
  ns3::Names::Add(name, node);
}

std::string node_name(ns3::Ptr<ns3::Node> node) {
  const std::string name = ns3::Names::FindName(node);
  return name.empty() ? "node " + std::to_string(node->GetId()) : name;
}

std::vector<CableDirection> cable_directions() {
  std::vector<CableDirection> directions;
  std::map<std::string, int> seen;
  for (auto node = ns3::NodeList::Begin(); node != ns3::NodeList::End(); ++node) {
    for (uint32_t d = 0; d < (*node)->GetNDevices(); ++d) {
      ns3::Ptr<ns3::NetDevice> device = (*node)->GetDevice(d);
      ns3::Ptr<ns3::Channel> channel = device->GetChannel();
      if (!channel || channel->GetNDevices() != 2) continue;
      ns3::Ptr<ns3::NetDevice> other =
          channel->GetDevice(0) == device ? channel->GetDevice(1) : channel->GetDevice(0);
      if (!other) continue;
      std::string name = node_name(*node) + " -> " + node_name(other->GetNode());
      const int copies = ++seen[name];
      if (copies > 1) name += " (" + std::to_string(copies) + ")";
      directions.push_back({device, std::move(name)});
    }
  }
  return directions;
}

}  // namespace uniference
