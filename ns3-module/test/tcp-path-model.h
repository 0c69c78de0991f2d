/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_PATH_MODEL_H
#define TCP_PATH_MODEL_H

// What the wire costs a message that ns-3's TCP carries over point-to-point links: the bytes of
// every frame and the time frames and a connection's set-up take. The tests compute their
// expected times from these and from the link parameters, never from the code under test.

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{
namespace tests
{

/**
 * \ingroup uniference-tests
 * TCP header of a data segment or a pure ACK: 20 bytes, and the timestamp option ns-3 sends by
 * default (10 bytes, padded to 12).
 */
constexpr uint32_t TCP_DATA_HEADER = 20 + 12;

/**
 * \ingroup uniference-tests
 * TCP header of a SYN or SYN-ACK: window scale (3) and SACK permitted (2) join the timestamp,
 * 16 bytes of options once padded.
 */
constexpr uint32_t TCP_SYN_HEADER = 20 + 16;

/// \ingroup uniference-tests
/// IPv4 header, without options.
constexpr uint32_t IPV4_HEADER = 20;

/// \ingroup uniference-tests
/// PPP header, which PointToPointNetDevice puts on every frame.
constexpr uint32_t PPP_HEADER = 2;

/// \ingroup uniference-tests
/// Bytes a link carries around a data segment's payload.
constexpr uint32_t FRAME_OVERHEAD = TCP_DATA_HEADER + IPV4_HEADER + PPP_HEADER;

/// \ingroup uniference-tests
/// A pure ACK: the data segment's headers without payload.
constexpr uint32_t ACK_FRAME = FRAME_OVERHEAD;

/// \ingroup uniference-tests
/// A SYN or SYN-ACK frame.
constexpr uint32_t SYN_FRAME = TCP_SYN_HEADER + IPV4_HEADER + PPP_HEADER;

/// \ingroup uniference-tests
/// ns-3's receivers acknowledge every second segment (TcpSocket's DelAckCount).
constexpr uint32_t SEGMENTS_PER_ACK = 2;

/**
 * \ingroup uniference-tests
 * A MessageHeader on the stream (channel, cookie, payload size: 8 bytes each). Written out
 * rather than asked of MessageHeader, so that the expected times do not rest on the code under
 * test; uniference-message-transport checks the size.
 */
constexpr uint32_t MESSAGE_HEADER = 24;

/**
 * \ingroup uniference-tests
 * \param mss the TCP segment size
 * \return the size of a frame carrying a full segment
 */
constexpr uint32_t
DataFrame(uint32_t mss)
{
    return mss + FRAME_OVERHEAD;
}

/**
 * \ingroup uniference-tests
 * \param rate a link's data rate
 * \param bytes a frame's size
 * \return the frame's serialization time on the link, in seconds
 */
double Wire(DataRate rate, double bytes);

/**
 * \ingroup uniference-tests
 * Time to open a TCP connection across hops links in a row, until its first data segment can
 * leave: the SYN and the SYN-ACK cross every link, each stored and forwarded whole, and the
 * handshake's final ACK goes out on the sender's link just ahead of the data.
 * \param rate every link's data rate
 * \param delay every link's propagation delay
 * \param hops links between the two endpoints: 1 for a direct link, 2 across a star's hub
 * \return seconds
 */
double Handshake(DataRate rate, Time delay, uint32_t hops);

/**
 * \ingroup uniference-tests
 * Time a stream takes across hops links in a row once its first segment starts on the sender's
 * link: the segments leave back to back, and every link forwards a frame once it has all of it
 * and the frame ahead of it has left, so a short last frame waits at the next hop behind the
 * full one before it. No other traffic shares the links.
 * \param rate every link's data rate
 * \param delay every link's propagation delay
 * \param streamBytes bytes of the stream (payloads of its segments)
 * \param mss the TCP segment size
 * \param hops links between the two endpoints
 * \return seconds until the last frame has arrived
 */
double StreamArrival(DataRate rate, Time delay, uint64_t streamBytes, uint32_t mss, uint32_t hops);

/**
 * \ingroup uniference-tests
 * What a link carries around an IP packet, and when: bytes that arrive with it (header,
 * trailer, preamble) and the idle gap after it before the next frame may start.
 */
struct Framing
{
    uint32_t header;   //!< Bytes of link header, in the frame
    uint32_t wireOnly; //!< Bytes on the wire but not in the frame, before it ends (FCS, preamble)
    uint32_t minFrame; //!< Frames shorter than this (header included) are padded to it
    uint32_t gap;      //!< Idle bytes after a frame
};

/// ns-3's point-to-point link: a 2-byte PPP header and nothing else.
constexpr Framing PPP{PPP_HEADER, 0, 0, 0};
/// Ethernet II: 14-byte header; 4-byte FCS and 8 bytes of preamble and delimiter; frames
/// padded to 60 bytes before the FCS; 12 bytes of inter-frame gap.
constexpr Framing ETHERNET{14, 4 + 8, 60, 12};

/// \ingroup uniference-tests
/// \return seconds from a frame's first bit until its last has been received, carrying ip bytes
double Arrive(DataRate rate, const Framing& f, uint32_t ip);

/// \ingroup uniference-tests
/// \return seconds the transmitter is busy with a frame carrying ip bytes, gap included
double Busy(DataRate rate, const Framing& f, uint32_t ip);

/// \ingroup uniference-tests
/// Handshake with any framing: SYN and SYN-ACK across every hop, then the final ACK ahead of
/// the first data segment on the sender's link. \return seconds
double FramedHandshake(DataRate rate, Time delay, uint32_t hops, const Framing& f);

/// \ingroup uniference-tests
/// StreamArrival with any framing: segments back to back, each link forwarding a frame once it
/// has all of it and its transmitter is free. \return seconds
double FramedStreamArrival(DataRate rate,
                           Time delay,
                           uint64_t streamBytes,
                           uint32_t mss,
                           uint32_t hops,
                           const Framing& f);

/**
 * \ingroup uniference-tests
 * \param fraction a relative tolerance, for example 0.005
 * \return it as a percentage for a test's name, for example "0.5%"
 */
std::string Percent(double fraction);

} // namespace tests
} // namespace ns3

#endif // TCP_PATH_MODEL_H
