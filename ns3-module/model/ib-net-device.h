/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_NET_DEVICE_H
#define IB_NET_DEVICE_H

#include "ib-packet.h"

#include "ns3/data-rate.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace ns3
{

class ErrorModel;

class IbChannel;
class IbEventQueue;

/**
 * \ingroup uniference
 *
 * \brief Whoever owns a port (a switch, an endpoint's RDMA transport) and decides what it
 * sends. A plain interface rather than ns-3 callbacks: these are the per-packet calls.
 */
class IbPortOwner
{
  public:
    virtual ~IbPortOwner() = default;

    /**
     * \brief A packet arrived; its wire bytes occupy the port's receive buffer on its lane
     * until the owner calls IbNetDevice::ReleaseReceiveBuffer.
     * \param port the owner's index of the port
     * \param packet the packet
     */
    virtual void PortReceive(uint32_t port, const IbPacket& packet) = 0;

    /**
     * \brief The port's transmitter is idle, or credits came back: offer it a packet now if
     * there is one it has credits for (IbNetDevice::CanTransmit, Transmit).
     * \param port the owner's index of the port
     */
    virtual void PortReady(uint32_t port) = 0;
};

/**
 * \ingroup uniference
 *
 * \brief One port of an InfiniBand-like lossless fabric: a full-duplex link end with
 * credit-based link-level flow control per virtual lane.
 *
 * The receiving side has a buffer of VlBufferBytes per virtual lane. The sending side keeps,
 * per lane, how much of that buffer it may still fill (its credits, counted in blocks of
 * CreditBytes as InfiniBand counts 64-byte blocks) and never starts a packet it has no
 * credits for, so no buffer overflows and nothing is dropped by construction. When the owner
 * of the receiving port releases a packet's buffer space, the port returns those credits in a
 * flow-control packet: FlowControlPacketBytes long, sent on the same cable in the opposite
 * direction, between data packets, and carrying the cumulative count of freed blocks (so
 * coalesced updates lose nothing). Updates wait until CreditUpdateBytes have been freed or the
 * lane's buffer is empty, whichever comes first; the second condition is what keeps a sender
 * that waits for credits from waiting forever. An update's arrival time is known when it is
 * sent, so the sender takes it into account whenever it next looks at its credits, and an
 * event is spent on it only when the sender is waiting for it (the Credits trace therefore
 * reports a credit when it is next looked at, not at the instant it arrived).
 *
 * A packet's serialization takes its wire bytes at DataRate; the line is exact to the
 * picosecond (events fall on the next nanosecond, the line never loses the remainder). A
 * packet reaches the peer's owner when its last bit has crossed the cable or, on a port
 * with CutThrough, when its header has: a cut-through switch may start forwarding then, but
 * its own transmission of the packet never ends before the packet's last bit has arrived.
 *
 * The fabric carries IbPacket values, not ns3::Packet: the IP stack cannot run over this
 * device (Send returns false). It exists for RdmaMessageTransport and IbSwitch.
 */
class IbNetDevice : public NetDevice
{
  public:
    /// HeaderBytes' default: local routing header (8), base transport header (12), invariant
    /// CRC (4), variant CRC (2).
    static constexpr uint32_t DEFAULT_HEADER_BYTES = 26;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    IbNetDevice();
    ~IbNetDevice() override;

    /**
     * TracedCallback signature for credit and buffer levels.
     * \param [in] vl the virtual lane
     * \param [in] blocks credits in blocks (Credits), or blocks in use (ReceiveBuffer)
     */
    typedef void (*LevelTracedCallback)(uint8_t vl, int64_t blocks);

    /**
     * TracedCallback signature for packet events.
     * \param [in] packet the packet
     */
    typedef void (*PacketTracedCallback)(const IbPacket& packet);

    /**
     * TracedCallback signature for a credit stall: the transmitter sat idle while its owner
     * had a packet for it that the peer's buffer had no room for.
     * \param [in] startPs when the owner found too few credits, on the fabric's clock
     * \param [in] endPs when the next packet started on the line
     */
    typedef void (*StallTracedCallback)(int64_t startPs, int64_t endPs);

    /**
     * \brief Connect this port to a cable.
     * \param channel the cable; its other end is the peer
     */
    void Attach(Ptr<IbChannel> channel);

    /**
     * \brief Name the owner that receives this port's packets and feeds its transmitter.
     * \param owner the owner; it outlives the simulation's events
     * \param port the owner's index for this port, passed back in every call
     */
    void SetOwner(IbPortOwner* owner, uint32_t port);

    /**
     * \brief Delay every arriving packet's hand-over to the owner (a switch's forwarding
     * latency), at no cost in events.
     * \param delay the delay
     */
    void SetProcessingDelay(Time delay);

    /// \return whether no data packet is being serialised
    bool IsTransmitterIdle() const;

    /**
     * \brief Call the owner's PortReady once the packet on the line has ended. An owner with
     * more to send asks for this; a port whose owner has nothing waiting spends no event on
     * the end of its packets.
     */
    void NotifyWhenIdle();

    /**
     * \param vl a virtual lane
     * \param wireBytes a packet's size on the wire
     * \return whether the peer's buffer on that lane has room for the packet; if not, the
     * owner's PortReady is called when credits next arrive
     */
    bool HasCredits(uint8_t vl, uint32_t wireBytes);

    /**
     * \param vl a virtual lane
     * \param wireBytes bytes on the wire
     * \return whether the peer's buffer has room for them now; asks for no wake-up
     */
    bool CouldSend(uint8_t vl, uint32_t wireBytes) const;

    /**
     * \brief Start serialising a packet. The transmitter must be idle and have credits for it.
     * \param packet the packet; its wireBytes, vl and lastBitPs are read
     */
    void Transmit(IbPacket packet);

    /**
     * \brief The owner is done with a received packet: free its buffer space and return its
     * credits to the peer.
     * \param vl the packet's lane
     * \param wireBytes the packet's wire bytes
     */
    void ReleaseReceiveBuffer(uint8_t vl, uint32_t wireBytes);

    /// \return the payload MTU in bytes
    uint32_t GetPayloadMtu() const;
    /// \return the bytes of headers and trailers every packet carries
    uint32_t GetHeaderBytes() const;
    /// \return the line rate
    DataRate GetDataRate() const;
    /// \return the number of virtual lanes
    uint8_t GetVirtualLanes() const;
    /// \return the receive buffer per lane, in blocks of CreditBytes
    int64_t GetBufferBlocks() const;
    /// \param vl a lane \return the credits this port holds for the peer's buffer, in blocks
    int64_t GetCredits(uint8_t vl) const;
    /**
     * \param vl a lane
     * \return bytes sent to the peer on that lane whose credits have not come back: what the
     * peer still holds or has not yet reported freed, the congestion an adaptive router sees
     */
    uint64_t GetUncreditedBytes(uint8_t vl) const;
    /// \param vl a lane \return blocks of this port's receive buffer in use
    int64_t GetReceiveBufferUsed(uint8_t vl) const;
    /// \return bytes this port has put on the wire (data, acknowledgements, flow control)
    uint64_t GetTxBytes() const;
    /// \return packets this port has put on the wire (data and acknowledgements; not credits)
    uint64_t GetTxPackets() const;
    /// \return the time the line has been busy transmitting, for utilisation
    Time GetBusyTime() const;
    /// \return the cable
    Ptr<IbChannel> GetIbChannel() const;
    /// \return what receives this port's packets (an IbSwitch or an RdmaMessageTransport)
    IbPortOwner* GetOwner() const;
    /// \return whether a packet arriving here is passed on once its header is in
    bool IsCutThrough() const;

    /// \param bytes a size on the wire \return its serialisation time on this port, in ps
    int64_t TransmissionPs(uint32_t bytes) const;

    /**
     * \brief Have the owner's PortReady called at a time (pacing), unless a wake-up is pending.
     * A fabric event, not an ns-3 one, so that it takes its place among the fabric's events at
     * the same nanosecond in the same way however the simulation is split (IbEventQueue).
     * \param ps when, in picoseconds (rounded up to the nanosecond)
     */
    void WakeOwnerAt(int64_t ps);

    /**
     * \brief Where this port's fabric events of one kind stand among others at the same
     * nanosecond: by kind, then node id and interface (IbEventQueue's order).
     * \param kind an IbEventQueue::Kind
     * \return the key
     */
    uint64_t EventPlace(uint8_t kind) const
    {
        return (static_cast<uint64_t>(kind) << 56) | m_eventPlace;
    }
    /// \param kind an IbEventQueue::Kind \return the count of this port's events of that kind
    uint64_t NextEventSeq(uint8_t kind)
    {
        return m_eventSeq[kind]++;
    }

    /**
     * \brief A packet the peer sent: its arrival goes on the fabric's event list. The peer
     * calls it, or the IbRemoteChannel that brought the packet from another process.
     * \param packet the packet, lastBitPs set by the peer
     * \param handOverPs when it is handed to this port's owner (as Transmit computed it)
     */
    void TakePacket(const IbPacket& packet, int64_t handOverPs);
    /**
     * \brief A credit update the peer sent, read when this port next looks at its credits.
     * From the peer, or from the IbRemoteChannel that brought it from another process.
     * \param startPs when it starts on the peer's line
     * \param arrivalPs when its last bit arrives here
     * \param vl its lane
     * \param freedTotal the peer's cumulative freed blocks on the lane
     * \param merge it replaces the freed count of the last update, which has not started yet
     */
    void TakeCredits(int64_t startPs, int64_t arrivalPs, uint8_t vl, int64_t freedTotal, bool merge);

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsBridge() const override;
    bool IsPointToPoint() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;
    void DoInitialize() override;

  private:
    friend class IbEventQueue; // runs the port's events

    /// The last bit (or, cut-through, the header) of a packet arrived from the peer.
    void Receive(IbPacket packet);
    /// Take the credit updates whose last bit has arrived by now.
    void ApplyArrivedCredits() const;
    /// While starved of credits, wake at the next update's arrival.
    void ArmCreditWake();
    /// A credit update arrived while the owner waited for credits.
    void CreditWake();
    /// The data packet's last bit left, and the owner asked to hear it.
    void TransmitComplete();
    /// The wake-up WakeOwnerAt asked for.
    void OwnerWake();
    /// Put one flow-control packet per lane with unadvertised credits on the line.
    void SendCreditUpdates();
    /// Hand one lane's credit update (or a merge into the last) to the peer, or to the cable
    /// when the peer is in another process.
    void PassCredits(int64_t startPs, int64_t arrivalPs, uint8_t vl, bool merge);
    /// \param bytes wire bytes \return blocks of CreditBytes they occupy
    int64_t Blocks(uint32_t bytes) const;

    Ptr<Node> m_node;          //!< The node this port belongs to
    Ptr<IbChannel> m_channel;  //!< The cable
    IbNetDevice* m_peer;       //!< The other end of the cable, once both are attached
    uint32_t m_ifIndex;        //!< Index on the node
    Mac48Address m_address;    //!< A unique address, for ns-3's NetDevice bookkeeping
    IbPortOwner* m_owner;      //!< Receives and feeds packets
    uint32_t m_ownerPort;      //!< The owner's index of this port

    DataRate m_rate;           //!< Line rate
    uint32_t m_mtu;            //!< Payload MTU
    uint32_t m_headerBytes;    //!< Headers and trailers per packet
    uint8_t m_lanes;           //!< Virtual lanes
    uint32_t m_vlBufferBytes;  //!< Receive buffer per lane
    uint32_t m_creditBytes;    //!< Bytes per credit block
    uint32_t m_fcpBytes;       //!< Flow-control packet size on the wire
    uint32_t m_updateBytes;    //!< Freed bytes that trigger an update
    bool m_cutThrough;         //!< Hand packets to the owner when the header arrives
    Ptr<ErrorModel> m_receiveErrorModel; //!< Loses arriving packets (faults), if set
    double m_psPerByte;        //!< Serialisation time of a byte
    int64_t m_delayPs;         //!< Cable delay
    int64_t m_processingPs;    //!< Added to every hand-over to the owner

    int64_t m_dataEndPs;       //!< When the data packet on the line ends
    bool m_idlePending;        //!< The owner asked to hear when the line is idle
    int64_t m_lineFreePs;      //!< When the line has finished everything started on it
    int64_t m_busyPs;          //!< Total serialisation time so far
    uint64_t m_txBytes;        //!< Wire bytes sent
    uint64_t m_txPackets;      //!< Packets sent, credit updates not counted
    bool m_starved;            //!< The owner found too few credits and waits
    bool m_creditWakePending;  //!< A wake-up for arriving credits is scheduled
    bool m_ownerWakePending;   //!< WakeOwnerAt's wake-up is scheduled
    int64_t m_stallStartPs;    //!< When an idle line began to wait for credits; -1: it does not
    uint64_t m_eventPlace;     //!< Node id and interface, for EventPlace
    uint64_t m_eventSeq[4];    //!< Fabric events scheduled so far, per kind
    bool m_peerRemote;         //!< The peer lives in another process: packets go by MPI
    int64_t m_lastUpdateStartPs; //!< When the last credit update sent starts on the line
    uint8_t m_lastUpdateVl;    //!< Its lane

    /// A credit update on its way from the peer.
    struct CreditUpdate
    {
        int64_t startPs;    //!< When it starts on the line
        int64_t arrivalPs;  //!< When its last bit arrives here
        uint8_t vl;         //!< Its lane
        int64_t freedTotal; //!< The peer's cumulative freed blocks on the lane
    };

    /// Credit updates sent by the peer, in arrival order (one cable, one order).
    mutable std::deque<CreditUpdate> m_inbound;

    /// Per lane, send side: the peer's buffer size plus what it has freed, minus what we sent.
    mutable std::vector<int64_t> m_credits;
    int64_t m_peerBlocks;      //!< The peer's buffer per lane, in blocks
    /// Per lane, send side: the peer's cumulative freed count as last advertised.
    mutable std::vector<int64_t> m_peerFreed;
    /// Per lane, receive side: blocks in use.
    std::vector<int64_t> m_rxUsed;
    /// Per lane, receive side: blocks freed so far (cumulative).
    std::vector<int64_t> m_freed;
    /// Per lane, receive side: the cumulative count last advertised.
    std::vector<int64_t> m_advertised;

    mutable TracedCallback<uint8_t, int64_t> m_creditsTrace; //!< Credits changed
    TracedCallback<uint8_t, int64_t> m_rxBufferTrace;      //!< Receive buffer use changed
    TracedCallback<const IbPacket&> m_txTrace;             //!< A packet started on the line
    TracedCallback<const IbPacket&> m_rxTrace;             //!< A packet arrived
    TracedCallback<const IbPacket&> m_rxDropTrace;         //!< A packet arrived and was lost
    TracedCallback<int64_t, int64_t> m_creditStallTrace;   //!< An idle line waited for credits
};

} // namespace ns3

#endif /* IB_NET_DEVICE_H */
