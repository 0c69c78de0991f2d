/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GEO_CONDITION_H
#define GEO_CONDITION_H

#include "link-condition.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief The path through a geostationary satellite: a constant delay of Hops slant ranges at
 * the speed of light, the slant range set by the ground station's Elevation (35,786 km
 * overhead, 119.4 ms one way; more towards the horizon).
 */
class GeoCondition : public LinkCondition
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    Time GetDelay(Time t) override;

  private:
    double m_altitude;  //!< metres
    double m_elevation; //!< degrees
    uint32_t m_hops;    //!< slant ranges a packet crosses
};

} // namespace ns3

#endif /* GEO_CONDITION_H */
