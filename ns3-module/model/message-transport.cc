/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "message-transport.h"

#include "ns3/abort.h"
#include "ns3/buffer.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MessageTransport");

NS_OBJECT_ENSURE_REGISTERED(MessageTransport);

TypeId
MessageTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MessageTransport")
            .SetParent<Application>()
            .SetGroupName("Uniference")
            .AddConstructor<MessageTransport>()
            .AddAttribute("EndpointId",
                          "The id other endpoints address this one by.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MessageTransport::m_endpointId),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Port",
                          "TCP port this transport listens on; its peers listen on the same one.",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&MessageTransport::m_port),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("SegmentSize",
                          "TCP maximum segment size (bytes) of every socket the transport opens.",
                          UintegerValue(1448),
                          MakeUintegerAccessor(&MessageTransport::m_segmentSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("SndBufSize",
                          "TCP send buffer size (bytes) of every socket the transport opens.",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&MessageTransport::m_sndBufSize),
                          MakeUintegerChecker<uint32_t>(MessageHeader::SERIALIZED_SIZE))
            .AddAttribute("RcvBufSize",
                          "TCP receive buffer size (bytes) of every socket the transport opens.",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&MessageTransport::m_rcvBufSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("MessageQueued",
                            "Send accepted a message; it waits for its connection and for the "
                            "messages ahead of it (destination, channel, cookie, payload bytes).",
                            MakeTraceSourceAccessor(&MessageTransport::m_messageQueuedTrace),
                            "ns3::MessageTransport::MessageTracedCallback")
            .AddTraceSource("MessageSent",
                            "The first byte of a message was offered to the TCP socket "
                            "(destination, channel, cookie, payload bytes).",
                            MakeTraceSourceAccessor(&MessageTransport::m_messageSentTrace),
                            "ns3::MessageTransport::MessageTracedCallback")
            .AddTraceSource("MessageDelivered",
                            "A message arrived completely and was handed to its listener "
                            "(source, channel, cookie, payload bytes).",
                            MakeTraceSourceAccessor(&MessageTransport::m_messageDeliveredTrace),
                            "ns3::MessageTransport::MessageTracedCallback");
    return tid;
}

MessageTransport::MessageTransport()
    : m_port(9000),
      m_segmentSize(1448),
      m_sndBufSize(131072),
      m_rcvBufSize(131072),
      m_endpointId(0),
      m_running(false),
      m_stopped(false)
{
    NS_LOG_FUNCTION(this);
}

MessageTransport::~MessageTransport()
{
    NS_LOG_FUNCTION(this);
}

void
MessageTransport::SetEndpointId(uint32_t id)
{
    NS_LOG_FUNCTION(this << id);
    m_endpointId = id;
}

uint32_t
MessageTransport::GetEndpointId() const
{
    return m_endpointId;
}

void
MessageTransport::AddPeer(uint32_t endpointId, Ipv4Address address)
{
    NS_LOG_FUNCTION(this << endpointId << address);
    m_peers[endpointId] = address;
}

void
MessageTransport::Listen(uint64_t channel, ReceiveCallback cb)
{
    NS_LOG_FUNCTION(this << channel);
    NS_ABORT_MSG_IF(channel == HELLO_CHANNEL,
                    "endpoint " << m_endpointId << ": channel " << channel << " is reserved");
    NS_ABORT_MSG_IF(cb.IsNull(),
                    "endpoint " << m_endpointId << ": null listener for channel " << channel);
    bool inserted = m_listeners.emplace(channel, cb).second;
    NS_ABORT_MSG_UNLESS(inserted,
                        "endpoint " << m_endpointId << ": channel " << channel
                                    << " already has a listener");
}

void
MessageTransport::Unlisten(uint64_t channel)
{
    NS_LOG_FUNCTION(this << channel);
    m_listeners.erase(channel);
}

void
MessageTransport::Send(uint32_t dst,
                       uint64_t channel,
                       uint64_t cookie,
                       uint64_t bytes,
                       Callback<void> onSent)
{
    NS_LOG_FUNCTION(this << dst << channel << cookie << bytes);
    NS_ABORT_MSG_IF(m_stopped,
                    "endpoint " << m_endpointId << " at " << Simulator::Now().As(Time::US)
                                << ": Send to endpoint " << dst << " after the transport stopped");
    NS_ABORT_MSG_IF(m_peers.find(dst) == m_peers.end(),
                    "endpoint " << m_endpointId << ": Send to endpoint " << dst
                                << ", whose address it was never given (AddPeer)");
    m_messageQueuedTrace(dst, channel, cookie, bytes);
    Connection& connection = m_connections[dst];
    connection.queue.push_back(OutgoingMessage{channel, cookie, bytes, bytes, false, onSent});
    if (!m_running)
    {
        return;
    }
    if (!connection.socket)
    {
        OpenConnection(dst, connection);
        return;
    }
    WritePending(dst, connection);
}

void
MessageTransport::DoDispose()
{
    NS_LOG_FUNCTION(this);
    // Sockets outlive this object inside the TCP stack; their callbacks point back here.
    for (auto& [dst, connection] : m_connections)
    {
        if (connection.socket)
        {
            connection.socket->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                                                  MakeNullCallback<void, Ptr<Socket>>());
            connection.socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
            connection.socket->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                                                 MakeNullCallback<void, Ptr<Socket>>());
        }
    }
    for (auto& stream : m_streams)
    {
        stream.socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        stream.socket->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                                         MakeNullCallback<void, Ptr<Socket>>());
    }
    if (m_listenSocket)
    {
        m_listenSocket->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                          MakeNullCallback<void, Ptr<Socket>, const Address&>());
    }
    m_connections.clear();
    m_streams.clear();
    // A listener may hold the last reference to an unfinished collective, whose disposal
    // calls Unlisten on this transport: empty the map before the callbacks die.
    auto listeners = std::move(m_listeners);
    m_listeners.clear();
    listeners.clear();
    m_listenSocket = nullptr;
    Application::DoDispose();
}

void
MessageTransport::StartApplication()
{
    NS_LOG_FUNCTION(this);
    m_listenSocket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    ConfigureSocket(m_listenSocket);
    int status = m_listenSocket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port));
    NS_ABORT_MSG_IF(status != 0,
                    "endpoint " << m_endpointId << ": cannot bind port " << m_port << " on node "
                                << GetNode()->GetId());
    m_listenSocket->Listen();
    m_listenSocket->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeCallback(&MessageTransport::HandleAccept, this));
    m_running = true;
    for (auto& [dst, connection] : m_connections)
    {
        if (!connection.queue.empty())
        {
            OpenConnection(dst, connection);
        }
    }
}

void
MessageTransport::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_running = false;
    m_stopped = true;
    for (auto& [dst, connection] : m_connections)
    {
        if (connection.socket)
        {
            connection.socket->Close();
        }
    }
    for (auto& stream : m_streams)
    {
        stream.socket->Close();
    }
    if (m_listenSocket)
    {
        m_listenSocket->Close();
    }
}

void
MessageTransport::ConfigureSocket(Ptr<Socket> socket) const
{
    socket->SetAttribute("SegmentSize", UintegerValue(m_segmentSize));
    socket->SetAttribute("SndBufSize", UintegerValue(m_sndBufSize));
    socket->SetAttribute("RcvBufSize", UintegerValue(m_rcvBufSize));
}

void
MessageTransport::OpenConnection(uint32_t dst, Connection& connection)
{
    NS_LOG_FUNCTION(this << dst);
    NS_ASSERT(!connection.socket);
    connection.socket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    ConfigureSocket(connection.socket);
    connection.socket->Bind();
    connection.socket->SetConnectCallback(
        MakeCallback(&MessageTransport::HandleConnected, this, dst),
        MakeCallback(&MessageTransport::HandleConnectFailed, this, dst));
    connection.socket->SetSendCallback(MakeCallback(&MessageTransport::HandleSendSpace, this, dst));
    connection.socket->SetCloseCallbacks(
        MakeCallback(&MessageTransport::HandleOutgoingClosed, this, dst),
        MakeCallback(&MessageTransport::HandleOutgoingClosed, this, dst));
    connection.socket->Connect(InetSocketAddress(m_peers.at(dst), m_port));
}

void
MessageTransport::HandleConnected(uint32_t dst, Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << dst << socket);
    Connection& connection = m_connections.at(dst);
    connection.connected = true;
    WritePending(dst, connection);
}

void
MessageTransport::HandleConnectFailed(uint32_t dst, Ptr<Socket> socket)
{
    NS_FATAL_ERROR("endpoint " << m_endpointId << " at " << Simulator::Now().As(Time::US)
                               << ": cannot connect to endpoint " << dst << " at "
                               << m_peers.at(dst) << ":" << m_port);
}

void
MessageTransport::HandleOutgoingClosed(uint32_t dst, Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << dst << socket);
    NS_ABORT_MSG_IF(m_running,
                    "endpoint " << m_endpointId << " at " << Simulator::Now().As(Time::US)
                                << ": connection to endpoint " << dst << " closed by the peer");
}

void
MessageTransport::HandleSendSpace(uint32_t dst, Ptr<Socket> socket, uint32_t available)
{
    auto it = m_connections.find(dst);
    if (it != m_connections.end() && it->second.connected)
    {
        WritePending(dst, it->second);
    }
}

void
MessageTransport::WritePending(uint32_t dst, Connection& connection)
{
    // A sent callback may queue more messages (possibly to this peer): the loop below picks
    // them up, so a nested call has nothing to do.
    if (!connection.connected || connection.writing || !m_running)
    {
        return;
    }
    connection.writing = true;
    Ptr<Socket> socket = connection.socket;
    const uint32_t headerSize = MessageHeader::SERIALIZED_SIZE;
    if (!connection.helloWritten)
    {
        if (socket->GetTxAvailable() < headerSize)
        {
            connection.writing = false;
            return;
        }
        Ptr<Packet> hello = Create<Packet>();
        hello->AddHeader(MessageHeader(HELLO_CHANNEL, m_endpointId, 0));
        NS_ABORT_MSG_IF(socket->Send(hello) != static_cast<int>(headerSize),
                        "endpoint " << m_endpointId << ": TCP socket to endpoint " << dst
                                    << " refused the hello frame (errno " << socket->GetErrno()
                                    << ")");
        connection.helloWritten = true;
    }
    while (!connection.queue.empty())
    {
        OutgoingMessage& message = connection.queue.front();
        uint32_t room = socket->GetTxAvailable();
        Ptr<Packet> packet;
        if (!message.headerWritten)
        {
            // Headers go in whole so that the header and the first payload bytes are one write.
            if (room < headerSize)
            {
                break;
            }
            uint32_t chunk =
                static_cast<uint32_t>(std::min<uint64_t>(room - headerSize, message.payloadLeft));
            packet = Create<Packet>(chunk);
            packet->AddHeader(MessageHeader(message.channel, message.cookie, message.bytes));
            message.payloadLeft -= chunk;
            message.headerWritten = true;
            NS_LOG_LOGIC("endpoint " << m_endpointId << " offers message to " << dst << " channel "
                                     << message.channel << " cookie " << message.cookie << " bytes "
                                     << message.bytes);
            m_messageSentTrace(dst, message.channel, message.cookie, message.bytes);
        }
        else
        {
            if (room == 0)
            {
                break;
            }
            uint32_t chunk = static_cast<uint32_t>(std::min<uint64_t>(room, message.payloadLeft));
            packet = Create<Packet>(chunk);
            message.payloadLeft -= chunk;
        }
        int accepted = socket->Send(packet);
        NS_ABORT_MSG_IF(accepted != static_cast<int>(packet->GetSize()),
                        "endpoint " << m_endpointId << " at " << Simulator::Now().As(Time::US)
                                    << ": TCP socket to endpoint " << dst << " refused "
                                    << packet->GetSize() << " bytes with " << room
                                    << " free (errno " << socket->GetErrno() << ")");
        if (message.payloadLeft == 0)
        {
            Callback<void> onSent = message.onSent;
            connection.queue.pop_front();
            if (!onSent.IsNull())
            {
                onSent();
            }
        }
    }
    connection.writing = false;
}

void
MessageTransport::HandleAccept(Ptr<Socket> socket, const Address& from)
{
    NS_LOG_FUNCTION(this << socket << from);
    uint32_t index = m_streams.size();
    m_streams.emplace_back();
    m_streams.back().socket = socket;
    socket->SetRecvCallback(MakeCallback(&MessageTransport::HandleRead, this, index));
    socket->SetCloseCallbacks(MakeCallback(&MessageTransport::HandleIncomingClosed, this, index),
                              MakeCallback(&MessageTransport::HandleIncomingClosed, this, index));
    if (socket->GetRxAvailable() > 0)
    {
        HandleRead(index, socket);
    }
}

void
MessageTransport::HandleIncomingClosed(uint32_t stream, Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << stream << socket);
    const IncomingStream& s = m_streams[stream];
    NS_ABORT_MSG_IF(m_running && (s.inPayload || s.headerFilled > 0),
                    "endpoint " << m_endpointId << " at " << Simulator::Now().As(Time::US)
                                << ": connection from endpoint " << s.source
                                << " closed in the middle of a message on channel " << s.channel);
}

void
MessageTransport::HandleRead(uint32_t stream, Ptr<Socket> socket)
{
    Ptr<Packet> packet;
    // An empty packet signals end of stream.
    while ((packet = socket->Recv()) && packet->GetSize() > 0)
    {
        Consume(stream, packet);
    }
}

void
MessageTransport::Consume(uint32_t stream, Ptr<Packet> packet)
{
    const uint32_t headerSize = MessageHeader::SERIALIZED_SIZE;
    // Deliver() runs listeners, which may accept nothing synchronously but are free to send;
    // m_streams is a deque, so this reference stays valid either way.
    IncomingStream& s = m_streams[stream];
    while (packet->GetSize() > 0 || s.inPayload)
    {
        if (!s.inPayload)
        {
            // A header may straddle segments, so its bytes are gathered before decoding.
            uint32_t take = std::min(headerSize - s.headerFilled, packet->GetSize());
            packet->CopyData(s.headerBytes + s.headerFilled, take);
            packet->RemoveAtStart(take);
            s.headerFilled += take;
            if (s.headerFilled < headerSize)
            {
                return;
            }
            s.headerFilled = 0;
            Buffer buffer;
            buffer.AddAtStart(headerSize);
            buffer.Begin().Write(s.headerBytes, headerSize);
            MessageHeader header;
            header.Deserialize(buffer.Begin());
            if (header.GetChannel() == HELLO_CHANNEL)
            {
                NS_ABORT_MSG_IF(s.identified,
                                "endpoint " << m_endpointId << ": second hello on a connection");
                s.identified = true;
                s.source = static_cast<uint32_t>(header.GetCookie());
                NS_LOG_LOGIC("endpoint " << m_endpointId << " accepted connection from endpoint "
                                         << s.source);
                continue;
            }
            NS_ABORT_MSG_UNLESS(s.identified,
                                "endpoint " << m_endpointId
                                            << ": message before hello on a connection");
            s.inPayload = true;
            s.channel = header.GetChannel();
            s.cookie = header.GetCookie();
            s.size = header.GetPayloadSize();
            s.payloadLeft = s.size;
        }
        uint32_t take = static_cast<uint32_t>(std::min<uint64_t>(s.payloadLeft, packet->GetSize()));
        if (take > 0)
        {
            packet->RemoveAtStart(take);
            s.payloadLeft -= take;
        }
        if (s.payloadLeft > 0)
        {
            return;
        }
        s.inPayload = false;
        Deliver(s.source, s.channel, s.cookie, s.size);
    }
}

void
MessageTransport::Deliver(uint32_t source, uint64_t channel, uint64_t cookie, uint64_t bytes)
{
    NS_LOG_LOGIC("endpoint " << m_endpointId << " delivers message from " << source << " channel "
                             << channel << " cookie " << cookie << " bytes " << bytes);
    auto it = m_listeners.find(channel);
    if (it == m_listeners.end())
    {
        NS_FATAL_ERROR("endpoint " << m_endpointId << " at " << Simulator::Now().As(Time::US)
                                   << ": message from endpoint " << source << " on channel "
                                   << channel << " (cookie " << cookie << ", " << bytes
                                   << " bytes), which has no listener");
    }
    // The listener may Unlisten its own channel, which destroys the stored callback.
    ReceiveCallback listener = it->second;
    m_messageDeliveredTrace(source, channel, cookie, bytes);
    listener(source, cookie, bytes);
}

} // namespace ns3
