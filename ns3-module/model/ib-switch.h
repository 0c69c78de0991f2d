/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_SWITCH_H
#define IB_SWITCH_H

#include "ib-net-device.h"

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief An InfiniBand-like switch: IbNetDevice ports, input-buffered, with forwarding
 * tables the topology helper fills.
 *
 * A packet waits in the receive buffer of the port it came in on until its output port sends
 * it; only then are its credits returned upstream. Inside that buffer, packets queue per
 * output (virtual output queues, as switch ASICs keep them) or, with VirtualOutputQueues
 * false, in one FIFO per lane, where a packet whose output is busy holds up every packet
 * behind it. Either way a buffer filled by one congested output stops its whole input link
 * through the credits (head-of-line blocking at the link, as credit-based hardware has), and
 * back-pressure spreads hop by hop without a drop. Each output port serves the queues whose
 * head packet is bound for it in round-robin order, skipping lanes it has no downstream
 * credits for.
 *
 * Forwarding: the table gives, per destination endpoint, the output ports on shortest paths.
 * With ECMP routing a flow takes the port its flow hash selects (per-switch HashSeed), so a
 * flow keeps one path and arrives in order; with Adaptive routing every packet takes the
 * least loaded candidate port (bytes waiting for it here plus bytes it has sent whose credits
 * have not returned: the queue at the next hop), as adaptive routing in InfiniBand switches
 * does, and packets of a flow may overtake each other.
 *
 * Congestion marking (for InfiniBand congestion control's FECN and for DCQCN's ECN): when a
 * packet leaves, if the bytes still waiting for its output port exceed MarkingMinBytes, it is
 * marked with a probability rising linearly to MarkingProbability at MarkingMaxBytes, and
 * always beyond; MarkingMinBytes = MarkingMaxBytes gives InfiniBand's fixed threshold. Only
 * the root of congestion marks: an output that is short of credits (it could not send a second
 * packet like this one) is a victim of congestion further on and leaves packets unmarked.
 *
 * A packet reaches the switch ForwardingLatency after it arrived at the port (after its
 * header arrived: AddPort makes ports cut-through); the port counts it in its buffer from
 * then on, which shifts the buffer trace by the latency and changes no credit.
 */
class IbSwitch : public Object, public IbPortOwner
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    IbSwitch();
    ~IbSwitch() override;

    /// How a switch picks among equal-cost output ports.
    enum Routing
    {
        ECMP,     //!< per flow, by hash
        ADAPTIVE, //!< per packet, the least loaded
    };

    /**
     * TracedCallback signature for an output port's backlog.
     * \param [in] port the output port
     * \param [in] bytes wire bytes waiting for it
     */
    typedef void (*BacklogTracedCallback)(uint32_t port, uint64_t bytes);

    /**
     * TracedCallback signature for a packet marked congested as it leaves.
     * \param [in] port the output port it leaves by
     * \param [in] packet the packet, marked
     */
    typedef void (*MarkTracedCallback)(uint32_t port, const IbPacket& packet);

    /**
     * \brief Take a port (already on a node and a cable).
     * \param port the port
     * \return its index in this switch
     */
    uint32_t AddPort(Ptr<IbNetDevice> port);

    /**
     * \brief Set where packets for an endpoint go.
     * \param dst the destination endpoint id
     * \param ports the output ports on its shortest paths, at least one
     */
    void SetRoute(uint32_t dst, const std::vector<uint32_t>& ports);

    /// \param dst an endpoint id \return the output ports packets for it may take
    const std::vector<uint32_t>& GetRoute(uint32_t dst) const;

    /**
     * \brief The port ECMP routing sends a flow by.
     * \param flowHash the flow's hash (RdmaMessageTransport::FlowHash)
     * \param dst its destination endpoint id
     * \return the output port
     */
    uint32_t SelectEcmpPort(uint32_t flowHash, uint32_t dst) const;
    /// \return how a switch picks among equal-cost ports
    Routing GetRouting() const;
    /// \return the forwarding latency
    Time GetForwardingLatency() const;

    /// \return the number of ports
    uint32_t GetNPorts() const;
    /// \param i a port index \return the port
    Ptr<IbNetDevice> GetPort(uint32_t i) const;
    /// \param port an output port \return wire bytes waiting for it
    uint64_t GetBacklog(uint32_t port) const;
    /// \return packets marked so far
    uint64_t GetMarks() const;

    /**
     * \brief Use fixed random streams for marking.
     * \param stream the first stream index
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    void PortReceive(uint32_t port, const IbPacket& packet) override;
    void PortReady(uint32_t port) override;

  protected:
    void DoInitialize() override;
    void DoDispose() override;

  private:
    /// A packet held in an input buffer, linked into its queue.
    struct Held
    {
        IbPacket packet;  //!< The packet
        uint32_t output;  //!< Its output port
        uint32_t next;    //!< The next packet of its queue, or NONE
    };

    /// A FIFO of held packets, linked through the pool.
    struct Queue
    {
        uint32_t head; //!< First packet, or NONE
        uint32_t tail; //!< Last packet, or NONE
    };

    static constexpr uint32_t NONE = UINT32_MAX; //!< No packet

    /// \param packet an arriving packet \return its output port
    uint32_t ChooseOutput(const IbPacket& packet);
    /// Send the next eligible packet on an idle output, if any.
    void ServeOutput(uint32_t output);
    /// Make a queue's head packet wait for its output (and wake the output).
    void Enqueue(uint32_t queue);
    /// \param output a leaving packet's port \return whether to mark the packet
    bool ShouldMark(uint32_t output);

    std::vector<Ptr<IbNetDevice>> m_ports;      //!< Ports by index
    std::vector<Held> m_pool;                   //!< Every held packet's slot
    std::vector<uint32_t> m_freeSlots;          //!< Unused slots of the pool
    std::vector<Queue> m_queues;                //!< Per input lane (and output, with VOQs)
    bool m_voq;                                 //!< Virtual output queues
    std::vector<std::vector<uint32_t>> m_waiting; //!< Per output, queues whose head wants it
    std::vector<uint32_t> m_next;               //!< Per output, round-robin position
    std::vector<uint64_t> m_backlog;            //!< Per output, bytes waiting for it
    std::vector<std::vector<uint32_t>> m_routes; //!< Per destination, candidate outputs
    uint8_t m_vls;                              //!< Lanes per port

    Routing m_routing;         //!< ECMP or adaptive
    uint32_t m_hashSeed;       //!< Salts the flow hash per switch
    Time m_latency;            //!< Forwarding latency
    uint64_t m_markMin;        //!< Marking starts above this backlog
    uint64_t m_markMax;        //!< Marking is certain above this backlog
    double m_markProbability;  //!< Marking probability at m_markMax
    bool m_marking;            //!< Marking on
    uint64_t m_marks;          //!< Packets marked
    uint32_t m_spray;          //!< Rotates adaptive routing's ties
    Ptr<UniformRandomVariable> m_random; //!< Draws marks between the thresholds

    TracedCallback<uint32_t, uint64_t> m_backlogTrace; //!< An output's backlog changed
    TracedCallback<uint32_t, const IbPacket&> m_markTrace; //!< A packet was marked
};

} // namespace ns3

#endif /* IB_SWITCH_H */
