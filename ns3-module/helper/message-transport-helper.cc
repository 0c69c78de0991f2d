/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "message-transport-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-message-transport.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MessageTransportHelper");

MessageTransportHelper::MessageTransportHelper()
{
    m_factory.SetTypeId(TcpMessageTransport::GetTypeId());
}

void
MessageTransportHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

ApplicationContainer
MessageTransportHelper::Install(const NodeContainer& nodes,
                                const std::vector<Ipv4Address>& addresses) const
{
    NS_LOG_FUNCTION(this << nodes.GetN());
    NS_ABORT_MSG_UNLESS(nodes.GetN() == addresses.size(),
                        "MessageTransportHelper: " << nodes.GetN() << " nodes but "
                                                   << addresses.size() << " addresses");
    ApplicationContainer transports;
    for (uint32_t k = 0; k < nodes.GetN(); ++k)
    {
        Ptr<TcpMessageTransport> transport = m_factory.Create<TcpMessageTransport>();
        transport->SetEndpointId(k);
        for (uint32_t peer = 0; peer < addresses.size(); ++peer)
        {
            transport->AddPeer(peer, addresses[peer]);
        }
        transport->SetStartTime(Seconds(0));
        nodes.Get(k)->AddApplication(transport);
        transports.Add(transport);
    }
    return transports;
}

std::vector<Ptr<MessageTransport>>
MessageTransportHelper::GetTransports(const ApplicationContainer& installed)
{
    std::vector<Ptr<MessageTransport>> transports;
    for (uint32_t i = 0; i < installed.GetN(); ++i)
    {
        transports.push_back(DynamicCast<MessageTransport>(installed.Get(i)));
    }
    return transports;
}

void
MessageTransportHelper::SetTcpVariant(const NodeContainer& nodes, TypeId variant)
{
    if (variant.GetUid() == 0)
    {
        return;
    }
    for (uint32_t k = 0; k < nodes.GetN(); ++k)
    {
        nodes.Get(k)->GetObject<TcpL4Protocol>()->SetAttribute("SocketType", TypeIdValue(variant));
    }
}

} // namespace ns3
