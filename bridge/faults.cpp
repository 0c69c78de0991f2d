#include "bridge/faults.h"

#include "bridge/node_names.h"
#include "bridge/trace_time.h"

#include <ns3/channel.h>
#include <ns3/config.h>
#include <ns3/message-transport.h>
#include <ns3/node-list.h>
#include <ns3/simulator.h>
#include <ns3/pointer.h>

#include <algorithm>
#include <limits>

namespace uniference {

const char* fault_kind_name(FaultKind kind) {
  switch (kind) {
    case FaultKind::kLinkDown: return "link_down";
    case FaultKind::kSwitchDown: return "switch_down";
    case FaultKind::kLossBurst: return "loss_burst";
    case FaultKind::kStraggler: return "straggler";
    case FaultKind::kRankCrash: return "rank_crash";
  }
  return "link_down";
}

bool is_link_fault(FaultKind kind) {
  return kind == FaultKind::kLinkDown || kind == FaultKind::kSwitchDown || kind == FaultKind::kLossBurst;
}

namespace {

// Streams of the faults' own random variables, far from those ns-3 and the topologies assign,
// so that adding a fault changes no other draw.
constexpr int64_t kFirstFaultStream = int64_t(1) << 40;

ns3::Ptr<ns3::NetDevice> receiver_of(const ns3::Ptr<ns3::NetDevice>& sender) {
  ns3::Ptr<ns3::Channel> channel = sender->GetChannel();
  return channel->GetDevice(0) == sender ? channel->GetDevice(1) : channel->GetDevice(0);
}

// "a <-> b (2)" as its two directions "a -> b (2)" and "b -> a (2)"; anything else as itself.
std::vector<std::string> directions_named(const std::string& target) {
  const std::string both = " <-> ";
  const size_t at = target.find(both);
  if (at == std::string::npos) return {target};
  const std::string a = target.substr(0, at);
  std::string b = target.substr(at + both.size()), copy;
  if (const size_t paren = b.rfind(" ("); paren != std::string::npos && b.back() == ')') {
    copy = b.substr(paren);
    b = b.substr(0, paren);
  }
  return {a + " -> " + b + copy, b + " -> " + a + copy};
}

std::string some_names(const std::vector<std::string>& names) {
  std::string text;
  for (size_t i = 0; i < names.size() && i < 6; ++i) text += (i ? ", \"" : "\"") + names[i] + "\"";
  if (names.size() > 6) text += ", ... (" + std::to_string(names.size()) + " in all)";
  return text;
}

}  // namespace

std::vector<ns3::Ptr<ns3::NetDevice>> fault_receivers(const Fault& fault,
                                                      const std::vector<CableDirection>& cables) {
  const std::string target_at = fault.pointer + "/target";
  std::vector<std::string> names;
  for (const CableDirection& cable : cables) names.push_back(cable.name);
  std::sort(names.begin(), names.end());
  std::vector<ns3::Ptr<ns3::NetDevice>> receivers;
  if (fault.kind == FaultKind::kLinkDown || fault.kind == FaultKind::kLossBurst) {
    for (const std::string& name : directions_named(fault.target)) {
      auto found = std::find_if(cables.begin(), cables.end(),
                                [&](const CableDirection& cable) { return cable.name == name; });
      if (found == cables.end()) {
        throw FaultTargetError(target_at, "this network has no cable direction \"" + name +
                                              "\"; it has " + some_names(names) +
                                              " (uniference validate --links lists them)");
      }
      receivers.push_back(receiver_of(found->device));
    }
  } else if (fault.kind == FaultKind::kSwitchDown) {
    if (fault.target.rfind("rank", 0) == 0) {
      throw FaultTargetError(target_at, "\"" + fault.target +
                                            "\" is a rank's host, not a switch; use rank_crash, or "
                                            "link_down on its cable");
    }
    for (const CableDirection& cable : cables) {
      const ns3::Ptr<ns3::NetDevice> receiver = receiver_of(cable.device);
      if (node_name(cable.device->GetNode()) == fault.target || node_name(receiver->GetNode()) == fault.target) {
        receivers.push_back(receiver);
      }
    }
    if (receivers.empty()) {
      throw FaultTargetError(target_at, "this network has no node \"" + fault.target +
                                            "\" with cables; its cables are " + some_names(names));
    }
  }
  for (const ns3::Ptr<ns3::NetDevice>& receiver : receivers) {
    ns3::PointerValue ignored;
    if (!receiver->GetAttributeFailSafe("ReceiveErrorModel", ignored)) {
      throw FaultTargetError(target_at, "the cables into " + node_name(receiver->GetNode()) +
                                            " cannot lose packets (their devices take no receive "
                                            "error model); straggler and rank_crash work on any network");
    }
  }
  return receivers;
}

FaultInjection::FaultInjection(const std::vector<Fault>& faults, Kernel& kernel) : kernel_(kernel) {
  std::vector<FaultRecord> records;
  const std::vector<CableDirection> cables = cable_directions();
  for (size_t i = 0; i < faults.size(); ++i) {
    const Fault& fault = faults[i];
    const int64_t end = fault.kind == FaultKind::kRankCrash || fault.for_ns == 0 ? -1 : fault.at_ns + fault.for_ns;
    FaultRecord record;
    record.pointer = fault.pointer;
    record.kind = fault_kind_name(fault.kind);
    record.target = fault.target;
    record.start_ns = fault.at_ns;
    record.end_ns = end;
    record.loss = fault.kind == FaultKind::kLossBurst ? fault.loss : is_link_fault(fault.kind) ? 1.0 : 0.0;
    record.factor = fault.kind == FaultKind::kStraggler ? fault.factor : 1.0;
    records.push_back(record);
    if (is_link_fault(fault.kind)) install(i, fault, fault_receivers(fault, cables));
    const int64_t until = end < 0 ? std::numeric_limits<int64_t>::max() : end;
    if (fault.kind == FaultKind::kStraggler) kernel.add_straggler(fault.rank, fault.at_ns, until, fault.factor, i);
    if (fault.kind == FaultKind::kRankCrash) kernel.crash_at(fault.rank, fault.at_ns);
  }
  kernel.recorder().faults(std::move(records));
  if (!windows_.empty()) watch_transports();
}

namespace {

// The name of the node whose transport has endpoint id `endpoint`; "endpoint N" if none has.
std::string endpoint_name(uint32_t endpoint) {
  for (auto node = ns3::NodeList::Begin(); node != ns3::NodeList::End(); ++node) {
    for (uint32_t a = 0; a < (*node)->GetNApplications(); ++a) {
      auto transport = ns3::DynamicCast<ns3::MessageTransport>((*node)->GetApplication(a));
      if (transport && transport->GetEndpointId() == endpoint) return node_name(*node);
    }
  }
  return "endpoint " + std::to_string(endpoint);
}

// "/NodeList/5/ApplicationList/0/..." -> node 5's name.
std::string node_of_path(const std::string& path) {
  const size_t at = path.find("/NodeList/") + 10;
  return node_name(ns3::NodeList::GetNode(uint32_t(std::stoul(path.substr(at)))));
}

std::string now_text() { return trace_microseconds(ns3::Simulator::Now().GetNanoSeconds()) + " us"; }

}  // namespace

void FaultInjection::watch_transports() {
  // Fail-safe: a network has one kind of transport, so one of the two paths matches nothing.
  Kernel* kernel = &kernel_;
  ns3::Config::ConnectFailSafe("/NodeList/*/ApplicationList/*/$ns3::TcpMessageTransport/ConnectionLost",
                       ns3::MakeCallback(+[](Kernel* k, std::string path, uint32_t peer) {
                         k->note_fault_effect(node_of_path(path) + "'s TCP connection to " + endpoint_name(peer) +
                                              " was lost at t=" + now_text() +
                                              " (TCP gave up retransmitting)");
                       }).Bind(kernel));
  ns3::Config::ConnectFailSafe("/NodeList/*/ApplicationList/*/$ns3::RdmaMessageTransport/QueuePairError",
                       ns3::MakeCallback(+[](Kernel* k, std::string path, uint32_t peer) {
                         k->note_fault_effect(node_of_path(path) + "'s queue pair to " + endpoint_name(peer) +
                                              " errored at t=" + now_text() + " (retry count exceeded)");
                       }).Bind(kernel));
}

void FaultInjection::install(size_t fault, const Fault& spec,
                             const std::vector<ns3::Ptr<ns3::NetDevice>>& receivers) {
  const ns3::Time start = ns3::NanoSeconds(spec.at_ns);
  const ns3::Time end = spec.for_ns == 0 ? ns3::Time::Max() : ns3::NanoSeconds(spec.at_ns + spec.for_ns);
  for (const ns3::Ptr<ns3::NetDevice>& receiver : receivers) {
    ns3::PointerValue current;
    receiver->GetAttribute("ReceiveErrorModel", current);
    ns3::Ptr<ns3::FaultErrorModel> model = ns3::DynamicCast<ns3::FaultErrorModel>(current.Get<ns3::ErrorModel>());
    if (!model) {
      model = ns3::CreateObject<ns3::FaultErrorModel>();
      if (ns3::Ptr<ns3::ErrorModel> inner = current.Get<ns3::ErrorModel>()) {
        model->SetAttribute("Inner", ns3::PointerValue(inner));
      }
      model->AssignStreams(kFirstFaultStream + int64_t(windows_.size()));
      receiver->SetAttribute("ReceiveErrorModel", ns3::PointerValue(model));
    }
    windows_.push_back({fault, model, model->AddWindow(start, end, spec.kind == FaultKind::kLossBurst ? spec.loss : 1.0)});
  }
}

void FaultInjection::record_losses() {
  for (const Window& window : windows_) {
    kernel_.recorder().fault_cost(window.fault, window.model->GetDrops(window.index), 0);
  }
}

}  // namespace uniference
