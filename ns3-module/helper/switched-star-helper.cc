/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "switched-star-helper.h"

#include "ethernet-subnet.h"

#include "ns3/abort.h"
#include "ns3/ethernet-channel.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/log.h"
#include "ns3/queue-size.h"
#include "ns3/trace-helper.h"
#include "ns3/queue-disc.h"
#include "ns3/traffic-control-layer.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchedStarHelper");

SwitchedStarHelper::SwitchedStarHelper()
    : TcpStarHelperBase("SwitchedStarHelper", Ipv4Address("10.1.0.0"), Ipv4Mask("255.255.0.0")),
      m_partitions(1),
      m_switchPartition(0),
      m_cutCables(0)
{
    m_deviceFactory.SetTypeId(EthernetNetDevice::GetTypeId());
    m_channelFactory.SetTypeId(EthernetChannel::GetTypeId());
    m_switchFactory.SetTypeId(EthernetSwitch::GetTypeId());
    SetDeviceQueue("ns3::DropTailQueue",
                   "MaxSize",
                   QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, DEVICE_QUEUE_PACKETS)));
}

void
SwitchedStarHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
SwitchedStarHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

void
SwitchedStarHelper::SetLinkAttribute(const std::string& name, const AttributeValue& value)
{
    TypeId::AttributeInformation info;
    if (EthernetChannel::GetTypeId().LookupAttributeByName(name, &info))
    {
        SetChannelAttribute(name, value);
    }
    else
    {
        SetDeviceAttribute(name, value);
    }
}

void
SwitchedStarHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

void
SwitchedStarHelper::SetPartitions(uint32_t processes)
{
    NS_ABORT_MSG_IF(m_switch, "SwitchedStarHelper: SetPartitions after Install");
    NS_ABORT_MSG_IF(processes == 0, "SwitchedStarHelper::SetPartitions: at least one process");
    m_partitions = processes;
}

void
SwitchedStarHelper::SetSwitchPartition(uint32_t process)
{
    m_switchPartition = process;
}

void
SwitchedStarHelper::SetEndpointPartition(uint32_t endpoint, uint32_t process)
{
    m_pinned[endpoint] = process;
}

uint32_t
SwitchedStarHelper::GetNCutCables() const
{
    return m_cutCables;
}

NodeContainer
SwitchedStarHelper::Install(uint32_t n)
{
    NS_LOG_FUNCTION(this << n);
    NS_ABORT_MSG_IF(m_switch, "SwitchedStarHelper: Install called twice");
    NS_ABORT_MSG_IF(n == 0, "SwitchedStarHelper: a star needs at least one endpoint");
    // The subnet's first address is the network's own and its last the broadcast address.
    NS_ABORT_MSG_IF(uint64_t(n) + 2 > uint64_t(~m_mask.Get()) + 1,
                    "SwitchedStarHelper: " << n << " endpoints do not fit in " << m_baseNetwork
                                           << " mask " << m_mask);

    const auto checkProcess = [this](uint32_t process, const std::string& what) {
        NS_ABORT_MSG_UNLESS(process < m_partitions,
                            "SwitchedStarHelper: " << what << " pinned to process " << process
                                                   << " of " << m_partitions);
    };
    checkProcess(m_switchPartition, "the switch");
    for (const auto& [endpoint, process] : m_pinned)
    {
        NS_ABORT_MSG_UNLESS(endpoint < n, "SwitchedStarHelper: no endpoint " << endpoint << " to pin");
        checkProcess(process, "endpoint " + std::to_string(endpoint));
    }
    ObjectFactory remoteChannels = m_channelFactory;
    if (m_partitions > 1)
    {
        TypeId remote;
        NS_ABORT_MSG_UNLESS(TypeId::LookupByNameFailSafe("ns3::EthernetRemoteChannel", &remote),
                            "SwitchedStarHelper: a star cut across "
                                << m_partitions
                                << " processes needs ns-3's mpi module, and this build of the "
                                   "module has none (ns3::EthernetRemoteChannel)");
        remoteChannels.SetTypeId(remote);
    }

    m_switchNode = CreateObject<Node>(m_switchPartition);
    m_switch = m_switchFactory.Create<EthernetSwitch>();
    m_switchNode->AggregateObject(m_switch);
    for (uint32_t i = 0; i < n; ++i)
    {
        auto pinned = m_pinned.find(i);
        m_endpoints.Add(CreateObject<Node>(pinned != m_pinned.end()
                                               ? pinned->second
                                               : uint32_t(uint64_t(i) * m_partitions / n)));
    }
    NetDeviceContainer endpointDevices;
    NetDeviceContainer ports;
    for (uint32_t i = 0; i < n; ++i)
    {
        const bool cut = m_endpoints.Get(i)->GetSystemId() != m_switchPartition;
        m_cutCables += cut ? 1 : 0;
        Ptr<EthernetChannel> channel = (cut ? remoteChannels : m_channelFactory).Create<EthernetChannel>();

        Ptr<EthernetNetDevice> device =
            AddEthernetEndpointDevice(m_endpoints.Get(i), m_deviceFactory, m_queueFactory);
        device->Attach(channel);
        endpointDevices.Add(device);

        Ptr<EthernetNetDevice> port = m_deviceFactory.Create<EthernetNetDevice>();
        port->SetAddress(Mac48Address::Allocate());
        m_switchNode->AddDevice(port);
        port->Attach(channel);
        const uint32_t index = m_switch->AddPort(port);
        m_switch->AddEntry(Mac48Address::ConvertFrom(device->GetAddress()), index);
        ports.Add(port);
    }
    m_devices.Add(endpointDevices);
    m_devices.Add(ports);

    InternetStackHelper stack;
    stack.Install(m_endpoints);
    for (uint32_t i = 0; i < n; ++i)
    {
        // Before the addresses, which would give the endpoints ns-3's default disc instead.
        if (m_endpointDiscFactory.GetTypeId().GetUid() != 0)
        {
            m_endpoints.Get(i)->GetObject<TrafficControlLayer>()->SetRootQueueDiscOnDevice(
                endpointDevices.Get(i),
                m_endpointDiscFactory.Create<QueueDisc>());
        }
        if (m_hubDiscFactory.GetTypeId().GetUid() != 0)
        {
            m_switch->SetPortQueueDisc(i, m_hubDiscFactory.Create<QueueDisc>());
        }
    }
    // Static ARP (see the class description).
    m_addresses = AssignStaticSubnet(endpointDevices, m_baseNetwork, m_mask);

    InstallTcpVariant(m_endpoints);
    m_transports = m_transportHelper.Install(m_endpoints, m_addresses);
    return m_endpoints;
}

uint32_t
SwitchedStarHelper::GetN() const
{
    return m_endpoints.GetN();
}

Ptr<Node>
SwitchedStarHelper::GetEndpoint(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < GetN(), "SwitchedStarHelper: no endpoint " << i);
    return m_endpoints.Get(i);
}

Ptr<MessageTransport>
SwitchedStarHelper::GetTransport(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < GetN(), "SwitchedStarHelper: no endpoint " << i);
    return DynamicCast<MessageTransport>(m_transports.Get(i));
}

Ipv4Address
SwitchedStarHelper::GetEndpointAddress(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < GetN(), "SwitchedStarHelper: no endpoint " << i);
    return m_addresses[i];
}

Ptr<Node>
SwitchedStarHelper::GetSwitchNode() const
{
    NS_ABORT_MSG_UNLESS(m_switchNode, "SwitchedStarHelper: GetSwitchNode before Install");
    return m_switchNode;
}

Ptr<EthernetSwitch>
SwitchedStarHelper::GetSwitch() const
{
    NS_ABORT_MSG_UNLESS(m_switch, "SwitchedStarHelper: GetSwitch before Install");
    return m_switch;
}

std::vector<Ptr<MessageTransport>>
SwitchedStarHelper::GetTransports() const
{
    std::vector<Ptr<MessageTransport>> transports;
    for (uint32_t i = 0; i < GetN(); ++i)
    {
        transports.push_back(GetTransport(i));
    }
    return transports;
}

void
SwitchedStarHelper::EnablePcapAll(const std::string& prefix)
{
    PcapHelper pcap;
    for (uint32_t i = 0; i < m_devices.GetN(); ++i)
    {
        Ptr<NetDevice> device = m_devices.Get(i);
        Ptr<PcapFileWrapper> file = pcap.CreateFile(pcap.GetFilenameFromDevice(prefix, device),
                                                    std::ios::out,
                                                    PcapHelper::DLT_EN10MB);
        pcap.HookDefaultSink<EthernetNetDevice>(DynamicCast<EthernetNetDevice>(device),
                                                "PromiscSniffer",
                                                file);
    }
}

} // namespace ns3
