/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_MESSAGE_TRANSPORT_H
#define TCP_MESSAGE_TRANSPORT_H

#include "message-header.h"
#include "message-transport.h"

#include "ns3/ipv4-address.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>
#include <map>

namespace ns3
{

class Address;
class Packet;
class Socket;

/**
 * \ingroup uniference
 *
 * \brief A MessageTransport over ns-3 TCP sockets.
 *
 * Each endpoint knows where the other endpoints listen (AddPeer); all of them listen on the
 * same Port. An endpoint keeps one TCP connection to each peer it sends to, opened on the
 * first Send(); the peer only receives on it. Messages to one peer therefore arrive in the
 * order they were sent. Each message travels as a MessageHeader followed by its payload;
 * payloads are zero-filled packets that the simulator never copies. The first frame on every
 * connection is a hello (channel HELLO_CHANNEL, cookie = the sender's endpoint id, no payload)
 * that tells the accepting side who is on the other end.
 *
 * Messages sent before the application has started wait for the start; messages to a peer
 * wait for the connection to it to open. The sender writes into the TCP socket as much as its
 * send buffer takes and continues when the socket reports free space. MessageSent fires when a
 * message's header is written into the socket, and a message's sent callback once its last
 * byte is in the socket.
 */
class TcpMessageTransport : public MessageTransport
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    TcpMessageTransport();
    ~TcpMessageTransport() override;

    /**
     * \brief Tell this transport where another endpoint's transport listens.
     *
     * The peer listens on this transport's Port.
     *
     * \param endpointId the peer's endpoint id
     * \param address an address of the peer's node
     */
    void AddPeer(uint32_t endpointId, Ipv4Address address);

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

    /// A message waiting in a connection's queue, possibly partly written.
    struct OutgoingMessage
    {
        uint64_t channel;      //!< Destination channel
        uint64_t cookie;       //!< Sender's cookie
        uint64_t bytes;        //!< Payload size
        uint64_t payloadLeft;  //!< Payload bytes not yet written into the socket
        bool headerWritten;    //!< Whether the header is in the socket
        Callback<void> onSent; //!< Called once the last byte is in the socket
    };

    /// The connection to one peer, and the messages queued for it.
    struct Connection
    {
        Ptr<Socket> socket;                //!< Null until the connection is opened
        bool connected{false};             //!< Whether the handshake has completed
        bool helloWritten{false};          //!< Whether the hello frame is in the socket
        bool writing{false};               //!< Guards WritePending against reentry
        std::deque<OutgoingMessage> queue; //!< Messages not completely written yet
    };

    /// Decoding state of one accepted connection.
    struct IncomingStream
    {
        Ptr<Socket> socket;                                    //!< The accepted socket
        bool identified{false};                                //!< Whether the hello arrived
        uint32_t source{0};                                    //!< Sender's endpoint id
        uint8_t headerBytes[MessageHeader::SERIALIZED_SIZE]{}; //!< Header bytes so far
        uint32_t headerFilled{0};                              //!< Bytes in headerBytes
        bool inPayload{false};                                 //!< Whether counting a payload down
        uint64_t channel{0};                                   //!< Current message's channel
        uint64_t cookie{0};                                    //!< Current message's cookie
        uint64_t size{0};                                      //!< Current message's payload size
        uint64_t payloadLeft{0};                               //!< Payload bytes still to come
    };

    /**
     * Apply the socket attributes of this transport to a new TCP socket.
     * \param socket the socket
     */
    void ConfigureSocket(Ptr<Socket> socket) const;
    /**
     * Open the connection to a peer.
     * \param dst the peer's endpoint id
     * \param connection its connection state
     */
    void OpenConnection(uint32_t dst, Connection& connection);
    /**
     * Write queued messages into a connection's socket while it has room.
     * \param dst the peer's endpoint id
     * \param connection its connection state
     */
    void WritePending(uint32_t dst, Connection& connection);
    /**
     * Connection to a peer established.
     * \param dst the peer's endpoint id
     * \param socket the connected socket
     */
    void HandleConnected(uint32_t dst, Ptr<Socket> socket);
    /**
     * Connection to a peer could not be established.
     * \param dst the peer's endpoint id
     * \param socket the socket
     */
    void HandleConnectFailed(uint32_t dst, Ptr<Socket> socket);
    /**
     * Room freed in the send buffer of the connection to a peer.
     * \param dst the peer's endpoint id
     * \param socket the socket
     * \param available bytes free in its send buffer
     */
    void HandleSendSpace(uint32_t dst, Ptr<Socket> socket, uint32_t available);
    /**
     * A connection to a peer was closed by the peer or failed.
     * \param dst the peer's endpoint id
     * \param socket the socket
     */
    void HandleOutgoingClosed(uint32_t dst, Ptr<Socket> socket);
    /**
     * A connection to a peer failed: TCP gave up retransmitting (a cable down for good). What
     * was queued to that peer is lost, as a library's is when its socket errors; the
     * ConnectionLost trace source says so.
     * \param dst the peer's endpoint id
     * \param socket the socket
     */
    void HandleOutgoingFailed(uint32_t dst, Ptr<Socket> socket);
    /**
     * A peer opened a connection to this endpoint.
     * \param socket the accepted socket
     * \param from the peer's address
     */
    void HandleAccept(Ptr<Socket> socket, const Address& from);
    /**
     * Data arrived on an accepted connection.
     * \param stream index into m_streams
     * \param socket the socket
     */
    void HandleRead(uint32_t stream, Ptr<Socket> socket);
    /**
     * An accepted connection was closed.
     * \param stream index into m_streams
     * \param socket the socket
     */
    void HandleIncomingClosed(uint32_t stream, Ptr<Socket> socket);
    /**
     * An accepted connection failed (TCP gave up): what was in it is lost.
     * \param stream index into m_streams
     * \param socket the socket
     */
    void HandleIncomingFailed(uint32_t stream, Ptr<Socket> socket);
    /**
     * Consume one received packet of a stream: headers are decoded, payload counted.
     * \param stream index into m_streams
     * \param packet the bytes, consumed in place
     */
    void Consume(uint32_t stream, Ptr<Packet> packet);

    uint16_t m_port;        //!< Port this transport listens on, and its peers too
    uint32_t m_segmentSize; //!< TCP maximum segment size of every socket
    uint32_t m_sndBufSize;  //!< TCP send buffer size of every socket
    uint32_t m_rcvBufSize;  //!< TCP receive buffer size of every socket
    bool m_running;         //!< Between StartApplication and StopApplication
    TracedCallback<uint32_t> m_connectionLostTrace; //!< A connection failed, by peer endpoint
    bool m_stopped;         //!< StopApplication has run

    std::map<uint32_t, Ipv4Address> m_peers;      //!< Peer endpoint id to address
    Ptr<Socket> m_listenSocket;                   //!< Accepts peers' connections
    std::map<uint32_t, Connection> m_connections; //!< Outgoing, by peer id
    std::deque<IncomingStream> m_streams;         //!< Accepted connections
};

} // namespace ns3

#endif /* TCP_MESSAGE_TRANSPORT_H */
