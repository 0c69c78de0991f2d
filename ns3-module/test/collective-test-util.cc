/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-test-util.h"

#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{
namespace tests
{

const DataRate LINK_RATE("1Gbps");
const Time LINK_DELAY = MicroSeconds(10);

double
StreamTime(uint64_t streamBytes, double* lastFrame)
{
    const uint64_t segments = std::max<uint64_t>(1, (streamBytes + MSS - 1) / MSS);
    const uint64_t lastSegment = streamBytes - (segments - 1) * MSS;
    *lastFrame = Wire(LINK_RATE, lastSegment + DATA_FRAME - MSS);
    const double ackShare = 1 + static_cast<double>(ACK_FRAME) / SEGMENTS_PER_ACK / DATA_FRAME;
    return ((segments - 1) * Wire(LINK_RATE, DATA_FRAME) + *lastFrame) * ackShare;
}

void
InstallStar(StarNetworkHelper& star, uint32_t n)
{
    star.SetDeviceAttribute("DataRate", DataRateValue(LINK_RATE));
    star.SetChannelAttribute("Delay", TimeValue(LINK_DELAY));
    star.SetTransportAttribute("SegmentSize", UintegerValue(MSS));
    star.Install(n);
}

std::vector<Time>
RunCollective(Ptr<Collective> collective, const std::vector<Time>& enterAt)
{
    for (uint32_t i = 0; i < enterAt.size(); ++i)
    {
        Simulator::Schedule(enterAt[i], &Collective::Enter, collective, i);
    }
    Simulator::Run();
    std::vector<Time> completions;
    for (uint32_t i = 0; i < enterAt.size(); ++i)
    {
        completions.push_back(collective->IsComplete(i) ? collective->GetCompletionTime(i)
                                                        : Seconds(-1));
    }
    return completions;
}

} // namespace tests
} // namespace ns3
