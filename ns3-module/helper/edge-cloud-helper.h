/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EDGE_CLOUD_HELPER_H
#define EDGE_CLOUD_HELPER_H

#include "message-transport-helper.h"
#include "varying-link-helper.h"

#include "ns3/message-transport.h"
#include "ns3/node-container.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/type-id.h"

#include <vector>

namespace ns3
{

class VaryingLinkChannel;

/**
 * \ingroup uniference
 *
 * \brief Two sites joined by one wide-area link: edge devices on a router of their own, cloud
 * servers on another, and between the routers a VaryingLinkHelper link (a satellite path, a
 * sub-THz beam, a replayed trace). TCP/IP with global routing, and a TcpMessageTransport on
 * every endpoint.
 *
 * Endpoints are numbered edge first: endpoint i < edge is at the edge. Each endpoint has its
 * own point-to-point link to its site's router (SetLanAttribute). The wide-area link's first
 * device is the edge router's, so the first rate of GetWan().SetDataRates is the uplink.
 *
 * Devices keep StarNetworkHelper::DEVICE_QUEUE_PACKETS packets each, so a backlog builds in
 * the traffic-control layer above them, as on Linux hosts and routers.
 */
class EdgeCloudHelper
{
  public:
    EdgeCloudHelper();

    /**
     * \brief Set an attribute of every site link, on its channel if the channel has it
     * (Delay), otherwise on its devices (DataRate, Mtu).
     * \param name the attribute
     * \param value its value
     */
    void SetLanAttribute(const std::string& name, const AttributeValue& value);

    /// \return the wide-area link's helper, to configure before Install
    VaryingLinkHelper& GetWan();

    /**
     * \brief Choose every node's TCP congestion control (TcpL4Protocol's SocketType).
     * \param variant a subclass of ns3::TcpCongestionOps
     */
    void SetTcpVariant(TypeId variant);

    /**
     * \brief Set an attribute of every transport (ns3::TcpMessageTransport).
     * \param name the attribute
     * \param value its value
     */
    void SetTransportAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Build both sites and the link between them; call once.
     * \param edge endpoints at the edge
     * \param cloud endpoints in the cloud
     * \return the endpoints, edge first
     */
    NodeContainer Install(uint32_t edge, uint32_t cloud);

    /// \return every endpoint's transport, in endpoint order
    std::vector<Ptr<MessageTransport>> GetTransports() const;

    /// \return the wide-area link's channel
    Ptr<VaryingLinkChannel> GetWanChannel() const;

  private:
    PointToPointHelper m_lan;                //!< site links
    VaryingLinkHelper m_wan;                 //!< the wide-area link
    MessageTransportHelper m_transportHelper; //!< the endpoints' transports
    TypeId m_tcpVariant;                     //!< unset: ns-3's default
    NodeContainer m_endpoints;               //!< edge first
    ApplicationContainer m_transports;       //!< one per endpoint
    Ptr<VaryingLinkChannel> m_wanChannel;    //!< set by Install
};

} // namespace ns3

#endif /* EDGE_CLOUD_HELPER_H */
