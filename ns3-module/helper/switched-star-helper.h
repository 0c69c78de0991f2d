/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SWITCHED_STAR_HELPER_H
#define SWITCHED_STAR_HELPER_H

#include "tcp-star-helper-base.h"

#include "ns3/application-container.h"
#include "ns3/attribute.h"
#include "ns3/ethernet-switch.h"
#include "ns3/ipv4-address.h"
#include "ns3/message-transport.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/ptr.h"
#include "ns3/queue.h"
#include "ns3/type-id.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Builds N endpoints on Ethernet links to one EthernetSwitch, all in one IP subnet,
 * with a TcpMessageTransport on every endpoint: the layer-2 counterpart of StarNetworkHelper.
 *
 * Endpoint i gets endpoint id i and knows every other endpoint; traffic between two endpoints
 * crosses two links and is switched, not routed, in between: the switch node has no IP stack.
 * Links are configured like StarNetworkHelper's (device attributes DataRate and Mtu of
 * ns3::EthernetNetDevice, channel attribute Delay of ns3::EthernetChannel), all links and both
 * ends of each alike. The endpoints take consecutive addresses of one subnet, 10.1.0.0/16 by
 * default, and reach each other without a route beyond the subnet's own.
 *
 * Nothing is learned at run time: the switch's table holds every endpoint's MAC address
 * against its port, and the endpoints' ARP caches hold a permanent entry for every endpoint
 * (static ARP), so no frame is ever flooded and no ARP request is sent. All endpoints share one
 * such cache: their static tables would be identical, and one table is N entries where N
 * tables are N squared (a million at 1,000 endpoints).
 *
 * As in StarNetworkHelper, every endpoint device keeps only DEVICE_QUEUE_PACKETS packets in
 * its own queue, so that the backlog builds in the flow-queueing discipline (FqCoDel) above
 * it and one flow's ACKs do not wait behind another flow's data. The switch's ports have no
 * such layer above them; their queues are the switch's output buffers (EthernetSwitch's
 * PortQueueSize).
 *
 * SetTcpVariant, SetTransportAttribute and SetBaseNetwork come from TcpStarHelperBase; the
 * switch runs no TCP, so the congestion control applies to the endpoints alone.
 */
class SwitchedStarHelper : public TcpStarHelperBase
{
  public:
    SwitchedStarHelper();

    /// Packets each endpoint device queues below the traffic-control layer, unless
    /// SetDeviceQueue.
    static constexpr uint32_t DEVICE_QUEUE_PACKETS = 2;

    /**
     * \brief Set the queue inside every endpoint's device, below the traffic-control layer.
     * \tparam Ts \deduced argument types
     * \param type a queue type, for example ns3::DropTailQueue<Packet>
     * \param args name and AttributeValue pairs, for example "MaxSize", StringValue("100p")
     */
    template <typename... Ts>
    void SetDeviceQueue(std::string type, Ts&&... args);

    /**
     * \brief Set an attribute of every link's devices (ns3::EthernetNetDevice), at both ends.
     * \param name for example DataRate, Mtu or InterframeGap
     * \param value its value
     */
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Set an attribute of every link's channel (ns3::EthernetChannel).
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
     * \brief Set an attribute of the switch (ns3::EthernetSwitch).
     * \param name for example PortQueueSize
     * \param value its value
     */
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Cut the star across the processes of a distributed simulation (ns-3's
     * MpiInterface, enabled before Install): endpoint i runs in process i * processes / n,
     * in contiguous blocks, and the switch in process 0, unless pinned. A cable whose ends
     * run in different processes is an ns3::EthernetRemoteChannel, which needs ns-3's mpi
     * module; its delay is the lookahead.
     * \param processes how many processes; 1 (the default) builds one process's star
     */
    void SetPartitions(uint32_t processes);

    /**
     * \brief Pin the switch to a process instead of process 0.
     * \param process below SetPartitions' count
     */
    void SetSwitchPartition(uint32_t process);

    /**
     * \brief Pin an endpoint to a process instead of its block's.
     * \param endpoint an endpoint index
     * \param process below SetPartitions' count
     */
    void SetEndpointPartition(uint32_t endpoint, uint32_t process);

    /// \return how many cables join nodes of different processes (after Install)
    uint32_t GetNCutCables() const;

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
    /// \return the switch node
    Ptr<Node> GetSwitchNode() const;
    /// \return the switch; port i leads to endpoint i
    Ptr<EthernetSwitch> GetSwitch() const;
    /// \return all transports, in endpoint order
    std::vector<Ptr<MessageTransport>> GetTransports() const;

    /**
     * \brief Write a pcap file (Ethernet, DLT_EN10MB) per device, endpoints' and switch ports'
     * (after Install).
     * \param prefix file name prefix
     */
    void EnablePcapAll(const std::string& prefix);

  private:
    ObjectFactory m_deviceFactory;            //!< Makes the links' devices
    ObjectFactory m_channelFactory;           //!< Makes the links' channels
    ObjectFactory m_queueFactory;             //!< Makes the endpoint devices' queues
    ObjectFactory m_switchFactory;            //!< Makes the switch
    NodeContainer m_endpoints;                //!< Endpoint nodes
    Ptr<Node> m_switchNode;                   //!< The switch's node
    Ptr<EthernetSwitch> m_switch;             //!< The switch
    NetDeviceContainer m_devices;             //!< Endpoint devices, then switch ports
    std::vector<Ipv4Address> m_addresses;     //!< By endpoint
    ApplicationContainer m_transports;        //!< One per endpoint
    uint32_t m_partitions;                    //!< Processes the star is cut across
    uint32_t m_switchPartition;               //!< The switch's process
    std::map<uint32_t, uint32_t> m_pinned;    //!< Endpoints pinned to a process
    uint32_t m_cutCables;                     //!< Cables between processes
};

template <typename... Ts>
void
SwitchedStarHelper::SetDeviceQueue(std::string type, Ts&&... args)
{
    QueueBase::AppendItemTypeIfNotPresent(type, "Packet");
    m_queueFactory.SetTypeId(type);
    m_queueFactory.Set(std::forward<Ts>(args)...);
}

} // namespace ns3

#endif /* SWITCHED_STAR_HELPER_H */
