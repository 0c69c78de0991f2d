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

std::string
Percent(double fraction)
{
    std::ostringstream text;
    text << fraction * 100 << "%";
    return text.str();
}

} // namespace tests
} // namespace ns3
