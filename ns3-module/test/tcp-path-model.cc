/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-path-model.h"

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

} // namespace tests
} // namespace ns3
