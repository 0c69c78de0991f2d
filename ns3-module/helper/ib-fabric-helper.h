/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_FABRIC_HELPER_H
#define IB_FABRIC_HELPER_H

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/ib-net-device.h"
#include "ns3/ib-switch.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-message-transport.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Builds an InfiniBand-like fabric: endpoints with RdmaMessageTransport, IbSwitch
 * switches, IbNetDevice cables, and shortest-path forwarding tables.
 *
 * First describe the graph, with the building blocks (AddEndpoint, AddSwitch, Connect) or a
 * named topology (Star, LeafSpine, FatTree, RailOptimised, TwoTier); then Install creates
 * every ns-3 object at once. Attributes set with Set*Attribute apply to every object of that
 * kind; a link class (AddLinkClass) overrides the rate and delay of the cables connected with
 * it, for example NVLink-like links inside a server.
 *
 * Routing is computed as a subnet manager would: per destination, a shortest-path tree over
 * the switches (endpoints never forward), where a hop costs its cable's delay plus the
 * serialisation of one full packet; every switch gets all equal-cost next hops (ECMP or
 * adaptive routing choose among them), every endpoint with several ports the port on its
 * cheapest path.
 *
 * Every switch gets its HashSeed attribute plus its index as its own seed, so tiers of
 * switches spread flows independently.
 *
 * Endpoint ids (the fabric's LIDs and the transports' EndpointId) follow the order of
 * endpoints unless SetPlacement gives another: placement[i] is the endpoint that gets id i,
 * the remaining endpoints take the ids after those, in order.
 */
class IbFabricHelper
{
  public:
    IbFabricHelper();

    /// A vertex of the graph: an endpoint or a switch, by its index among its kind.
    struct Vertex
    {
        bool isSwitch; //!< Switch or endpoint
        uint32_t index; //!< Index among switches or among endpoints
    };

    /// \param name an attribute of ns3::IbNetDevice \param value its value
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /// \param name an attribute of ns3::IbChannel \param value its value
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);
    /// \param name an attribute of ns3::IbSwitch \param value its value
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);
    /// \param name an attribute of ns3::RdmaMessageTransport \param value its value
    void SetTransportAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Define cables that differ from the default in rate and delay.
     * \param rate their line rate
     * \param delay their propagation delay
     * \return the class, for Connect
     */
    uint32_t AddLinkClass(DataRate rate, Time delay);

    /// \return the new endpoint
    Vertex AddEndpoint();
    /**
     * \param name what the fabric's users call it ("leaf0", "spine1"); empty: "switchN"
     * \return the new switch
     */
    Vertex AddSwitch(const std::string& name = "");
    /**
     * \brief Cable two vertices together (one new port on each).
     * \param a one end
     * \param b the other end
     * \param linkClass 0 for the default attributes, or a class from AddLinkClass
     */
    void Connect(Vertex a, Vertex b, uint32_t linkClass = 0);

    /// n endpoints on one switch.
    void Star(uint32_t n);
    /// endpointsPerLeaf endpoints on each leaf, every leaf cabled to every spine.
    void LeafSpine(uint32_t leaves, uint32_t spines, uint32_t endpointsPerLeaf);
    /**
     * The three-tier k-ary fat-tree (Al-Fares et al.): k pods of k/2 edge and k/2
     * aggregation switches, (k/2)^2 core switches, k^3/4 endpoints, full bisection. Endpoints
     * are numbered pod by pod, edge by edge.
     * \param k an even number of ports per switch
     */
    void FatTree(uint32_t k);
    /**
     * Rail-optimised: every server has gpusPerServer endpoints, joined inside the server by
     * one switch over cables of class intraClass (NVLink-like); endpoint g of every server also
     * has a NIC on leaf g (its rail); every leaf is cabled to every spine. Endpoints are
     * numbered server by server.
     */
    void RailOptimised(uint32_t servers, uint32_t gpusPerServer, uint32_t spines, uint32_t intraClass);
    /**
     * Two-tier superpod: inside a server, gpusPerServer endpoints on one switch over cables of
     * class intraClass (one hop); every server switch is cabled to every one of tierSwitches
     * switches, through which servers reach each other.
     */
    void TwoTier(uint32_t servers, uint32_t gpusPerServer, uint32_t tierSwitches, uint32_t intraClass);

    /// \param placement placement[i] is the endpoint that gets endpoint id i
    void SetPlacement(const std::vector<uint32_t>& placement);

    /**
     * \brief Cut the fabric across the processes of a distributed simulation (ns-3's
     * MpiInterface, enabled before Install): nodes get system ids 0..processes-1.
     *
     * The built-in topologies cut where the cables are long and few: a fat-tree by pod (its
     * cores spread over the processes), a leaf-spine by leaf, the rail-optimised and two-tier
     * fabrics by server (their rail, spine and tier switches spread); an endpoint goes with the
     * switch of its first cable. SetSwitchPartition pins a switch. The cables between processes
     * are IbRemoteChannels (which need ns-3's mpi module); with one process nothing is cut.
     * \param processes how many
     */
    void SetPartitions(uint32_t processes);
    /**
     * \param sw a switch from AddSwitch or a topology
     * \param process the process that runs it (and the endpoints whose first cable ends on it)
     */
    void SetSwitchPartition(Vertex sw, uint32_t process);
    /// \param id an endpoint id \return the process that runs it (after Install)
    uint32_t GetEndpointPartition(uint32_t id) const;
    /// \return the cables that join two processes (after Install)
    uint32_t GetNCutCables() const;

    /// Create the nodes, ports, cables, switches and transports, and fill the tables.
    void Install();

    /// \return the number of endpoints described
    uint32_t GetNEndpoints() const;
    /// \return the number of switches described
    uint32_t GetNSwitches() const;
    /// \param id an endpoint id \return the transport with that id
    Ptr<RdmaMessageTransport> GetTransport(uint32_t id) const;
    /// \return the transports, by endpoint id
    std::vector<Ptr<MessageTransport>> GetTransports() const;
    /// \param id an endpoint id \return its node
    Ptr<Node> GetEndpointNode(uint32_t id) const;
    /// \param i a switch index \return the switch
    Ptr<IbSwitch> GetSwitch(uint32_t i) const;
    /// \param i a switch index \return its name ("hub", "leaf0", "pod1-edge0", "core3")
    std::string GetSwitchName(uint32_t i) const;
    /// \return every port of every switch and endpoint
    std::vector<Ptr<IbNetDevice>> GetPorts() const;
    /**
     * \brief Give the switches' random streams fixed indexes.
     * \param stream the first index
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

  private:
    /// A cable of the description.
    struct Edge
    {
        Vertex a;           //!< One end
        Vertex b;           //!< The other end
        uint32_t linkClass; //!< Its class
    };

    /// A link class: rate and delay.
    struct LinkClass
    {
        DataRate rate; //!< Line rate
        Time delay;    //!< Propagation delay
    };

    /// \param v a vertex \return the process that runs it
    uint32_t PartitionOf(const Vertex& v) const;
    /// \param sw a switch \param index its place in its tier \param of the tier's size
    void Spread(Vertex sw, uint32_t index, uint32_t of);

    /// Fill every switch's table and every multi-port endpoint's routes.
    void ComputeRoutes(const std::vector<std::vector<std::pair<uint32_t, uint32_t>>>& adjacency,
                       const std::vector<int64_t>& edgeCost);

    ObjectFactory m_deviceFactory;    //!< IbNetDevice
    ObjectFactory m_channelFactory;   //!< IbChannel
    ObjectFactory m_switchFactory;    //!< IbSwitch
    ObjectFactory m_transportFactory; //!< RdmaMessageTransport
    std::vector<LinkClass> m_classes; //!< Index 0 is the default (empty rate: the attribute's)
    uint32_t m_nEndpoints;            //!< Endpoints described
    uint32_t m_nSwitches;             //!< Switches described
    std::vector<std::string> m_switchNames; //!< By switch index
    std::vector<Edge> m_edges;        //!< Cables described
    std::vector<std::pair<uint32_t, uint32_t>> m_edgePorts; //!< Per cable, its ends' port indexes
    std::vector<uint32_t> m_placement; //!< Endpoint of each id
    bool m_installed;                 //!< Install ran
    uint32_t m_partitions;            //!< Processes the fabric is cut across
    /// Per switch: its place in its tier and the tier's size, or a pinned process (of = 0)
    std::vector<std::pair<uint32_t, uint32_t>> m_switchSpread;
    std::vector<uint32_t> m_endpointPartition; //!< Per endpoint id, after Install
    uint32_t m_cutCables;             //!< Cables between processes, after Install

    std::vector<uint32_t> m_idOfEndpoint;           //!< Endpoint index to id
    std::vector<Ptr<Node>> m_endpointNodes;         //!< By endpoint index
    std::vector<Ptr<RdmaMessageTransport>> m_transports; //!< By endpoint index
    std::vector<Ptr<IbSwitch>> m_switches;          //!< By switch index
    std::vector<Ptr<IbNetDevice>> m_ports;          //!< Every port
};

} // namespace ns3

#endif /* IB_FABRIC_HELPER_H */
