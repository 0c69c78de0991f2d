/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef VARYING_LINK_CHANNEL_H
#define VARYING_LINK_CHANNEL_H

#include "link-condition.h"

#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/traced-callback.h"

#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief A point-to-point channel whose delay, rate and availability change with time: a
 * satellite path, a sub-THz beam, a replayed measurement.
 *
 * Every packet is asked about at the moment its first bit is sent. Its propagation delay is
 * the sum of the conditions' delays at that moment. The sending device's rate is set just
 * before the device times the packet: its own rate (set per device, so the two directions
 * may differ), passed through every condition's GetRate in turn.
 *
 * While a condition has the link out, a packet sent is lost (OutageMode Drop: the OutageDrop
 * trace fires) or held at the sending end until the outage ends and then sent, after the
 * packets held before it (OutageMode Hold, as a modem that buffers through a handover).
 *
 * Connect() must be called once both devices are attached; VaryingLinkHelper does.
 */
class VaryingLinkChannel : public PointToPointChannel
{
  public:
    /// What happens to a packet sent while the link is out.
    enum OutageMode
    {
        DROP, //!< lost
        HOLD, //!< delivered once the outage ends
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    VaryingLinkChannel();

    /**
     * \brief Add a condition; the first is usually the path (its delay), later ones impair it.
     * \param condition the condition
     */
    void AddCondition(Ptr<LinkCondition> condition);

    /// \return the conditions, in the order added
    const std::vector<Ptr<LinkCondition>>& GetConditions() const;

    /**
     * \brief Take the two attached devices' current rates as their own rates, and from now
     * on set each device's rate from the conditions before it sends a packet.
     */
    void Connect();

    /**
     * \param t a time
     * \return the one-way delay of a packet sent at t
     */
    Time GetDelayAt(Time t);

    /**
     * \param t a time
     * \return when the outage that t falls in ends (over every condition), or t when up
     */
    Time GetOutageEndAt(Time t);

    /**
     * \brief The outages (over every condition) that overlap [from, to).
     * \param from the window's start
     * \param to the window's end
     * \return each outage's start and end, in order, clipped to the window
     */
    std::vector<std::pair<Time, Time>> GetOutages(Time from, Time to);

    /**
     * \param direction 0 for the packets of the first device attached, 1 for the second's
     * \param t a time
     * \return the rate of that direction at t
     */
    DataRate GetRateAt(uint32_t direction, Time t);

    bool TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, Time txTime) override;

    /// TracedCallback signature of a packet lost to an outage, with the outage's end.
    typedef void (*OutageDropCallback)(Ptr<const Packet> packet, Time outageEnd);

  private:
    void DoDispose() override;

    /// Sets device `direction`'s rate for the packet it is about to time.
    void SetRate(uint32_t direction, Ptr<const Packet>);

    std::vector<Ptr<LinkCondition>> m_conditions; //!< path first, then impairments
    OutageMode m_outageMode;                      //!< drop or hold
    DataRate m_ownRate[2];   //!< each device's rate when connected
    DataRate m_rate[2];      //!< each direction's rate as last set, to log its changes
    bool m_connected;        //!< Connect() called
    Time m_heldUntil[2];     //!< per direction, when the last held packet has been sent
    TracedCallback<Ptr<const Packet>, Time> m_outageDrop; //!< packets lost to outages
};

} // namespace ns3

#endif /* VARYING_LINK_CHANNEL_H */
