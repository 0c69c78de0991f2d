/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ethernet-fabric-helper.h"

#include "ethernet-subnet.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/ethernet-channel.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/log.h"
#include "ns3/node-container.h"
#include "ns3/queue-size.h"
#include "ns3/queue.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EthernetFabricHelper");

EthernetFabricHelper::EthernetFabricHelper()
    : FabricGraph("EthernetFabricHelper", "ns3::EthernetRemoteChannel"),
      TcpStarHelperBase("EthernetFabricHelper", Ipv4Address("10.2.0.0"), Ipv4Mask("255.255.0.0"))
{
    m_deviceFactory.SetTypeId(EthernetNetDevice::GetTypeId());
    m_channelFactory.SetTypeId(EthernetChannel::GetTypeId());
    m_switchFactory.SetTypeId(EthernetSwitch::GetTypeId());
    m_queueFactory.SetTypeId("ns3::DropTailQueue<Packet>");
    m_queueFactory.Set("MaxSize",
                       QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, DEVICE_QUEUE_PACKETS)));
}

void
EthernetFabricHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
EthernetFabricHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

void
EthernetFabricHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

void
EthernetFabricHelper::InstallEndpoint(uint32_t endpoint, uint32_t id, Ptr<Node> /* node */)
{
    NS_LOG_FUNCTION(this << endpoint << id);
    m_devices.emplace_back(); // its device comes with its cable
}

void
EthernetFabricHelper::InstallSwitch(uint32_t index, Ptr<Node> node)
{
    Ptr<EthernetSwitch> sw = m_switchFactory.Create<EthernetSwitch>();
    // The tables name every endpoint; learning would only cost a lookup per frame.
    sw->SetAttribute("Learning", BooleanValue(false));
    SaltHashSeed(sw, index);
    node->AggregateObject(sw);
    m_switches.push_back(sw);
}

FabricGraph::BuiltCable
EthernetFabricHelper::InstallCable(const Cable& cable)
{
    Ptr<EthernetChannel> channel = CreateChannel<EthernetChannel>(m_channelFactory, cable);
    uint32_t ports[2];
    Ptr<EthernetNetDevice> first;
    const Vertex ends[2] = {cable.a, cable.b};
    const Ptr<Node> nodes[2] = {cable.nodeA, cable.nodeB};
    for (int end = 0; end < 2; ++end)
    {
        const Vertex& v = ends[end];
        Ptr<EthernetNetDevice> device;
        if (v.isSwitch)
        {
            device = m_deviceFactory.Create<EthernetNetDevice>();
            device->SetAddress(Mac48Address::Allocate());
            nodes[end]->AddDevice(device);
        }
        else
        {
            NS_ABORT_MSG_IF(m_devices[v.index],
                            "EthernetFabricHelper: endpoint "
                                << v.index
                                << " has a second cable; over Ethernet an endpoint has one NIC");
            device = AddEthernetEndpointDevice(nodes[end], m_deviceFactory, m_queueFactory);
            m_devices[v.index] = device;
        }
        if (cable.classed)
        {
            device->SetAttribute("DataRate", DataRateValue(cable.rate));
        }
        device->Attach(channel);
        ports[end] = v.isSwitch ? m_switches[v.index]->AddPort(device) : 0;
        first = first ? first : device;
    }
    DataRateValue rate;
    first->GetAttribute("DataRate", rate);
    const int64_t cost =
        channel->GetDelay().GetPicoSeconds() +
        static_cast<int64_t>(8e12 * (first->GetMtu() + EthernetNetDevice::HEADER_BYTES) /
                             static_cast<double>(rate.Get().GetBitRate()));
    return BuiltCable{ports[0], ports[1], cost};
}

void
EthernetFabricHelper::InstallRoute(Vertex at, uint32_t destination, const std::vector<uint32_t>& ports)
{
    if (at.isSwitch)
    {
        m_switches[at.index]->AddEntry(Mac48Address::ConvertFrom(m_devices[destination]->GetAddress()),
                                       ports);
    }
}

void
EthernetFabricHelper::InstallDone()
{
    NodeContainer nodes;
    NetDeviceContainer devices;
    for (uint32_t id = 0; id < GetNEndpoints(); ++id)
    {
        nodes.Add(GetEndpointNode(id));
    }
    std::vector<Ptr<EthernetNetDevice>> byId(m_devices.size());
    for (uint32_t e = 0; e < m_devices.size(); ++e)
    {
        NS_ABORT_MSG_UNLESS(m_devices[e], "EthernetFabricHelper: endpoint " << e << " has no cable");
        byId[IdOf(e)] = m_devices[e];
    }
    for (const Ptr<EthernetNetDevice>& device : byId)
    {
        devices.Add(device);
    }
    // The subnet's first address is the network's own and its last the broadcast address.
    NS_ABORT_MSG_IF(uint64_t(nodes.GetN()) + 2 > uint64_t(~m_mask.Get()) + 1,
                    "EthernetFabricHelper: " << nodes.GetN() << " endpoints do not fit in "
                                             << m_baseNetwork << " mask " << m_mask);
    InternetStackHelper stack;
    stack.Install(nodes);
    m_addresses = AssignStaticSubnet(devices, m_baseNetwork, m_mask);
    InstallTcpVariant(nodes);
    m_transports = m_transportHelper.Install(nodes, m_addresses);
}

Ptr<MessageTransport>
EthernetFabricHelper::GetTransport(uint32_t id) const
{
    NS_ABORT_MSG_UNLESS(id < m_transports.GetN(), "EthernetFabricHelper: no endpoint id " << id);
    return DynamicCast<MessageTransport>(m_transports.Get(id));
}

std::vector<Ptr<MessageTransport>>
EthernetFabricHelper::GetTransports() const
{
    std::vector<Ptr<MessageTransport>> transports;
    for (uint32_t id = 0; id < m_transports.GetN(); ++id)
    {
        transports.push_back(GetTransport(id));
    }
    return transports;
}

Ipv4Address
EthernetFabricHelper::GetEndpointAddress(uint32_t id) const
{
    NS_ABORT_MSG_UNLESS(id < m_addresses.size(), "EthernetFabricHelper: no endpoint id " << id);
    return m_addresses[id];
}

Ptr<EthernetSwitch>
EthernetFabricHelper::GetSwitch(uint32_t i) const
{
    return m_switches.at(i);
}

} // namespace ns3
