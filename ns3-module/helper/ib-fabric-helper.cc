/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-fabric-helper.h"

#include "ns3/abort.h"
#include "ns3/ib-channel.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbFabricHelper");

IbFabricHelper::IbFabricHelper()
    : FabricGraph("IbFabricHelper", "ns3::IbRemoteChannel")
{
    m_deviceFactory.SetTypeId("ns3::IbNetDevice");
    m_channelFactory.SetTypeId("ns3::IbChannel");
    m_switchFactory.SetTypeId("ns3::IbSwitch");
    m_transportFactory.SetTypeId("ns3::RdmaMessageTransport");
}

void
IbFabricHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
IbFabricHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

void
IbFabricHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

void
IbFabricHelper::SetTransportAttribute(const std::string& name, const AttributeValue& value)
{
    m_transportFactory.Set(name, value);
}

void
IbFabricHelper::InstallEndpoint(uint32_t endpoint, uint32_t id, Ptr<Node> node)
{
    Ptr<RdmaMessageTransport> transport = m_transportFactory.Create<RdmaMessageTransport>();
    transport->SetEndpointId(id);
    transport->SetStartTime(Seconds(0));
    node->AddApplication(transport);
    m_transports.push_back(transport);
    m_byId.resize(std::max<size_t>(m_byId.size(), id + 1));
    m_byId[id] = transport;
}

void
IbFabricHelper::InstallSwitch(uint32_t index, Ptr<Node> node)
{
    Ptr<IbSwitch> sw = m_switchFactory.Create<IbSwitch>();
    SaltHashSeed(sw, index);
    node->AggregateObject(sw);
    m_switches.push_back(sw);
}

FabricGraph::BuiltCable
IbFabricHelper::InstallCable(const Cable& cable)
{
    Ptr<IbChannel> channel = CreateChannel<IbChannel>(m_channelFactory, cable);
    uint32_t ports[2];
    Ptr<IbNetDevice> first;
    const Vertex ends[2] = {cable.a, cable.b};
    const Ptr<Node> nodes[2] = {cable.nodeA, cable.nodeB};
    for (int end = 0; end < 2; ++end)
    {
        const Vertex& v = ends[end];
        Ptr<IbNetDevice> device = m_deviceFactory.Create<IbNetDevice>();
        if (cable.classed)
        {
            device->SetAttribute("DataRate", DataRateValue(cable.rate));
        }
        nodes[end]->AddDevice(device);
        device->Attach(channel);
        ports[end] = v.isSwitch ? m_switches[v.index]->AddPort(device)
                                : m_transports[v.index]->AddPort(device);
        m_ports.push_back(device);
        first = first ? first : device;
    }
    const int64_t cost =
        channel->GetDelay().GetPicoSeconds() +
        static_cast<int64_t>(8e12 * (first->GetPayloadMtu() + first->GetHeaderBytes()) /
                             static_cast<double>(first->GetDataRate().GetBitRate()));
    return BuiltCable{ports[0], ports[1], cost};
}

void
IbFabricHelper::InstallRoute(Vertex at, uint32_t destination, const std::vector<uint32_t>& ports)
{
    const uint32_t id = IdOf(destination);
    if (at.isSwitch)
    {
        m_switches[at.index]->SetRoute(id, ports);
    }
    else if (m_transports[at.index]->GetNPorts() > 1)
    {
        m_transports[at.index]->SetRoute(id, ports.front());
    }
}

Ptr<RdmaMessageTransport>
IbFabricHelper::GetTransport(uint32_t id) const
{
    NS_ABORT_MSG_UNLESS(id < m_byId.size(), "IbFabricHelper: no endpoint id " << id);
    return m_byId[id];
}

std::vector<Ptr<MessageTransport>>
IbFabricHelper::GetTransports() const
{
    return std::vector<Ptr<MessageTransport>>(m_byId.begin(), m_byId.end());
}

Ptr<IbSwitch>
IbFabricHelper::GetSwitch(uint32_t i) const
{
    return m_switches.at(i);
}

std::vector<Ptr<IbNetDevice>>
IbFabricHelper::GetPorts() const
{
    return m_ports;
}

int64_t
IbFabricHelper::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    for (auto& sw : m_switches)
    {
        used += sw->AssignStreams(stream + used);
    }
    return used;
}

} // namespace ns3
