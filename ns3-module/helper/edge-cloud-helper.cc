/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "edge-cloud-helper.h"

#include "star-network-helper.h"

#include "ns3/abort.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/log.h"
#include "ns3/queue-size.h"
#include "ns3/varying-link-channel.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EdgeCloudHelper");

EdgeCloudHelper::EdgeCloudHelper()
{
    const QueueSizeValue small(
        QueueSize(QueueSizeUnit::PACKETS, StarNetworkHelper::DEVICE_QUEUE_PACKETS));
    m_lan.SetQueue("ns3::DropTailQueue", "MaxSize", small);
    m_wan.SetQueue("ns3::DropTailQueue", "MaxSize", small);
}

void
EdgeCloudHelper::SetLanAttribute(const std::string& name, const AttributeValue& value)
{
    StarNetworkHelper::SetLinkAttribute(m_lan, name, value);
}

VaryingLinkHelper&
EdgeCloudHelper::GetWan()
{
    return m_wan;
}

void
EdgeCloudHelper::SetTcpVariant(TypeId variant)
{
    m_tcpVariant = variant;
}

void
EdgeCloudHelper::SetTransportAttribute(const std::string& name, const AttributeValue& value)
{
    m_transportHelper.SetAttribute(name, value);
}

NodeContainer
EdgeCloudHelper::Install(uint32_t edge, uint32_t cloud)
{
    NS_LOG_FUNCTION(this << edge << cloud);
    NS_ABORT_MSG_IF(m_wanChannel, "EdgeCloudHelper: Install called twice");
    NS_ABORT_MSG_IF(edge == 0 || cloud == 0,
                    "EdgeCloudHelper: each site needs an endpoint (edge " << edge << ", cloud "
                                                                          << cloud << ")");
    NodeContainer routers(2); // edge, cloud
    m_endpoints.Create(edge + cloud);
    InternetStackHelper stack;
    stack.Install(routers);
    stack.Install(m_endpoints);

    // Site links first, each its own /24 in 10.1.0.0/16; the wide-area link 10.2.0.0/24.
    Ipv4AddressHelper lanAddresses("10.1.0.0", "255.255.255.0");
    std::vector<Ipv4Address> addresses;
    for (uint32_t i = 0; i < edge + cloud; ++i)
    {
        NetDeviceContainer link = m_lan.Install(m_endpoints.Get(i), routers.Get(i < edge ? 0 : 1));
        addresses.push_back(lanAddresses.Assign(link).GetAddress(0));
        lanAddresses.NewNetwork();
    }
    NetDeviceContainer wan = m_wan.Install(routers.Get(0), routers.Get(1));
    m_wanChannel = DynamicCast<VaryingLinkChannel>(wan.Get(0)->GetChannel());
    Ipv4AddressHelper("10.2.0.0", "255.255.255.0").Assign(wan);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    MessageTransportHelper::SetTcpVariant(NodeContainer(routers, m_endpoints), m_tcpVariant);
    m_transports = m_transportHelper.Install(m_endpoints, addresses);
    return m_endpoints;
}

std::vector<Ptr<MessageTransport>>
EdgeCloudHelper::GetTransports() const
{
    return MessageTransportHelper::GetTransports(m_transports);
}

Ptr<VaryingLinkChannel>
EdgeCloudHelper::GetWanChannel() const
{
    NS_ABORT_MSG_UNLESS(m_wanChannel, "EdgeCloudHelper: GetWanChannel before Install");
    return m_wanChannel;
}

} // namespace ns3
