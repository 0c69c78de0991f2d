/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FABRIC_GRAPH_H
#define FABRIC_GRAPH_H

#include "ns3/data-rate.h"
#include "ns3/message-transport.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief What every switched fabric helper shares, whatever its cables carry: the graph of
 * endpoints, switches and cables, the named topologies, the endpoint ids, the cut across
 * processes and the shortest-path routes.
 *
 * First describe the graph, with the building blocks (AddEndpoint, AddSwitch, Connect) or a
 * named topology (Star, LeafSpine, FatTree, RailOptimised, TwoTier); then Install creates
 * the nodes and asks the helper (IbFabricHelper, EthernetFabricHelper) for what stands on them:
 * an endpoint's transport, a switch, a cable's two ports, and each vertex's next hops. A link
 * class (AddLinkClass) overrides the rate and delay of the cables connected with it, for
 * example NVLink-like links inside a server.
 *
 * Routes are computed as a subnet manager would: per destination, a shortest-path tree over
 * the switches (endpoints never forward), where a hop costs what the helper says its cable
 * costs (its delay plus the serialisation of one full packet); every switch gets all
 * equal-cost next hops (ECMP or adaptive routing choose among them), every endpoint its ports
 * on a shortest path.
 *
 * Endpoint ids follow the order of endpoints unless SetPlacement gives another: placement[i]
 * is the endpoint that gets id i, the remaining endpoints take the ids after those, in order.
 */
class FabricGraph
{
  public:
    /// A vertex of the graph: an endpoint or a switch, by its index among its kind.
    struct Vertex
    {
        bool isSwitch;  //!< Switch or endpoint
        uint32_t index; //!< Index among switches or among endpoints
    };

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
     * are the helper's remote channels (which need ns-3's mpi module); with one process nothing
     * is cut.
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
    /// \param id an endpoint id \return its node (after Install)
    Ptr<Node> GetEndpointNode(uint32_t id) const;
    /// \param i a switch index \return its node (after Install)
    Ptr<Node> GetSwitchNode(uint32_t i) const;
    /// \param i a switch index \return its name ("hub", "leaf0", "pod1-edge0", "core3")
    std::string GetSwitchName(uint32_t i) const;
    /// \return the endpoints' transports, by endpoint id (after Install)
    virtual std::vector<Ptr<MessageTransport>> GetTransports() const = 0;

  protected:
    /**
     * \param helperName the helper's class name, which starts its error messages
     * \param remoteChannel the channel type of cables between processes (ns-3's mpi module)
     */
    FabricGraph(std::string helperName, std::string remoteChannel);
    virtual ~FabricGraph() = default;

    /// A cable for the helper to build.
    struct Cable
    {
        Vertex a;           //!< One end
        Vertex b;           //!< The other end
        Ptr<Node> nodeA;    //!< a's node
        Ptr<Node> nodeB;    //!< b's node
        bool classed;       //!< Of a class from AddLinkClass: rate and delay below
        DataRate rate;      //!< Its class's rate, if classed
        Time delay;         //!< Its class's delay, if classed
        TypeId remote;      //!< The remote channel type if it joins two processes, else unset
    };

    /// What the helper built of a cable.
    struct BuiltCable
    {
        uint32_t portA; //!< Its port's index at end a (among the switch's or endpoint's ports)
        uint32_t portB; //!< Its port's index at end b
        int64_t cost;   //!< What a hop over it costs the routes (picoseconds), at least 1
    };

    /**
     * \param endpoint an endpoint index
     * \param id its endpoint id
     * \param node its node, created for it
     */
    virtual void InstallEndpoint(uint32_t endpoint, uint32_t id, Ptr<Node> node) = 0;
    /**
     * \param index a switch index
     * \param node its node, created for it
     */
    virtual void InstallSwitch(uint32_t index, Ptr<Node> node) = 0;
    /// \param cable a cable of the graph \return its ports and cost
    virtual BuiltCable InstallCable(const Cable& cable) = 0;
    /**
     * \brief The next hops of a vertex towards an endpoint, on every vertex that reaches it.
     * \param at a switch or endpoint
     * \param destination the destination's endpoint index
     * \param ports at's ports on a shortest path to it, in the order of at's cables
     */
    virtual void InstallRoute(Vertex at, uint32_t destination, const std::vector<uint32_t>& ports) = 0;
    /// What the helper does once every cable and route is in (addresses, transports).
    virtual void InstallDone()
    {
    }

    /// \param endpoint an endpoint index \return its id (during and after Install)
    uint32_t IdOf(uint32_t endpoint) const;

    /**
     * \brief Give a switch its own salt for the flow hash: its HashSeed attribute plus its
     * index. With one seed for all, every tier would choose alike and ECMP would polarise onto
     * a few paths.
     * \param sw a switch with a HashSeed attribute
     * \param index its switch index
     */
    static void SaltHashSeed(Ptr<Object> sw, uint32_t index);

    /**
     * \tparam ChannelType the helper's channel type, with a Delay attribute
     * \param channels makes the helper's channels
     * \param cable a cable
     * \return its channel: the remote type for a cable between processes, the class's delay
     */
    template <typename ChannelType>
    static Ptr<ChannelType> CreateChannel(ObjectFactory channels, const Cable& cable)
    {
        if (cable.remote != TypeId())
        {
            channels.SetTypeId(cable.remote);
        }
        Ptr<ChannelType> channel = channels.Create<ChannelType>();
        if (cable.classed)
        {
            channel->SetAttribute("Delay", TimeValue(cable.delay));
        }
        return channel;
    }

    std::string m_helperName; //!< Starts error messages

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

    /// The endpoints' ids: the placement first, then the rest in order.
    void AssignIds();
    /// \param v a vertex \return the process that runs it
    uint32_t PartitionOf(const Vertex& v) const;
    /// \param sw a switch \param index its place in its tier \param of the tier's size
    void Spread(Vertex sw, uint32_t index, uint32_t of);
    /// \param v a vertex \return its node
    Ptr<Node> NodeOf(const Vertex& v) const;

    /**
     * Ask the helper for every vertex's next hops.
     * \param adjacency per vertex (endpoints, then switches): (neighbour, edge)
     * \param edgeCost per edge
     */
    void ComputeRoutes(const std::vector<std::vector<std::pair<uint32_t, uint32_t>>>& adjacency,
                       const std::vector<int64_t>& edgeCost);

    std::string m_remoteChannel;      //!< Type name of cables between processes
    std::vector<LinkClass> m_classes; //!< Index 0 is the default
    uint32_t m_nEndpoints;            //!< Endpoints described
    uint32_t m_nSwitches;             //!< Switches described
    std::vector<std::string> m_switchNames; //!< By switch index
    std::vector<Edge> m_edges;        //!< Cables described
    std::vector<BuiltCable> m_built;  //!< Per cable, what the helper built
    std::vector<uint32_t> m_placement; //!< Endpoint of each id
    bool m_installed;                 //!< Install ran
    uint32_t m_partitions;            //!< Processes the fabric is cut across
    /// Per switch: its place in its tier and the tier's size, or a pinned process (of = 0)
    std::vector<std::pair<uint32_t, uint32_t>> m_switchSpread;
    std::vector<uint32_t> m_endpointPartition; //!< Per endpoint id, after Install
    uint32_t m_cutCables;             //!< Cables between processes, after Install
    std::vector<uint32_t> m_idOfEndpoint;   //!< Endpoint index to id
    std::vector<uint32_t> m_endpointOfId;   //!< Endpoint id to index
    std::vector<Ptr<Node>> m_endpointNodes; //!< By endpoint index
    std::vector<Ptr<Node>> m_switchNodes;   //!< By switch index
};

} // namespace ns3

#endif /* FABRIC_GRAPH_H */
