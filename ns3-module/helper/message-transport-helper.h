/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MESSAGE_TRANSPORT_HELPER_H
#define MESSAGE_TRANSPORT_HELPER_H

#include "ns3/application-container.h"
#include "ns3/attribute.h"
#include "ns3/ipv4-address.h"
#include "ns3/message-transport.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/type-id.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Installs a TcpMessageTransport on each of a set of nodes and introduces them to each
 * other, whatever IPv4 network connects them.
 *
 * The transports it creates are TCP ones (ns3::TcpMessageTransport); users that only send and
 * listen should keep to their MessageTransport interface.
 */
class MessageTransportHelper
{
  public:
    MessageTransportHelper();

    /**
     * \brief Set an attribute of every transport this helper installs from now on.
     * \param name an attribute of ns3::TcpMessageTransport (or of ns3::MessageTransport)
     * \param value its value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Install one transport per node, all started at time 0.
     *
     * The transport on nodes.Get(k) gets endpoint id k, and every transport is told that
     * endpoint k is reached at addresses[k] (itself included, so a node may send to itself).
     *
     * \param nodes the endpoints' nodes
     * \param addresses for each node, an IPv4 address at which the others reach it
     * \return the transports, in node order
     */
    ApplicationContainer Install(const NodeContainer& nodes,
                                 const std::vector<Ipv4Address>& addresses) const;

    /**
     * \param installed what Install returned
     * \return its transports, in node order
     */
    static std::vector<Ptr<MessageTransport>> GetTransports(const ApplicationContainer& installed);

    /**
     * \brief Choose the TCP congestion control of every node (its TcpL4Protocol's SocketType).
     * \param nodes nodes with an Internet stack
     * \param variant a subclass of ns3::TcpCongestionOps; an unset TypeId leaves ns-3's default
     */
    static void SetTcpVariant(const NodeContainer& nodes, TypeId variant);

  private:
    ObjectFactory m_factory; //!< Creates the transports
};

} // namespace ns3

#endif /* MESSAGE_TRANSPORT_HELPER_H */
