/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_NETWORK_HELPER_H
#define FLOW_NETWORK_HELPER_H

#include "ns3/flow-message-transport.h"
#include "ns3/flow-network.h"
#include "ns3/message-transport.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Puts a network built for the packet level onto the flow level: the same nodes,
 * cables, rates, delays, routes and ECMP choices, with FlowMessageTransports in place of the
 * packet transports.
 *
 * Build the topology with its own helper (IbFabricHelper, SwitchedStarHelper,
 * StarNetworkHelper), then hand Install its transports. Each gets a FlowMessageTransport on
 * its node with the same endpoint id, framed as it frames messages:
 *
 * - RdmaMessageTransport: the port's payload MTU and header bytes per packet; a path follows
 *   the endpoint's route and every switch's ECMP choice for the queue pair's flow hash
 *   (IbSwitch::SelectEcmpPort); a message completes when acknowledged. Adaptive routing,
 *   which may spread one queue pair over several paths, is refused.
 * - TcpMessageTransport on a star (one hub, switch or router, that every endpoint's one cable
 *   reaches): the segment size, 52 bytes of IPv4 and TCP headers with timestamps and the
 *   link's framing per packet (Ethernet: preamble, header, FCS and inter-frame gap; PPP: 2),
 *   the MessageHeader per message, a handshake and slow start per connection.
 *
 * The packet transports stay on their nodes, idle.
 */
class FlowNetworkHelper
{
  public:
    FlowNetworkHelper();

    /**
     * \param packetTransports the transports a topology helper built, by endpoint id
     * \return their flow-level replacements, in the same order
     */
    std::vector<Ptr<MessageTransport>> Install(
        const std::vector<Ptr<MessageTransport>>& packetTransports);

    /// \return the network the flow transports share (after Install)
    Ptr<FlowNetwork> GetNetwork() const;

    struct State; //!< What the routes are resolved from, shared with the transports

  private:
    std::shared_ptr<State> m_state; //!< Set by Install
};

} // namespace ns3

#endif /* FLOW_NETWORK_HELPER_H */
