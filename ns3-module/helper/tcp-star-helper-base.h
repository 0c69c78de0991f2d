/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_STAR_HELPER_BASE_H
#define TCP_STAR_HELPER_BASE_H

#include "message-transport-helper.h"

#include "ns3/attribute.h"
#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/type-id.h"

#include <string>
#include <utility>

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

    /**
     * \brief Give every endpoint's link device a root queue disc of this type instead of
     * ns-3's default: with SetHubQueueDisc, ns3::TbfQueueDisc shapes both directions of every
     * link, as `tc qdisc ... tbf` on both ends of a Linux testbed's links does.
     * \tparam Ts \deduced argument types
     * \param type a queue disc type, for example ns3::TbfQueueDisc
     * \param args name and AttributeValue pairs, for example "Rate", DataRateValue(...)
     */
    template <typename... Ts>
    void SetEndpointQueueDisc(std::string type, Ts&&... args)
    {
        m_endpointDiscFactory.SetTypeId(type);
        m_endpointDiscFactory.Set(std::forward<Ts>(args)...);
    }

    /**
     * \brief Put a queue disc of this type on the hub's side of every link, in front of the
     * hub's device (or switch port) towards each endpoint.
     * \tparam Ts \deduced argument types
     * \param type a queue disc type, for example ns3::TbfQueueDisc
     * \param args name and AttributeValue pairs
     */
    template <typename... Ts>
    void SetHubQueueDisc(std::string type, Ts&&... args)
    {
        m_hubDiscFactory.SetTypeId(type);
        m_hubDiscFactory.Set(std::forward<Ts>(args)...);
    }

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
    ObjectFactory m_endpointDiscFactory;      //!< Endpoints' link discs, if set
    ObjectFactory m_hubDiscFactory;           //!< The hub's link discs, if set
};

} // namespace ns3

#endif /* TCP_STAR_HELPER_BASE_H */
