/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ETHERNET_SUBNET_H
#define ETHERNET_SUBNET_H

#include "ns3/ethernet-net-device.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Give a node an Ethernet device for an endpoint of a switched subnet: a new MAC
 * address and a transmit queue wired as PointToPointHelper wires its devices' queues, so that
 * the traffic-control layer stops and wakes its queue disc as the queue fills and drains.
 * \param node the endpoint's node
 * \param devices makes the device (ns3::EthernetNetDevice)
 * \param queues makes its queue
 * \return the device, on the node and not yet attached
 */
Ptr<EthernetNetDevice> AddEthernetEndpointDevice(Ptr<Node> node,
                                                 const ObjectFactory& devices,
                                                 const ObjectFactory& queues);

/**
 * \brief Put endpoints' devices in one IPv4 subnet with static ARP: device i takes the
 * subnet's (i + 1)-th address, and every device's interface one ARP table that holds a
 * permanent entry for every device, so no ARP request is ever sent and a switch that knows
 * every address never floods. One table serves all: their static tables would be identical,
 * and one table is N entries where N tables are N squared (a million at 1,000 endpoints).
 * The devices' nodes have an Internet stack.
 * \param devices the endpoints' devices
 * \param network the subnet
 * \param mask its mask
 * \return the addresses, by device
 */
std::vector<Ipv4Address> AssignStaticSubnet(const NetDeviceContainer& devices,
                                            Ipv4Address network,
                                            Ipv4Mask mask);

} // namespace ns3

#endif /* ETHERNET_SUBNET_H */
