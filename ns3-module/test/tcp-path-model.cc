/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-path-model.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace ns3
{
namespace tests
{

double
Wire(DataRate rate, double bytes)
{
    return bytes * 8 / rate.GetBitRate();
}

double
Handshake(DataRate rate, Time delay, uint32_t hops)
{
    // SYN out and SYN-ACK back, each crossing every link.
    return 2 * hops * (Wire(rate, SYN_FRAME) + delay.GetSeconds()) + Wire(rate, ACK_FRAME);
}

double
StreamArrival(DataRate rate, Time delay, uint64_t streamBytes, uint32_t mss, uint32_t hops)
{
    std::vector<double> linkFree(hops, 0.0);
    double arrival = 0;
    for (uint64_t sent = 0; sent < streamBytes; sent += mss)
    {
        const double frame =
            Wire(rate, std::min<uint64_t>(mss, streamBytes - sent) + FRAME_OVERHEAD);
        arrival = 0; // every segment is ready at the start
        for (uint32_t hop = 0; hop < hops; ++hop)
        {
            linkFree[hop] = std::max(arrival, linkFree[hop]) + frame;
            arrival = linkFree[hop] + delay.GetSeconds();
        }
    }
    return arrival;
}

/// Seconds from a frame's first bit until its last has been received, carrying ip bytes.
double
Arrive(DataRate rate, const Framing& f, uint32_t ip)
{
    return Wire(rate, std::max(f.header + ip, f.minFrame) + f.wireOnly);
}

/// Seconds the transmitter is busy with a frame carrying ip bytes, gap included.
double
Busy(DataRate rate, const Framing& f, uint32_t ip)
{
    return Arrive(rate, f, ip) + Wire(rate, f.gap);
}

/// Handshake of tcp-path-model.h with any framing: SYN and SYN-ACK across every hop, then the
/// final ACK ahead of the first data segment on the sender's link.
double
FramedHandshake(DataRate rate, Time delay, uint32_t hops, const Framing& f)
{
    const uint32_t syn = TCP_SYN_HEADER + IPV4_HEADER;
    const uint32_t ack = TCP_DATA_HEADER + IPV4_HEADER;
    return 2 * hops * (Arrive(rate, f, syn) + delay.GetSeconds()) + Busy(rate, f, ack);
}

/// StreamArrival of tcp-path-model.h with any framing: segments back to back, each link
/// forwarding a frame once it has all of it and its transmitter is free.
double
FramedStreamArrival(DataRate rate,
                    Time delay,
                    uint64_t streamBytes,
                    uint32_t mss,
                    uint32_t hops,
                    const Framing& f)
{
    std::vector<double> linkFree(hops, 0.0);
    double arrival = 0;
    for (uint64_t sent = 0; sent < streamBytes; sent += mss)
    {
        const uint32_t ip = std::min<uint64_t>(mss, streamBytes - sent) + TCP_DATA_HEADER +
                            IPV4_HEADER;
        arrival = 0;
        for (uint32_t hop = 0; hop < hops; ++hop)
        {
            const double start = std::max(arrival, linkFree[hop]);
            linkFree[hop] = start + Busy(rate, f, ip);
            arrival = start + Arrive(rate, f, ip) + delay.GetSeconds();
        }
    }
    return arrival;
}

std::string
Percent(double fraction)
{
    std::ostringstream text;
    text << fraction * 100 << "%";
    return text.str();
}

} // namespace tests
} // namespace ns3
