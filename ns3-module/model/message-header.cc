/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "message-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MessageHeader");

NS_OBJECT_ENSURE_REGISTERED(MessageHeader);

TypeId
MessageHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MessageHeader")
                            .SetParent<Header>()
                            .SetGroupName("Uniference")
                            .AddConstructor<MessageHeader>();
    return tid;
}

MessageHeader::MessageHeader()
    : m_channel(0),
      m_cookie(0),
      m_payloadSize(0)
{
}

MessageHeader::MessageHeader(uint64_t channel, uint64_t cookie, uint64_t payloadSize)
    : m_channel(channel),
      m_cookie(cookie),
      m_payloadSize(payloadSize)
{
}

void
MessageHeader::SetChannel(uint64_t channel)
{
    m_channel = channel;
}

uint64_t
MessageHeader::GetChannel() const
{
    return m_channel;
}

void
MessageHeader::SetCookie(uint64_t cookie)
{
    m_cookie = cookie;
}

uint64_t
MessageHeader::GetCookie() const
{
    return m_cookie;
}

void
MessageHeader::SetPayloadSize(uint64_t payloadSize)
{
    m_payloadSize = payloadSize;
}

uint64_t
MessageHeader::GetPayloadSize() const
{
    return m_payloadSize;
}

TypeId
MessageHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
MessageHeader::GetSerializedSize() const
{
    return SERIALIZED_SIZE;
}

void
MessageHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU64(m_channel);
    start.WriteHtonU64(m_cookie);
    start.WriteHtonU64(m_payloadSize);
}

uint32_t
MessageHeader::Deserialize(Buffer::Iterator start)
{
    m_channel = start.ReadNtohU64();
    m_cookie = start.ReadNtohU64();
    m_payloadSize = start.ReadNtohU64();
    return SERIALIZED_SIZE;
}

void
MessageHeader::Print(std::ostream& os) const
{
    os << "channel=" << m_channel << " cookie=" << m_cookie << " payload=" << m_payloadSize;
}

} // namespace ns3
