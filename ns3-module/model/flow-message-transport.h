/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_MESSAGE_TRANSPORT_H
#define FLOW_MESSAGE_TRANSPORT_H

#include "flow-fifo.h"
#include "flow-network.h"
#include "message-transport.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace ns3
{

class FlowMessageTransport;

/**
 * \ingroup uniference
 *
 * \brief What a FlowMessageTransport needs to know of its path to a peer.
 */
struct FlowRoute
{
    uint32_t stream{0};   //!< The FlowNetwork stream from this endpoint to the peer
    Time propagation;     //!< Cable delays and switch latencies along the path
    /// The line rates of the hops after the first that hold a whole packet before passing
    /// it on (store-and-forward), in order.
    std::vector<DataRate> storeAndForward;
    /// The line rates of the hops after the first that pass a packet on once its header is
    /// in (cut-through).
    std::vector<DataRate> cutThrough;
    Time handshake;       //!< A small packet's round trip (a connection's SYN and SYN-ACK)
    Time roundTrip;       //!< A full packet out and its acknowledgement back
    Time ackLatency;      //!< From the last byte's arrival to its acknowledgement's
    double bottleneck{0}; //!< The slowest link's rate, bytes per second
    Ptr<FlowMessageTransport> peer; //!< The peer's transport
};

/**
 * \ingroup uniference
 *
 * \brief A MessageTransport at the flow level: each ordered pair of endpoints is one stream
 * of a FlowNetwork, and a message is its bytes in that stream.
 *
 * A message adds to its stream its payload, MessageOverhead and, for every packet of
 * PacketPayload bytes it is cut into, PacketOverhead wire bytes. Its last byte reaches the
 * peer when the stream has carried it, plus the path's propagation and switching latency,
 * plus one serialisation of the last packet on every store-and-forward hop after the first
 * (of its header on every cut-through hop): a packet pipeline whose first hop the stream's
 * rate already counts.
 *
 * With Connection (TCP), the first message to a peer waits for a handshake (one small
 * round trip), the stream starts with a hello of MessageOverhead bytes, and it is capped in
 * slow start at (InitialWindow segments + the bytes it has carried) per round trip, updated
 * every round trip, until that reaches the path's bottleneck; a message's sent callback runs
 * when no more than SendBuffer of the stream's bytes up to its end are left to carry. Without
 * (RDMA), a stream starts at once at its fair share and a message is sent when its
 * acknowledgement is back.
 *
 * The routes are resolved on first use, by the resolver a helper installs
 * (FlowNetworkHelper), so that a run pays only for the pairs that talk.
 */
class FlowMessageTransport : public MessageTransport
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FlowMessageTransport();
    ~FlowMessageTransport() override;

    /// Resolves the route from one endpoint id to another.
    using Resolver = std::function<FlowRoute(uint32_t src, uint32_t dst)>;

    /**
     * \param network the network every stream runs in
     * \param resolver resolves a route on its first use
     */
    void Setup(Ptr<FlowNetwork> network, Resolver resolver);

    /**
     * \param bytes a message's payload
     * \return the wire bytes it adds to its stream
     */
    uint64_t WireBytes(uint64_t bytes) const;

    uint64_t GetPendingSends() const override;

    /**
     * \brief Hand on a message whose last byte has arrived here.
     * \param source the sender's endpoint id
     * \param channel its channel
     * \param cookie the sender's cookie
     * \param bytes its payload
     */
    void Arrive(uint32_t source, uint64_t channel, uint64_t cookie, uint64_t bytes);

  protected:
    void DoDispose() override;
    void DoSend(uint32_t dst,
                uint64_t channel,
                uint64_t cookie,
                uint64_t bytes,
                Callback<void> onSent) override;

  private:
    /// A message: waiting for its connection, or in its stream.
    struct Message
    {
        uint64_t channel;       //!< Destination channel
        uint64_t cookie;        //!< Sender's cookie
        uint64_t bytes;         //!< Payload
        Callback<void> onSent;  //!< Sent callback; in the stream, run on acknowledgement (RDMA)
    };

    /// This endpoint's side of a pair.
    struct Peer
    {
        FlowRoute route;              //!< The path
        /// Messages in the stream, in order: a stream carries them in order, so the front
        /// one is the next to reach its end (one callback per peer, not one per message).
        FlowFifo<Message> inFlight;
        Callback<void> carried;       //!< Carried, bound to this peer
        bool open{false};             //!< Messages go straight into the stream
        bool opening{false};          //!< The handshake is under way
        std::vector<Message> waiting; //!< Messages sent before it opened
        Time lastArrival;             //!< When the last message reaches the peer
        bool slowStart{false};        //!< The stream is capped by its window
        EventId grow;                 //!< The next window update
    };

    /// \param dst a peer \return its state, the route resolved on first use
    Peer& PeerOf(uint32_t dst);
    /// The handshake with a peer is over.
    void Open(uint32_t dst);
    /// Put a message into the stream to a peer.
    void Transmit(uint32_t dst, const Message& message);
    /// The stream to a peer carried the last byte of its front message.
    void Carried(uint32_t dst);
    /// A message's acknowledgement is back.
    void Acknowledged(Callback<void> onSent);
    /// Raise a slow-start window after a round trip.
    void Grow(uint32_t dst);

    Ptr<FlowNetwork> m_network; //!< Where the streams run
    Resolver m_resolver;        //!< Resolves routes
    std::unordered_map<uint32_t, Peer> m_peers; //!< By endpoint id

    uint32_t m_packetPayload;   //!< Payload bytes per packet
    uint32_t m_packetOverhead;  //!< Wire bytes per packet beyond its payload
    uint32_t m_messageOverhead; //!< Stream bytes per message beyond its payload
    uint32_t m_headerBytes;     //!< Bytes a cut-through hop waits for
    bool m_connection;          //!< TCP-like: handshake, hello, slow start, send buffer
    uint32_t m_initialWindow;   //!< Slow start's first window, segments
    uint32_t m_sendBuffer;      //!< Bytes a sender may have in flight beyond what was carried
    uint64_t m_pending;         //!< Sends waiting for their acknowledgement
};

} // namespace ns3

#endif /* FLOW_MESSAGE_TRANSPORT_H */
