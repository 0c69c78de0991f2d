/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LEO_PASS_CONDITION_H
#define LEO_PASS_CONDITION_H

#include "link-condition.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief The path through a low-Earth-orbit satellite: its delay follows the slant range as
 * the satellite crosses the sky, and the ground station is handed to another satellite at a
 * fixed interval.
 *
 * The pass: a circular orbit at Altitude whose closest approach to the ground station is at
 * MaxElevation (90 degrees: straight overhead). The satellite moves at the orbit's angular
 * speed sqrt(GM/r^3) (the Earth's rotation is neglected) and serves while it is above
 * MinElevation. When it sets, the next satellite rises on the same track, so passes repeat
 * back to back and the link never runs out of satellites. At simulation time 0 the pass is
 * PassTime old (0: the satellite has just risen).
 *
 * A packet's delay is Hops slant ranges at the speed of light at its send time: 2 for a bent
 * pipe (terminal - satellite - gateway, the gateway seeing the satellite as the terminal does),
 * 1 for the hop to the satellite alone.
 *
 * Handovers: every HandoverInterval (Starlink reassigns every 15 s), the link is out for
 * HandoverOutage, and the new satellite's path is HandoverDelayStep longer than the old one's
 * (the step alternates: +step after odd handovers, back after even ones, so the delay stays
 * centred on the pass).
 */
class LeoPassCondition : public LinkCondition
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    Time GetDelay(Time t) override;
    Time GetOutageEnd(Time t) override;
    Time GetNextOutage(Time t) override;

    /// \return how long one satellite serves, from rising above MinElevation to setting
    Time GetPassDuration() const;
    /**
     * \param t a simulation time
     * \return the serving satellite's elevation at t, degrees
     */
    double GetElevation(Time t) const;
    /**
     * \param t a simulation time
     * \return the distance from the ground station to the serving satellite at t, metres
     */
    double GetSlantRange(Time t) const;
    /**
     * \param t a simulation time
     * \return how many handovers have happened by t
     */
    uint64_t GetHandoverCount(Time t) const;

  private:
    /// \return the angle at the Earth's centre between the ground station and the satellite
    double CentralAngleAt(Time t) const;

    double m_altitude;      //!< metres
    double m_minElevation;  //!< degrees
    double m_maxElevation;  //!< degrees
    Time m_passTime;        //!< age of the pass at simulation time 0
    uint32_t m_hops;        //!< slant ranges a packet crosses
    Time m_handoverInterval; //!< zero: no handovers
    Time m_handoverOutage;   //!< link out after each handover
    Time m_handoverStep;     //!< extra delay of the odd-numbered satellites
};

} // namespace ns3

#endif /* LEO_PASS_CONDITION_H */
