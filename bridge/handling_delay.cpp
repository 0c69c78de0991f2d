#include "bridge/handling_delay.h"

#include <ns3/double.h>
#include <ns3/pointer.h>

#include <map>

namespace uniference {

ns3::Ptr<ns3::RandomVariableStream> measured_delays(const std::vector<int64_t>& samples_ns) {
  if (samples_ns.empty()) return nullptr;
  std::map<int64_t, size_t> count;  // sorted, each value once: the CDF must rise strictly
  for (int64_t ns : samples_ns) ++count[ns];
  auto delays = ns3::CreateObject<ns3::EmpiricalRandomVariable>();
  delays->SetInterpolate(false);
  size_t below = 0;
  for (const auto& [ns, times] : count) {
    below += times;
    delays->CDF(double(ns) * 1e-9, double(below) / double(samples_ns.size()));
  }
  return delays;
}

void set_handling_delay(const NetworkConfig& network,
                        const std::vector<ns3::Ptr<ns3::MessageTransport>>& transports) {
  if (network.handling_samples_ns.empty() && network.handling_mean_ns <= 0) return;
  for (const ns3::Ptr<ns3::MessageTransport>& transport : transports) {
    ns3::Ptr<ns3::RandomVariableStream> delay = measured_delays(network.handling_samples_ns);
    if (!delay) {
      delay = ns3::CreateObject<ns3::ExponentialRandomVariable>();
      delay->SetAttribute("Mean", ns3::DoubleValue(double(network.handling_mean_ns) * 1e-9));
    }
    transport->SetAttribute("HandlingDelay", ns3::PointerValue(delay));
  }
}

}  // namespace uniference
