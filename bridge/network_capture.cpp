#include "bridge/network_capture.h"

#include <ns3/ethernet-net-device.h>
#include <ns3/flow-monitor.h>
#include <ns3/node-list.h>
#include <ns3/node.h>
#include <ns3/point-to-point-net-device.h>
#include <ns3/trace-helper.h>

#include <filesystem>
#include <stdexcept>

namespace uniference {

NetworkCapture::NetworkCapture(bool pcap, bool flow_monitor, const std::string& directory,
                               const std::string& prefix) {
  if (pcap) {
    ns3::PcapHelper helper;
    const std::string stem = (std::filesystem::path(directory) / prefix).string();
    for (auto node = ns3::NodeList::Begin(); node != ns3::NodeList::End(); ++node) {
      for (uint32_t d = 0; d < (*node)->GetNDevices(); ++d) {
        ns3::Ptr<ns3::NetDevice> device = (*node)->GetDevice(d);
        // The link layers as the devices frame them: Ethernet headers on the switched star,
        // PPP headers on the routed star's point-to-point links.
        ns3::PcapHelper::DataLinkType link;
        if (ns3::DynamicCast<ns3::EthernetNetDevice>(device)) {
          link = ns3::PcapHelper::DLT_EN10MB;
        } else if (ns3::DynamicCast<ns3::PointToPointNetDevice>(device)) {
          link = ns3::PcapHelper::DLT_PPP;
        } else {
          continue;
        }
        const std::string path = helper.GetFilenameFromDevice(stem, device);
        ns3::Ptr<ns3::PcapFileWrapper> file = helper.CreateFile(path, std::ios::out, link);
        if (file->Fail()) throw std::runtime_error("cannot create pcap file " + path);
        if (link == ns3::PcapHelper::DLT_EN10MB) {
          helper.HookDefaultSink(ns3::DynamicCast<ns3::EthernetNetDevice>(device),
                                 "PromiscSniffer", file);
        } else {
          helper.HookDefaultSink(ns3::DynamicCast<ns3::PointToPointNetDevice>(device),
                                 "PromiscSniffer", file);
        }
        pcap_files_.push_back(file);
        pcap_paths_.push_back(path);
      }
    }
  }
  if (flow_monitor) monitor_ = flow_helper_.InstallAll();
}

void NetworkCapture::close_pcap() {
  for (size_t i = 0; i < pcap_files_.size(); ++i) {
    if (pcap_files_[i]->Fail()) throw std::runtime_error("cannot write pcap file " + pcap_paths_[i]);
    pcap_files_[i]->Close();
  }
}

std::string NetworkCapture::flow_monitor_xml() {
  if (!monitor_) return "";
  monitor_->CheckForLostPackets();
  return flow_helper_.SerializeToXmlString(2, false, false);
}

}  // namespace uniference
