// pcap files and ns-3's FlowMonitor on the devices of a TCP network, for a run that asks for
// them (/outputs/pcap, /outputs/flow_monitor). Both need ns3::Packet and IP: the RDMA
// fabric's packets are neither, so scenarios refuse them there before anything runs.
#pragma once

#include <ns3/flow-monitor-helper.h>
#include <ns3/pcap-file-wrapper.h>
#include <ns3/ptr.h>

#include <string>
#include <vector>

namespace uniference {

class NetworkCapture {
 public:
  // Call once the network is built (every node in ns3::NodeList). With `pcap`, one file per
  // Ethernet or point-to-point device, "<directory>/<prefix>-<node>-<device>.pcap", every
  // frame the device sends or receives (its "PromiscSniffer"); `directory` must exist. With
  // `flow_monitor`, a FlowMonitor on every node with an IPv4 stack.
  NetworkCapture(bool pcap, bool flow_monitor, const std::string& directory,
                 const std::string& prefix);

  // Flushes and closes the pcap files (after the run; the simulator writes no more).
  void close_pcap();
  // Paths of the pcap files written.
  const std::vector<std::string>& pcap_files() const { return pcap_paths_; }
  // The monitor's flows as ns-3's XML (FlowMonitorHelper::SerializeToXmlString), after
  // counting packets still unaccounted for as lost; "" without a monitor.
  std::string flow_monitor_xml();

 private:
  std::vector<ns3::Ptr<ns3::PcapFileWrapper>> pcap_files_;
  std::vector<std::string> pcap_paths_;
  ns3::FlowMonitorHelper flow_helper_;
  ns3::Ptr<ns3::FlowMonitor> monitor_;
};

}  // namespace uniference
