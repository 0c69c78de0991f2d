/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "star-network-helper.h"

#include "ns3/abort.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/point-to-point-star.h"
#include "ns3/queue-size.h"
#include "ns3/queue-disc.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/type-id.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StarNetworkHelper");

StarNetworkHelper::StarNetworkHelper()
    : TcpStarHelperBase("StarNetworkHelper", Ipv4Address("10.1.1.0"), Ipv4Mask("255.255.255.0"))
{
    m_pointToPoint.SetQueue(
        "ns3::DropTailQueue",
        "MaxSize",
        QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, DEVICE_QUEUE_PACKETS)));
}

StarNetworkHelper::~StarNetworkHelper() = default;

void
StarNetworkHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_pointToPoint.SetDeviceAttribute(name, value);
}

void
StarNetworkHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_pointToPoint.SetChannelAttribute(name, value);
}

void
StarNetworkHelper::SetLinkAttribute(const std::string& name, const AttributeValue& value)
{
    SetLinkAttribute(m_pointToPoint, name, value);
}

void
StarNetworkHelper::SetLinkAttribute(PointToPointHelper& links,
                                    const std::string& name,
                                    const AttributeValue& value)
{
    TypeId::AttributeInformation info;
    if (PointToPointChannel::GetTypeId().LookupAttributeByName(name, &info))
    {
        links.SetChannelAttribute(name, value);
    }
    else
    {
        links.SetDeviceAttribute(name, value);
    }
}

void
StarNetworkHelper::InstallLinkDiscs(Ptr<Node> node, const ObjectFactory& factory)
{
    if (factory.GetTypeId().GetUid() == 0)
    {
        return;
    }
    for (uint32_t d = 0; d < node->GetNDevices(); ++d)
    {
        if (Ptr<PointToPointNetDevice> link = DynamicCast<PointToPointNetDevice>(node->GetDevice(d)))
        {
            node->GetObject<TrafficControlLayer>()->SetRootQueueDiscOnDevice(
                link,
                factory.Create<QueueDisc>());
        }
    }
}

NodeContainer
StarNetworkHelper::Install(uint32_t n)
{
    NS_LOG_FUNCTION(this << n);
    NS_ABORT_MSG_IF(m_star, "StarNetworkHelper: Install called twice");
    NS_ABORT_MSG_IF(n == 0, "StarNetworkHelper: a star needs at least one endpoint");
    m_star = std::make_unique<PointToPointStarHelper>(n, m_pointToPoint);
    InternetStackHelper stack;
    m_star->InstallStack(stack);
    // Before the addresses, which would give every device ns-3's default disc instead.
    InstallLinkDiscs(m_star->GetHub(), m_hubDiscFactory);
    for (uint32_t i = 0; i < n; ++i)
    {
        InstallLinkDiscs(m_star->GetSpokeNode(i), m_endpointDiscFactory);
    }
    m_star->AssignIpv4Addresses(Ipv4AddressHelper(m_baseNetwork, m_mask));
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    NodeContainer all(m_star->GetHub());
    std::vector<Ipv4Address> addresses;
    for (uint32_t i = 0; i < n; ++i)
    {
        m_endpoints.Add(m_star->GetSpokeNode(i));
        all.Add(m_star->GetSpokeNode(i));
        addresses.push_back(m_star->GetSpokeIpv4Address(i));
    }
    InstallTcpVariant(all);
    m_transports = m_transportHelper.Install(m_endpoints, addresses);
    return m_endpoints;
}

uint32_t
StarNetworkHelper::GetN() const
{
    return m_endpoints.GetN();
}

Ptr<Node>
StarNetworkHelper::GetEndpoint(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < GetN(), "StarNetworkHelper: no endpoint " << i);
    return m_endpoints.Get(i);
}

Ptr<MessageTransport>
StarNetworkHelper::GetTransport(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < GetN(), "StarNetworkHelper: no endpoint " << i);
    return DynamicCast<MessageTransport>(m_transports.Get(i));
}

Ipv4Address
StarNetworkHelper::GetEndpointAddress(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < GetN(), "StarNetworkHelper: no endpoint " << i);
    return m_star->GetSpokeIpv4Address(i);
}

Ptr<Node>
StarNetworkHelper::GetHub() const
{
    NS_ABORT_MSG_UNLESS(m_star, "StarNetworkHelper: GetHub before Install");
    return m_star->GetHub();
}

std::vector<Ptr<MessageTransport>>
StarNetworkHelper::GetTransports() const
{
    std::vector<Ptr<MessageTransport>> transports;
    for (uint32_t i = 0; i < GetN(); ++i)
    {
        transports.push_back(GetTransport(i));
    }
    return transports;
}

void
StarNetworkHelper::EnablePcapAll(const std::string& prefix)
{
    m_pointToPoint.EnablePcapAll(prefix);
}

} // namespace ns3
