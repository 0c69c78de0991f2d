/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MESSAGE_HEADER_H
#define MESSAGE_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Frames one message in a MessageTransport byte stream.
 *
 * Every message on a transport connection starts with this 24-byte header, followed by as many
 * payload bytes as it announces. A stream is only decodable from its start: the header carries
 * no marker, and the receiver finds the next header by counting payload bytes.
 *
 * Wire format, all fields in network byte order:
 * \verbatim
   0        8        16       24
   +--------+--------+--------+
   | channel| cookie |  size  |
   +--------+--------+--------+
   \endverbatim
 */
class MessageHeader : public Header
{
  public:
    /// Bytes this header occupies on the wire.
    static constexpr uint32_t SERIALIZED_SIZE = 24;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MessageHeader();

    /**
     * \param channel the receiving transport delivers the message to this channel's listener
     * \param cookie opaque to the transport, handed to the listener unchanged
     * \param payloadSize number of payload bytes that follow the header
     */
    MessageHeader(uint64_t channel, uint64_t cookie, uint64_t payloadSize);

    /// \param channel the channel the message is delivered on
    void SetChannel(uint64_t channel);
    /// \return the channel the message is delivered on
    uint64_t GetChannel() const;
    /// \param cookie a value the sender attaches to the message
    void SetCookie(uint64_t cookie);
    /// \return the value the sender attached to the message
    uint64_t GetCookie() const;
    /// \param payloadSize number of payload bytes that follow the header
    void SetPayloadSize(uint64_t payloadSize);
    /// \return number of payload bytes that follow the header
    uint64_t GetPayloadSize() const;

    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

  private:
    uint64_t m_channel;     //!< Channel the message is delivered on
    uint64_t m_cookie;      //!< Opaque value for the receiver
    uint64_t m_payloadSize; //!< Payload bytes following the header
};

} // namespace ns3

#endif /* MESSAGE_HEADER_H */
