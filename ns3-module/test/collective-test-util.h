/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_TEST_UTIL_H
#define COLLECTIVE_TEST_UTIL_H

// The star every collective test runs on, and running a collective there: one set of link
// parameters, so that the ring, broadcast and barrier models all start from the same physics.

#include "tcp-path-model.h"

#include "ns3/collective.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/star-network-helper.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace tests
{

/// \ingroup uniference-tests
/// Data rate of every link of the collective tests' stars.
extern const DataRate LINK_RATE;

/// \ingroup uniference-tests
/// Propagation delay of every link of the collective tests' stars.
extern const Time LINK_DELAY;

/// \ingroup uniference-tests
/// The transports' TCP segment size there: PPP's 1500-byte MTU less IPv4 and TCP headers.
constexpr uint32_t MSS = 1500 - IPV4_HEADER - TCP_DATA_HEADER;

/// \ingroup uniference-tests
/// A frame carrying a full segment there.
constexpr uint32_t DATA_FRAME = DataFrame(MSS);

/**
 * \ingroup uniference-tests
 * Time a sender's link in those stars is busy with a stretch of a TCP stream: full segments and
 * a last, shorter one, each in its own frame, and the acknowledgements of the flow the sender
 * receives, which share the link (one per SEGMENTS_PER_ACK segments).
 * \param streamBytes bytes of the stream
 * \param [out] lastFrame the serialization time of the last frame
 * \return seconds
 */
double StreamTime(uint64_t streamBytes, double* lastFrame);

/**
 * \ingroup uniference-tests
 * Configure a star with LINK_RATE, LINK_DELAY and MSS, and install n endpoints.
 * \param star the helper
 * \param n number of endpoints
 */
void InstallStar(StarNetworkHelper& star, uint32_t n);

/**
 * \ingroup uniference-tests
 * Run a collective, already set up over a star's transports, until the simulation ends. The
 * simulator is left for the caller to destroy, so that it can still ask the collective.
 * \param collective the collective
 * \param enterAt when each participant enters
 * \return each participant's completion time, -1 s for those that did not complete
 */
std::vector<Time> RunCollective(Ptr<Collective> collective, const std::vector<Time>& enterAt);

} // namespace tests
} // namespace ns3

#endif // COLLECTIVE_TEST_UTIL_H
