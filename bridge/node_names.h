// What a topology's users call its nodes ("rank3", "leaf0", "spine1", "hub") and its cables,
// one direction at a time ("leaf0 -> spine1"). Trace tracks, results and `uniference validate
// --links` name links this way, and later work (faults on a link, bytes per link) addresses
// them by these names.
//
// The names are kept in ns-3's own Names, so ns-3's tools (Config paths, pcap file names)
// see them too, for the life of one simulation: they are forgotten at Simulator::Destroy,
// with the nodes, so the next simulation in the same process names its own.
#pragma once

#include <ns3/net-device.h>
#include <ns3/node.h>
#include <ns3/ptr.h>

#include <string>
#include <vector>

namespace uniference {

// Gives `node` its name for this simulation; a node has one name.
void name_node(ns3::Ptr<ns3::Node> node, const std::string& name);

// The node's name, or "node N" (its ns-3 id) for a node its topology left unnamed.
std::string node_name(ns3::Ptr<ns3::Node> node);

// A device that sends on a cable, and that direction's name: "a -> b" by the nodes at its
// ends, with " (2)", " (3)" for a second and third cable between the same two nodes.
struct CableDirection {
  ns3::Ptr<ns3::NetDevice> device;
  std::string name;
};

// Every direction of every cable of the network ns-3 holds now, in node and device order.
// Devices on no cable (not attached, or on a shared medium of more than two) are not listed.
std::vector<CableDirection> cable_directions();

}  // namespace uniference
