/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ETHERNET_FABRIC_HELPER_H
#define ETHERNET_FABRIC_HELPER_H

#include "fabric-graph.h"
#include "tcp-star-helper-base.h"

#include "ns3/application-container.h"
#include "ns3/attribute.h"
#include "ns3/ethernet-net-device.h"
#include "ns3/ethernet-switch.h"
#include "ns3/ipv4-address.h"
#include "ns3/message-transport.h"
#include "ns3/net-device-container.h"
#include "ns3/object-factory.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Builds a switched Ethernet fabric (leaf-spine, fat-tree, any FabricGraph) with a
 * TcpMessageTransport on every endpoint: the TCP counterpart of IbFabricHelper, as most
 * inference clusters are Ethernet.
 *
 * Switches are EthernetSwitches, cables EthernetChannels between EthernetNetDevices, and every
 * endpoint is in one IPv4 subnet (10.2.0.0/16 by default; SetBaseNetwork), so traffic is
 * switched all the way and no switch runs IP. The switches' tables are filled as a
 * fabric manager fills them, from FabricGraph's shortest paths: towards each endpoint's MAC
 * address, all equal-cost ports, among which a frame takes the one its flow (IPv4 addresses,
 * protocol, TCP ports) hashes to, salted per switch (HashSeed + the switch's index), so every
 * packet of a connection follows one path and tiers spread flows independently. Nothing is
 * learned and nothing flooded: the endpoints' ARP is static (AssignStaticSubnet). A hop costs
 * its cable's delay plus the serialisation of one full frame.
 *
 * Each endpoint has one cable (one NIC): a graph that gives an endpoint a second cable
 * (RailOptimised) is refused at Install. Endpoint devices queue DEVICE_QUEUE_PACKETS packets
 * below the flow-queueing disc ns-3 gives them, as SwitchedStarHelper's do; switch ports are
 * drop-tail output buffers of the switches' PortQueueSize. Cables between processes are
 * EthernetRemoteChannels.
 */
class EthernetFabricHelper : public FabricGraph, public TcpStarHelperBase
{
  public:
    EthernetFabricHelper();

    /// Packets each endpoint device queues below the traffic-control layer.
    static constexpr uint32_t DEVICE_QUEUE_PACKETS = 2;

    /// \param name an attribute of ns3::EthernetNetDevice (DataRate, Mtu) \param value its value
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /// \param name an attribute of ns3::EthernetChannel (Delay) \param value its value
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);
    /// \param name an attribute of ns3::EthernetSwitch (PortQueueSize) \param value its value
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);

    /// \param id an endpoint id \return its transport (after Install)
    Ptr<MessageTransport> GetTransport(uint32_t id) const;
    /// \return the transports, by endpoint id
    std::vector<Ptr<MessageTransport>> GetTransports() const override;
    /// \param id an endpoint id \return its address (after Install)
    Ipv4Address GetEndpointAddress(uint32_t id) const;
    /// \param i a switch index \return the switch
    Ptr<EthernetSwitch> GetSwitch(uint32_t i) const;

  private:
    void InstallEndpoint(uint32_t endpoint, uint32_t id, Ptr<Node> node) override;
    void InstallSwitch(uint32_t index, Ptr<Node> node) override;
    BuiltCable InstallCable(const Cable& cable) override;
    void InstallRoute(Vertex at, uint32_t destination, const std::vector<uint32_t>& ports) override;
    /// Stacks, addresses, static ARP and transports, once every cable is in.
    void InstallDone() override;

    ObjectFactory m_deviceFactory;  //!< EthernetNetDevice
    ObjectFactory m_channelFactory; //!< EthernetChannel
    ObjectFactory m_switchFactory;  //!< EthernetSwitch
    ObjectFactory m_queueFactory;   //!< Endpoint devices' queues
    std::vector<Ptr<EthernetNetDevice>> m_devices;  //!< Endpoint devices, by endpoint index
    std::vector<Ptr<EthernetSwitch>> m_switches;    //!< By switch index
    std::vector<Ipv4Address> m_addresses;           //!< By endpoint id
    ApplicationContainer m_transports;              //!< By endpoint id
};

} // namespace ns3

#endif /* ETHERNET_FABRIC_HELPER_H */
