/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-message-transport.h"

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

NS_LOG_COMPONENT_DEFINE("TcpMessageTransport");

NS_OBJECT_ENSURE_REGISTERED(TcpMessageTransport);

TypeId
TcpMessageTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TcpMessageTransport")
            .SetParent<MessageTransport>()
            .SetGroupName("Uniference")
            .AddConstructor<TcpMessageTransport>()
            .AddAttribute("Port",
                          "TCP port this transport listens on; its peers listen on the same one.",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&TcpMessageTransport::m_port),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("SegmentSize",
                          "TCP maximum segment size (bytes) of every socket the transport opens.",
                          UintegerValue(1448),
                          MakeUintegerAccessor(&TcpMessageTransport::m_segmentSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("SndBufSize",
                          "TCP send buffer size (bytes) of every socket the transport opens.",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&TcpMessageTransport::m_sndBufSize),
                          MakeUintegerChecker<uint32_t>(MessageHeader::SERIALIZED_SIZE))
            .AddAttribute("RcvBufSize",
                          "TCP receive buffer size (bytes) of every socket the transport opens.",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&TcpMessageTransport::m_rcvBufSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("ConnectionLost",
                            "A connection failed because TCP gave up retransmitting; the peer's "
                            "endpoint id. Messages in it and queued behind it are lost.",
                            MakeTraceSourceAccessor(&TcpMessageTransport::m_connectionLostTrace),
                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

TcpMessageTransport::TcpMessageTransport()
    : m_port(9000),
      m_segmentSize(1448),
      m_sndBufSize(131072),
      m_rcvBufSize(131072),
      m_running(false),
      m_stopped(false)
{
    NS_LOG_FUNCTION(this);
}

TcpMessageTransport::~TcpMessageTransport()
{
    NS_LOG_FUNCTION(this);
}

void
TcpMessageTransport::AddPeer(uint32_t endpointId, Ipv4Address address)
{
    NS_LOG_FUNCTION(this << endpointId << address);
    m_peers[endpointId] = address;
}

void
TcpMessageTransport::DoSend(uint32_t dst,
                            uint64_t channel,
                            uint64_t cookie,
                            uint64_t bytes,
                            Callback<void> onSent)
{
    NS_ABORT_MSG_IF(m_stopped,
                    "endpoint " << GetEndpointId() << " at " << Simulator::Now().As(Time::US)
                                << ": Send to endpoint " << dst << " after the transport stopped");
    NS_ABORT_MSG_IF(m_peers.find(dst) == m_peers.end(),
                    "endpoint " << GetEndpointId() << ": Send to endpoint " << dst
                                << ", whose address it was never given (AddPeer)");
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
TcpMessageTransport::DoDispose()
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
    m_listenSocket = nullptr;
    MessageTransport::DoDispose();
}

void
TcpMessageTransport::StartApplication()
{
    NS_LOG_FUNCTION(this);
    m_listenSocket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    ConfigureSocket(m_listenSocket);
    int status = m_listenSocket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port));
    NS_ABORT_MSG_IF(status != 0,
                    "endpoint " << GetEndpointId() << ": cannot bind port " << m_port << " on node "
                                << GetNode()->GetId());
    m_listenSocket->Listen();
    m_listenSocket->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeCallback(&TcpMessageTransport::HandleAccept, this));
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
TcpMessageTransport::StopApplication()
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
TcpMessageTransport::ConfigureSocket(Ptr<Socket> socket) const
{
    socket->SetAttribute("SegmentSize", UintegerValue(m_segmentSize));
    socket->SetAttribute("SndBufSize", UintegerValue(m_sndBufSize));
    socket->SetAttribute("RcvBufSize", UintegerValue(m_rcvBufSize));
}

void
TcpMessageTransport::OpenConnection(uint32_t dst, Connection& connection)
{
    NS_LOG_FUNCTION(this << dst);
    NS_ASSERT(!connection.socket);
    connection.socket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    ConfigureSocket(connection.socket);
    connection.socket->Bind();
    connection.socket->SetConnectCallback(
        MakeCallback(&TcpMessageTransport::HandleConnected, this, dst),
        MakeCallback(&TcpMessageTransport::HandleConnectFailed, this, dst));
    connection.socket->SetSendCallback(
        MakeCallback(&TcpMessageTransport::HandleSendSpace, this, dst));
    connection.socket->SetCloseCallbacks(
        MakeCallback(&TcpMessageTransport::HandleOutgoingClosed, this, dst),
        MakeCallback(&TcpMessageTransport::HandleOutgoingFailed, this, dst));
    connection.socket->Connect(InetSocketAddress(m_peers.at(dst), m_port));
}

void
TcpMessageTransport::HandleConnected(uint32_t dst, Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << dst << socket);
    Connection& connection = m_connections.at(dst);
    connection.connected = true;
    WritePending(dst, connection);
}

void
TcpMessageTransport::HandleConnectFailed(uint32_t dst, Ptr<Socket> socket)
{
    NS_FATAL_ERROR("endpoint " << GetEndpointId() << " at " << Simulator::Now().As(Time::US)
                               << ": cannot connect to endpoint " << dst << " at "
                               << m_peers.at(dst) << ":" << m_port);
}

void
TcpMessageTransport::HandleOutgoingClosed(uint32_t dst, Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << dst << socket);
    NS_ABORT_MSG_IF(m_running,
                    "endpoint " << GetEndpointId() << " at " << Simulator::Now().As(Time::US)
                                << ": connection to endpoint " << dst << " closed by the peer");
}

void
TcpMessageTransport::HandleOutgoingFailed(uint32_t dst, Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << dst << socket);
    NS_LOG_WARN("endpoint " << GetEndpointId() << ": connection to endpoint " << dst
                            << " failed; what was queued to it is lost");
    m_connections.at(dst).connected = false;
    m_connectionLostTrace(dst);
}

void
TcpMessageTransport::HandleSendSpace(uint32_t dst, Ptr<Socket> socket, uint32_t available)
{
    auto it = m_connections.find(dst);
    if (it != m_connections.end() && it->second.connected)
    {
        WritePending(dst, it->second);
    }
}

void
TcpMessageTransport::WritePending(uint32_t dst, Connection& connection)
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
        hello->AddHeader(MessageHeader(HELLO_CHANNEL, GetEndpointId(), 0));
        NS_ABORT_MSG_IF(socket->Send(hello) != static_cast<int>(headerSize),
                        "endpoint " << GetEndpointId() << ": TCP socket to endpoint " << dst
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
            NotifyMessageSent(dst, message.channel, message.cookie, message.bytes);
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
                        "endpoint " << GetEndpointId() << " at " << Simulator::Now().As(Time::US)
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
TcpMessageTransport::HandleAccept(Ptr<Socket> socket, const Address& from)
{
    NS_LOG_FUNCTION(this << socket << from);
    uint32_t index = m_streams.size();
    m_streams.emplace_back();
    m_streams.back().socket = socket;
    socket->SetRecvCallback(MakeCallback(&TcpMessageTransport::HandleRead, this, index));
    socket->SetCloseCallbacks(
        MakeCallback(&TcpMessageTransport::HandleIncomingClosed, this, index),
        MakeCallback(&TcpMessageTransport::HandleIncomingFailed, this, index));
    if (socket->GetRxAvailable() > 0)
    {
        HandleRead(index, socket);
    }
}

void
TcpMessageTransport::HandleIncomingFailed(uint32_t stream, Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << stream << socket);
    NS_LOG_WARN("endpoint " << GetEndpointId() << ": connection from endpoint "
                            << m_streams[stream].source << " failed");
}

void
TcpMessageTransport::HandleIncomingClosed(uint32_t stream, Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << stream << socket);
    const IncomingStream& s = m_streams[stream];
    NS_ABORT_MSG_IF(m_running && (s.inPayload || s.headerFilled > 0),
                    "endpoint " << GetEndpointId() << " at " << Simulator::Now().As(Time::US)
                                << ": connection from endpoint " << s.source
                                << " closed in the middle of a message on channel " << s.channel);
}

void
TcpMessageTransport::HandleRead(uint32_t stream, Ptr<Socket> socket)
{
    Ptr<Packet> packet;
    // An empty packet signals end of stream.
    while ((packet = socket->Recv()) && packet->GetSize() > 0)
    {
        Consume(stream, packet);
    }
}

void
TcpMessageTransport::Consume(uint32_t stream, Ptr<Packet> packet)
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
                                "endpoint " << GetEndpointId() << ": second hello on a connection");
                s.identified = true;
                s.source = static_cast<uint32_t>(header.GetCookie());
                NS_LOG_LOGIC("endpoint " << GetEndpointId() << " accepted connection from endpoint "
                                         << s.source);
                continue;
            }
            NS_ABORT_MSG_UNLESS(s.identified,
                                "endpoint " << GetEndpointId()
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

} // namespace ns3
