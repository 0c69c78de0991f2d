/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_MESSAGE_TRANSPORT_H
#define RDMA_MESSAGE_TRANSPORT_H

#include "ib-net-device.h"
#include "message-transport.h"
#include "rdma-congestion-control.h"

#include "ns3/event-id.h"
#include "ns3/object-factory.h"

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief A MessageTransport over RDMA reliable connections on the InfiniBand-like fabric.
 *
 * An endpoint opens one queue pair per peer it sends to, at the first Send, with no
 * handshake (connections are set up before a job starts on real clusters too). A queue pair
 * holds any number of outstanding messages. Each message is cut into packets of at most the
 * port's payload MTU; the receiver completes it when its last byte has arrived and the
 * messages before it on the queue pair are complete (messages are delivered in order even
 * when adaptive routing reorders packets), then returns an acknowledgement, whose arrival
 * completes the message at the sender (the sent callback).
 *
 * The endpoint's port(s) serve their queue pairs in round-robin order, one packet at a time,
 * acknowledgements and congestion notifications first. A queue pair's pace is set by its
 * congestion control (CongestionControl, a subclass of ns3::RdmaCongestionControl; the base
 * class sends at line rate). A receiver that gets a marked packet returns a congestion
 * notification packet (CNP, InfiniBand's BECN) to the sender, at most one per CnpInterval
 * per queue pair.
 *
 * The fabric is lossless, so nothing needs retransmitting, and by default nothing is. Faults
 * on purpose can lose packets (IbNetDevice's ReceiveErrorModel); for them a queue pair has
 * InfiniBand RC's recovery, with RetransmitTimeout set: when a queue pair with messages
 * unacknowledged has neither sent a packet nor had an acknowledgement for that long, it goes
 * back to its first unacknowledged message and sends everything from there again (a new
 * round, which the receiver tells from the old by the packets' attempt number); after
 * RetryCount such timeouts in a row the queue pair errors (QueuePairError) and its messages
 * are never completed. The receiver acknowledges again a message it had already delivered.
 * Acknowledgements are per message, so the timer runs from the queue pair's last packet or
 * acknowledgement, not from each packet as IB's does: a lossless fabric never times out.
 *
 * An endpoint may have several ports
 * (a GPU's NVLink-like port and its NIC); SetRoute says which one leads to which peer.
 */
class RdmaMessageTransport : public MessageTransport, public IbPortOwner
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaMessageTransport();
    ~RdmaMessageTransport() override;

    /**
     * TracedCallback signature for injected and delivered payload.
     * \param [in] peer the destination (Inject) or source (Arrive)
     * \param [in] bytes payload bytes of the packet
     */
    typedef void (*BytesTracedCallback)(uint32_t peer, uint32_t bytes);

    /**
     * \brief Take a port of this endpoint's node.
     * \param port the port
     * \return its index in this transport
     */
    uint32_t AddPort(Ptr<IbNetDevice> port);

    /**
     * \brief Send traffic for a peer through one of this endpoint's ports (port 0 otherwise).
     * \param dst the peer's endpoint id
     * \param port a port index from AddPort
     */
    void SetRoute(uint32_t dst, uint32_t port);

    /// \return the number of ports
    uint32_t GetNPorts() const;
    /// \param i a port index \return the port
    Ptr<IbNetDevice> GetPort(uint32_t i) const;
    /// \param dst a peer \return the index of the port traffic for it leaves by
    uint32_t RouteTo(uint32_t dst) const;
    /**
     * \brief The hash ECMP switches spread a queue pair by: fixed per (source, destination).
     * \param src the sender's endpoint id
     * \param dst the receiver's endpoint id
     * \return the hash
     */
    static uint32_t FlowHash(uint32_t src, uint32_t dst);
    /// \return payload bytes put on the wire so far
    uint64_t GetInjectedBytes() const;
    /// \return payload bytes of messages delivered to listeners so far
    uint64_t GetDeliveredBytes() const;
    /// \return messages whose acknowledgement has not arrived yet
    uint64_t GetUnacknowledged() const;
    /// \return messages sent to peers whose acknowledgement has not arrived yet, queued or not
    uint64_t GetPendingSends() const override;
    /**
     * \param dst a peer
     * \return the congestion control of the queue pair to it, or null before the first Send
     */
    Ptr<RdmaCongestionControl> GetCongestionControl(uint32_t dst) const;

    void PortReceive(uint32_t port, const IbPacket& packet) override;
    void PortReady(uint32_t port) override;

  protected:
    void DoDispose() override;
    void DoSend(uint32_t dst,
                uint64_t channel,
                uint64_t cookie,
                uint64_t bytes,
                Callback<void> onSent) override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// A message being sent.
    struct OutMessage
    {
        uint64_t msn;          //!< Sequence number on its queue pair
        uint64_t channel;      //!< Destination channel
        uint64_t cookie;       //!< Sender's cookie
        uint64_t bytes;        //!< Length
        uint64_t sent;         //!< Bytes segmented so far
        Callback<void> onSent; //!< Called at the acknowledgement
        bool announced{false}; //!< Its first byte was reported sent (once, whatever resends)
    };

    /// The sending half of a queue pair.
    struct SendQp
    {
        uint32_t dst;                          //!< Peer
        uint32_t port;                         //!< Port it leaves by
        uint32_t flowHash;                     //!< What ECMP sees
        uint64_t nextMsn{0};                   //!< Next message's sequence number
        std::deque<OutMessage> queue;          //!< Messages not fully on the wire
        std::map<uint64_t, OutMessage> unacked; //!< Sent, waiting for the ack
        int64_t nextSendPs{0};                 //!< Pacing: earliest next packet
        bool listed{false};                    //!< In its port's active list
        Ptr<RdmaCongestionControl> cc;         //!< Its rate
        // Retransmission (RetransmitTimeout set only):
        uint8_t attempt{0};                    //!< Round of sending; a timeout starts the next
        uint32_t timeouts{0};                  //!< Timeouts since the last acknowledgement
        int64_t lastProgressPs{0};             //!< Its last packet or acknowledgement
        EventId timer;                         //!< Checks for a timeout
        bool failed{false};                    //!< Past RetryCount: it errored
    };

    /// A message being received.
    struct InMessage
    {
        uint64_t received{0}; //!< Payload bytes so far
        uint64_t length{0};   //!< Its length
        uint64_t channel{0};  //!< Its channel
        uint64_t cookie{0};   //!< The sender's cookie
        bool started{false};  //!< A packet has arrived
        uint8_t attempt{0};   //!< The sender's round its bytes come from
    };

    /// The receiving half of a queue pair.
    struct RecvQp
    {
        uint64_t nextDeliver{0};              //!< Next sequence number to hand over
        std::map<uint64_t, InMessage> partial; //!< Not yet delivered
        int64_t lastCnpPs{INT64_MIN / 2};      //!< When the last CNP left for the sender
    };

    /// Per port: what it may send.
    struct PortState
    {
        Ptr<IbNetDevice> device;           //!< The port
        std::deque<IbPacket> control;      //!< Acknowledgements and CNPs, sent first
        std::vector<SendQp*> active;       //!< Queue pairs with data, round-robin
        std::size_t next{0};               //!< Round-robin position
    };

    /// \param dst a peer \return its queue pair, created on first use
    SendQp& GetSendQp(uint32_t dst);
    /// Offer the idle port its next packet.
    void Serve(uint32_t port);
    /// Queue an acknowledgement or CNP for a peer.
    void SendControl(IbPacket::Kind kind, uint32_t dst, uint64_t msn);
    /// A data packet arrived.
    void ReceiveData(const IbPacket& packet);
    /// Arm a queue pair's retransmission timer, if it is on and not armed.
    void ArmTimer(SendQp& qp);
    /// The timer of the queue pair to a peer expired: resend from its first unacknowledged
    /// message, or error past RetryCount.
    void RetransmitTimeout(uint32_t dst);
    /// A message to ourselves: no wire.
    void DeliverLocally(uint64_t channel, uint64_t cookie, uint64_t bytes, Callback<void> onSent);

    std::vector<PortState> m_ports;                       //!< By index
    std::unordered_map<uint32_t, uint32_t> m_routes;     //!< Peer to port
    std::unordered_map<uint32_t, std::unique_ptr<SendQp>> m_sendQps; //!< By peer
    std::unordered_map<uint32_t, RecvQp> m_recvQps;      //!< By peer
    bool m_running;                                       //!< Between start and stop

    uint8_t m_vl;               //!< Lane of all our traffic
    uint32_t m_ackBytes;        //!< Extra header bytes of an ack/CNP
    Time m_cnpInterval;         //!< Least time between CNPs to one sender
    TypeId m_ccType;            //!< Congestion control per queue pair
    Time m_retransmitTimeout;   //!< 0: no retransmission (lossless)
    uint32_t m_retryCount;      //!< Timeouts in a row before a queue pair errors
    ObjectFactory m_ccFactory;  //!< Creates it
    uint64_t m_injected;        //!< Payload bytes sent
    uint64_t m_delivered;       //!< Payload bytes delivered
    uint64_t m_unacked;         //!< Messages waiting for their ack
    uint64_t m_outstanding;     //!< Messages sent to peers and not yet acknowledged

    TracedCallback<uint32_t, uint32_t> m_injectTrace; //!< A data packet left
    TracedCallback<uint32_t, uint32_t> m_arriveTrace; //!< A data packet arrived
    TracedCallback<uint32_t, uint32_t> m_retransmitTrace; //!< A queue pair went back (peer, round)
    TracedCallback<uint32_t> m_qpErrorTrace;              //!< A queue pair errored (peer)
};

} // namespace ns3

#endif /* RDMA_MESSAGE_TRANSPORT_H */
