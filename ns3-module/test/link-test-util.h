/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A bare link between two nodes for the link-model tests: packets go straight onto the
// devices (no IP), and the receiver records when each arrives.
#ifndef UNIFERENCE_LINK_TEST_UTIL_H
#define UNIFERENCE_LINK_TEST_UTIL_H

#include "ns3/net-device-container.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"

#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{
namespace tests
{

/// PPP's header, which PointToPointNetDevice puts on every packet.
constexpr uint32_t PPP_HEADER = 2;

/// Sends packets from device 0 of a link to device 1 and records their send and arrival times.
class LinkProbe
{
  public:
    /// \param devices the link's two devices, sender first
    explicit LinkProbe(NetDeviceContainer devices);

    /**
     * \brief Schedule one packet of `size` bytes (before PPP) to be sent at `at`.
     * \param at the send time
     * \param size bytes
     */
    void SendAt(Time at, uint32_t size);

    /// A packet's life.
    struct Record
    {
        Time sent;                 //!< handed to the device
        Time arrived = Time::Max(); //!< Time::Max() if it never did
    };

    /// \return every packet scheduled, in the order sent
    std::vector<Record> Records() const;

  private:
    void Send(uint32_t size);
    void Arrive(Ptr<const Packet> packet);

    NetDeviceContainer m_devices;
    std::map<uint64_t, Record> m_byUid; //!< by packet uid, which copies keep
};

} // namespace tests
} // namespace ns3

#endif
