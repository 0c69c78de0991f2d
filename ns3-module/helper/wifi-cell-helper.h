/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WIFI_CELL_HELPER_H
#define WIFI_CELL_HELPER_H

#include "message-transport-helper.h"

#include "ns3/application-container.h"
#include "ns3/data-rate.h"
#include "ns3/message-transport.h"
#include "ns3/node-container.h"
#include "ns3/type-id.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Endpoints that reach one another over ns-3's own Wi-Fi: every endpoint a station of
 * one ad hoc 802.11ax cell (20 MHz at 5 GHz, one spatial stream, Yans PHY with log-distance
 * path loss), sending at one fixed HE MCS, with TCP/IP in one subnet and a TcpMessageTransport
 * on each.
 *
 * Ad hoc, so that no station waits for an association before its first frame: edge devices
 * that already share a cell. Stations stand evenly on a circle, neighbours Spacing metres
 * apart (SetSpacing), so every pair is in range of every other.
 */
class WifiCellHelper
{
  public:
    WifiCellHelper();

    /**
     * \brief Send data at the fastest HE MCS (20 MHz, one stream, 800 ns guard interval) whose
     * rate is at most `rate`; MCS 0 if none is.
     * \param rate the rate wanted
     */
    void SetRate(DataRate rate);

    /**
     * \param spacing metres between neighbouring stations
     */
    void SetSpacing(double spacing);

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
     * \brief Build the cell; call once.
     * \param n stations
     * \return the stations, in endpoint order
     */
    NodeContainer Install(uint32_t n);

    /// \return every endpoint's transport, in endpoint order
    std::vector<Ptr<MessageTransport>> GetTransports() const;

    /// \return the HE MCS the stations send data at
    uint32_t GetMcs() const;

    /**
     * \param mcs an HE MCS, 0 to 11
     * \return its rate at 20 MHz, one spatial stream, 800 ns guard interval
     */
    static DataRate HeMcsRate(uint32_t mcs);

  private:
    uint32_t m_mcs;                           //!< data rate's MCS
    double m_spacing;                         //!< metres between neighbours
    TypeId m_tcpVariant;                      //!< unset: ns-3's default
    MessageTransportHelper m_transportHelper; //!< the endpoints' transports
    ApplicationContainer m_transports;        //!< one per station
};

} // namespace ns3

#endif /* WIFI_CELL_HELPER_H */
