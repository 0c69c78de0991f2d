/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LTE_CELL_HELPER_H
#define LTE_CELL_HELPER_H

#include "message-transport-helper.h"

#include "ns3/application-container.h"
#include "ns3/message-transport.h"
#include "ns3/node-container.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/type-id.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Edge devices that reach servers through ns-3's own LTE: every device a UE of one
 * eNB (20 MHz up and down, ns-3's default proportional-fair scheduler and adaptive
 * modulation from CQI), the EPC behind it, and the servers on point-to-point links to its
 * packet gateway (SetBackhaulAttribute). TCP/IP end to end, and a TcpMessageTransport on
 * every endpoint.
 *
 * Endpoints are numbered devices first. Devices stand Distance metres from the eNB, evenly
 * around it. They attach at time 0; a device's first packets wait at its TCP until the
 * bearer is up, as on a real phone.
 */
class LteCellHelper
{
  public:
    LteCellHelper();

    /// \param metres the devices' distance from the eNB
    void SetDistance(double metres);

    /**
     * \brief Set an attribute of every server's link to the packet gateway, on its channel if
     * the channel has it (Delay), otherwise on its devices (DataRate, Mtu).
     * \param name the attribute
     * \param value its value
     */
    void SetBackhaulAttribute(const std::string& name, const AttributeValue& value);

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
     * \brief Build the cell, the core and the servers; call once.
     * \param devices UEs
     * \param servers hosts behind the packet gateway
     * \return the endpoints, devices first
     */
    NodeContainer Install(uint32_t devices, uint32_t servers);

    /// \return every endpoint's transport, in endpoint order
    std::vector<Ptr<MessageTransport>> GetTransports() const;

  private:
    double m_distance;                        //!< metres from the eNB
    PointToPointHelper m_backhaul;            //!< servers to the packet gateway
    TypeId m_tcpVariant;                      //!< unset: ns-3's default
    MessageTransportHelper m_transportHelper; //!< the endpoints' transports
    ApplicationContainer m_transports;        //!< one per endpoint
};

} // namespace ns3

#endif /* LTE_CELL_HELPER_H */
