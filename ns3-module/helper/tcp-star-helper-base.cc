/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-star-helper-base.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/tcp-congestion-ops.h"

#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TcpStarHelperBase");

TcpStarHelperBase::TcpStarHelperBase(std::string helperName, Ipv4Address network, Ipv4Mask mask)
    : m_helperName(std::move(helperName)),
      m_baseNetwork(network),
      m_mask(mask)
{
}

void
TcpStarHelperBase::SetTcpVariant(TypeId variant)
{
    NS_LOG_FUNCTION(this << variant.GetName());
    // Asking the TypeId tree (IsChildOf) would not do: ns-3 3.37 registers ns3::TcpCubic with
    // TcpSocketBase as parent. What TcpL4Protocol will need is an object of this type that is a
    // TcpCongestionOps, so that is what is checked.
    bool isCongestionOps = false;
    if (variant.HasConstructor())
    {
        ObjectFactory factory;
        factory.SetTypeId(variant);
        isCongestionOps = bool(DynamicCast<TcpCongestionOps>(factory.Create()));
    }
    NS_ABORT_MSG_UNLESS(isCongestionOps,
                        m_helperName << ": " << variant.GetName()
                                     << " is not a TCP congestion control "
                                        "(a subclass of ns3::TcpCongestionOps)");
    m_tcpVariant = variant;
}

void
TcpStarHelperBase::SetTransportAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    m_transportHelper.SetAttribute(name, value);
}

void
TcpStarHelperBase::SetBaseNetwork(Ipv4Address network, Ipv4Mask mask)
{
    NS_LOG_FUNCTION(this << network << mask);
    m_baseNetwork = network;
    m_mask = mask;
}

void
TcpStarHelperBase::InstallTcpVariant(const NodeContainer& nodes) const
{
    NS_LOG_LOGIC(m_helperName << ": " << nodes.GetN() << " nodes run "
                              << (m_tcpVariant.GetUid() == 0 ? std::string("ns-3's default TCP")
                                                             : m_tcpVariant.GetName()));
    MessageTransportHelper::SetTcpVariant(nodes, m_tcpVariant);
}

} // namespace ns3
