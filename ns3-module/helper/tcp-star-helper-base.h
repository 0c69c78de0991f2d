/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_STAR_HELPER_BASE_H
#define TCP_STAR_HELPER_BASE_H

#include "message-transport-helper.h"

#include "ns3/attribute.h"
#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/type-id.h"

#include <string>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief What StarNetworkHelper and SwitchedStarHelper share: endpoints that run a
 * TcpMessageTransport over IPv4, with a TCP congestion control, transport attributes and an
 * address block the user chooses.
 *
 * The two stars differ in their links and switching (routed point-to-point links, or Ethernet
 * links to a layer-2 switch), not in how their endpoints' TCP and transports are configured, so
 * that configuration is written once here. Not for use on its own: its constructor is
 * protected, and each star says how it spends the address block.
 */
class TcpStarHelperBase
{
  public:
    /**
     * \brief Choose the TCP congestion control of every node with an Internet stack (the
     * SocketType of its ns3::TcpL4Protocol); ns-3's default (TcpCubic in 3.37) otherwise.
     * \param variant a subclass of ns3::TcpCongestionOps, for example TcpCubic::GetTypeId()
     */
    void SetTcpVariant(TypeId variant);

    /**
     * \brief Set an attribute of every transport (ns3::TcpMessageTransport).
     * \param name an attribute of ns3::TcpMessageTransport, for example SegmentSize
     * \param value its value
     */
    void SetTransportAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Choose the addresses: StarNetworkHelper gives its first link this network and
     * later links the following ones; SwitchedStarHelper puts every endpoint in this one
     * subnet, endpoint i at its (i + 1)-th address.
     * \param network the first network
     * \param mask its mask
     */
    void SetBaseNetwork(Ipv4Address network, Ipv4Mask mask);

  protected:
    /**
     * \param helperName the star's class name, which starts its error messages
     * \param network the default first network
     * \param mask the default mask
     */
    TcpStarHelperBase(std::string helperName, Ipv4Address network, Ipv4Mask mask);
    ~TcpStarHelperBase() = default;

    /**
     * \brief Give the nodes the congestion control SetTcpVariant chose, if any.
     * \param nodes nodes with an Internet stack
     */
    void InstallTcpVariant(const NodeContainer& nodes) const;

    std::string m_helperName;                 //!< Starts error messages
    MessageTransportHelper m_transportHelper; //!< Configures the transports
    TypeId m_tcpVariant;                      //!< Congestion control; uid 0 for default
    Ipv4Address m_baseNetwork;                //!< First network
    Ipv4Mask m_mask;                          //!< Its mask
};

} // namespace ns3

#endif /* TCP_STAR_HELPER_BASE_H */
