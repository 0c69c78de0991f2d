/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_PACKET_H
#define IB_PACKET_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief One packet on the InfiniBand-like fabric, as a plain value.
 *
 * The fabric never looks inside a payload and never serialises a header, so a packet is a
 * small struct copied from port to port: no ns3::Packet, no buffer, no per-hop allocation
 * beyond the event that carries it. Header sizes still count on the wire (IbNetDevice's
 * HeaderBytes); wireBytes is what a link serialises and what a receive buffer holds.
 *
 * Addresses are endpoint ids, which double as the fabric's local identifiers (LIDs): the
 * forwarding tables the topology helper fills are indexed by them.
 */
struct IbPacket
{
    /// What the packet carries.
    enum Kind : uint8_t
    {
        DATA, //!< a segment of a message (an RDMA write)
        ACK,  //!< the receiver completed a message (acknowledges all of it)
        CNP,  //!< congestion notification: the receiver saw FECN/ECN marks (BECN)
    };

    Kind kind{DATA};
    uint8_t vl{0};        //!< virtual lane
    bool marked{false};   //!< FECN (IB) / ECN CE (RoCE): a switch found its queue congested
    uint8_t attempt{0};   //!< DATA: its queue pair's retransmission round (wraps; 0 if lossless)
    uint32_t src{0};      //!< source endpoint id (LID)
    uint32_t dst{0};      //!< destination endpoint id (LID)
    uint32_t flowHash{0}; //!< fixed per queue pair; what ECMP hashes
    uint32_t payload{0};  //!< payload bytes
    uint32_t wireBytes{0}; //!< bytes on the wire, headers included
    uint64_t msn{0};      //!< message sequence number on its queue pair
    uint64_t offset{0};   //!< first payload byte's offset in its message
    uint64_t length{0};   //!< the message's length in bytes (RETH's DMA length)
    uint64_t channel{0};  //!< the message's channel at the receiver
    uint64_t cookie{0};   //!< the sender's cookie
    int64_t lastBitPs{0}; //!< when its last bit reaches the current hop, in picoseconds
};

} // namespace ns3

#endif /* IB_PACKET_H */
