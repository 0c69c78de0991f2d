// Faults on purpose (/faults): a cable down, a switch down, a burst of loss, a slow rank, a
// crashed rank, each from a simulated time. A link fault becomes a window of an
// ns3::FaultErrorModel on the receiving device of every cable direction it takes down, so the
// network's own protocols meet it (TCP retransmits as ns-3's TCP does); a rank fault is the
// kernel's (Kernel::add_straggler, Kernel::crash_at). The run's record lists every fault and
// what it cost.
#pragma once

#include "bridge/fault.h"
#include "bridge/kernel.h"
#include "bridge/node_names.h"

#include <ns3/fault-error-model.h>
#include <ns3/net-device.h>
#include <ns3/ptr.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace uniference {

// A fault whose target the network does not have, or cannot fault: what it names and why.
struct FaultTargetError : std::invalid_argument {
  FaultTargetError(std::string fault_pointer, const std::string& what)
      : std::invalid_argument(what), pointer(std::move(fault_pointer)) {}
  std::string pointer;  // the fault's target key, "/faults/0/target"
};

// The receiving devices of the cable directions a link fault takes down, among `cables` (the
// network's, bridge/node_names.h); none for a rank fault. Throws FaultTargetError for a target
// the network has not got or cannot fault (an RDMA fabric's cables).
std::vector<ns3::Ptr<ns3::NetDevice>> fault_receivers(const Fault& fault,
                                                      const std::vector<CableDirection>& cables);

// The faults of one run, installed on the network ns-3 holds now (build it first) and on the
// kernel's ranks, and recorded with the kernel's recorder.
class FaultInjection {
 public:
  // Throws FaultTargetError for a target the network has not got.
  FaultInjection(const std::vector<Fault>& faults, Kernel& kernel);
  // Once the run is over: adds the packets each link fault lost to the record.
  void record_losses();

 private:
  struct Window {
    size_t fault;
    ns3::Ptr<ns3::FaultErrorModel> model;
    uint32_t index;
  };
  void install(size_t fault, const Fault& spec, const std::vector<ns3::Ptr<ns3::NetDevice>>& receivers);
  // Tells the kernel of connections the faults break for good: TCP giving up, an RDMA queue
  // pair past its retry count.
  void watch_transports();

  Kernel& kernel_;
  std::vector<Window> windows_;
};

}  // namespace uniference
