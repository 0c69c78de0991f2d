/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef STAR_NETWORK_HELPER_H
#define STAR_NETWORK_HELPER_H

#include "tcp-star-helper-base.h"

#include "ns3/application-container.h"
#include "ns3/attribute.h"
#include "ns3/ipv4-address.h"
#include "ns3/message-transport.h"
#include "ns3/node-container.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/object-factory.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class PointToPointStarHelper;

/**
 * \ingroup uniference
 *
 * \brief Builds N endpoints around one hub, with point-to-point links, TCP/IP, global routing,
 * and a TcpMessageTransport on every endpoint.
 *
 * Endpoint i gets endpoint id i and knows every other endpoint; traffic between two endpoints
 * crosses two links through the hub. Links are configured like PointToPointHelper's (device
 * attributes DataRate and Mtu, channel attribute Delay), all links alike. Each link is its own
 * /24 subnet taken from the base network, 10.1.1.0 by default.
 *
 * Every device keeps only DEVICE_QUEUE_PACKETS packets in its own queue, as a Linux driver
 * does under byte queue limits, so that the backlog builds in the flow-queueing discipline
 * (FqCoDel) ns-3 installs with the addresses. With ns-3's default 100-packet device FIFO, the
 * ACKs of one flow wait behind up to 100 data packets of another flow on the same link, which
 * stretches the round-trip time beyond what the default TCP buffers cover and slows ring and
 * pipelined collectives by several percent. SetDeviceQueue restores any other choice.
 *
 * SetTcpVariant, SetTransportAttribute and SetBaseNetwork come from TcpStarHelperBase; the
 * congestion control applies to the hub's stack as well as the endpoints'.
 */
class StarNetworkHelper : public TcpStarHelperBase
{
  public:
    StarNetworkHelper();
    ~StarNetworkHelper();

    /// Packets each device queues below the traffic-control layer, unless SetDeviceQueue.
    static constexpr uint32_t DEVICE_QUEUE_PACKETS = 2;

    /**
     * \brief Set the queue inside every net device, below the traffic-control layer.
     * \tparam Ts \deduced argument types
     * \param type a queue type, for example ns3::DropTailQueue
     * \param args name and AttributeValue pairs, for example "MaxSize", StringValue("100p")
     */
    template <typename... Ts>
    void SetDeviceQueue(std::string type, Ts&&... args);

    /**
     * \brief Set an attribute of every link's net devices (ns3::PointToPointNetDevice).
     * \param name for example DataRate or Mtu
     * \param value its value
     */
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Set an attribute of every link's channel (ns3::PointToPointChannel).
     * \param name for example Delay
     * \param value its value
     */
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Set an attribute of every link, on its channel if the channel has it (Delay),
     * otherwise on its devices (DataRate, Mtu).
     * \param name the attribute
     * \param value its value
     */
    void SetLinkAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Set an attribute of the links a PointToPointHelper builds, on their channel if
     * the channel has it (Delay), otherwise on their devices (DataRate, Mtu).
     * \param links the helper
     * \param name the attribute
     * \param value its value
     */
    static void SetLinkAttribute(PointToPointHelper& links,
                                 const std::string& name,
                                 const AttributeValue& value);

    /**
     * \brief Build the network and its transports; call once.
     * \param n number of endpoints
     * \return the endpoint nodes
     */
    NodeContainer Install(uint32_t n);

    /// \return the number of endpoints
    uint32_t GetN() const;
    /**
     * \param i an endpoint index
     * \return its node
     */
    Ptr<Node> GetEndpoint(uint32_t i) const;
    /**
     * \param i an endpoint index
     * \return its transport
     */
    Ptr<MessageTransport> GetTransport(uint32_t i) const;
    /**
     * \param i an endpoint index
     * \return its address
     */
    Ipv4Address GetEndpointAddress(uint32_t i) const;
    /// \return the hub node
    Ptr<Node> GetHub() const;
    /// \return all transports, in endpoint order
    std::vector<Ptr<MessageTransport>> GetTransports() const;

    /**
     * \brief Write a pcap file per device (after Install).
     * \param prefix file name prefix
     */
    void EnablePcapAll(const std::string& prefix);

  private:
    /**
     * Give each of a node's point-to-point devices a root disc from the factory, if it is set.
     * \param node the hub or an endpoint, its stack installed and its addresses not yet
     * \param factory makes the discs
     */
    static void InstallLinkDiscs(Ptr<Node> node, const ObjectFactory& factory);

    PointToPointHelper m_pointToPoint;              //!< Configures the links
    std::unique_ptr<PointToPointStarHelper> m_star; //!< The topology, once installed
    NodeContainer m_endpoints;                      //!< Endpoint nodes
    ApplicationContainer m_transports;              //!< One per endpoint
};

template <typename... Ts>
void
StarNetworkHelper::SetDeviceQueue(std::string type, Ts&&... args)
{
    m_pointToPoint.SetQueue(type, std::forward<Ts>(args)...);
}

} // namespace ns3

#endif /* STAR_NETWORK_HELPER_H */
