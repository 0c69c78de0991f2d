/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "geo-condition.h"

#include "satellite-geometry.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GeoCondition");

NS_OBJECT_ENSURE_REGISTERED(GeoCondition);

TypeId
GeoCondition::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GeoCondition")
            .SetParent<LinkCondition>()
            .SetGroupName("Uniference")
            .AddConstructor<GeoCondition>()
            .AddAttribute("Altitude",
                          "The orbit's altitude, metres (geostationary: 35,786 km).",
                          DoubleValue(satellite::GEO_ALTITUDE),
                          MakeDoubleAccessor(&GeoCondition::m_altitude),
                          MakeDoubleChecker<double>(100e3, 100000e3))
            .AddAttribute("Elevation",
                          "The satellite's elevation seen from the ground stations, degrees.",
                          DoubleValue(90),
                          MakeDoubleAccessor(&GeoCondition::m_elevation),
                          MakeDoubleChecker<double>(0, 90))
            .AddAttribute("Hops",
                          "Slant ranges a packet crosses: 2 for a bent pipe, 1 to the satellite.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&GeoCondition::m_hops),
                          MakeUintegerChecker<uint32_t>(1, 2));
    return tid;
}

Time
GeoCondition::GetDelay(Time)
{
    const double range = satellite::SlantRange(m_altitude, m_elevation * M_PI / 180.0);
    return Seconds(m_hops * range / satellite::SPEED_OF_LIGHT);
}

} // namespace ns3
