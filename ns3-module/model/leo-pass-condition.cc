/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "leo-pass-condition.h"

#include "satellite-geometry.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LeoPassCondition");

NS_OBJECT_ENSURE_REGISTERED(LeoPassCondition);

namespace
{
constexpr double DEGREE = M_PI / 180.0;
} // namespace

TypeId
LeoPassCondition::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::LeoPassCondition")
            .SetParent<LinkCondition>()
            .SetGroupName("Uniference")
            .AddConstructor<LeoPassCondition>()
            .AddAttribute("Altitude",
                          "The orbit's altitude, metres (Starlink's first shells: 550 km).",
                          DoubleValue(550e3),
                          MakeDoubleAccessor(&LeoPassCondition::m_altitude),
                          MakeDoubleChecker<double>(100e3, 5000e3))
            .AddAttribute("MinElevation",
                          "Lowest elevation at which a satellite serves, degrees.",
                          DoubleValue(25),
                          MakeDoubleAccessor(&LeoPassCondition::m_minElevation),
                          MakeDoubleChecker<double>(0, 89))
            .AddAttribute("MaxElevation",
                          "Elevation at the pass's closest approach, degrees (90: overhead).",
                          DoubleValue(90),
                          MakeDoubleAccessor(&LeoPassCondition::m_maxElevation),
                          MakeDoubleChecker<double>(1, 90))
            .AddAttribute("PassTime",
                          "Time since the serving satellite rose, at simulation time 0.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&LeoPassCondition::m_passTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Hops",
                          "Slant ranges a packet crosses: 2 for a bent pipe, 1 to the satellite.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&LeoPassCondition::m_hops),
                          MakeUintegerChecker<uint32_t>(1, 2))
            .AddAttribute("HandoverInterval",
                          "Time between satellite reassignments; 0 for none.",
                          TimeValue(Seconds(15)),
                          MakeTimeAccessor(&LeoPassCondition::m_handoverInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("HandoverOutage",
                          "How long the link is out at each handover.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&LeoPassCondition::m_handoverOutage),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("HandoverDelayStep",
                          "How much longer the path is after an odd-numbered handover.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&LeoPassCondition::m_handoverStep),
                          MakeTimeChecker(Time(0)));
    return tid;
}

Time
LeoPassCondition::GetPassDuration() const
{
    NS_ABORT_MSG_IF(m_maxElevation <= m_minElevation,
                    "LeoPassCondition: MaxElevation " << m_maxElevation
                                                      << " must exceed MinElevation "
                                                      << m_minElevation);
    // The satellite is above MinElevation while the central angle to it is below psi_min;
    // with the track passing beta off the station, cos(psi) = cos(theta) cos(beta), where
    // theta is the angle flown from the closest approach.
    const double beta = satellite::CentralAngle(m_altitude, m_maxElevation * DEGREE);
    const double psiMin = satellite::CentralAngle(m_altitude, m_minElevation * DEGREE);
    const double thetaMax = std::acos(std::cos(psiMin) / std::cos(beta));
    return Seconds(2 * thetaMax / satellite::OrbitalRate(m_altitude));
}

double
LeoPassCondition::CentralAngleAt(Time t) const
{
    const double pass = GetPassDuration().GetSeconds();
    const double age = std::fmod((m_passTime + t).GetSeconds(), pass);
    const double theta = satellite::OrbitalRate(m_altitude) * (age - pass / 2);
    const double beta = satellite::CentralAngle(m_altitude, m_maxElevation * DEGREE);
    return std::acos(std::cos(theta) * std::cos(beta));
}

double
LeoPassCondition::GetSlantRange(Time t) const
{
    const double r = satellite::EARTH_RADIUS + m_altitude;
    const double re = satellite::EARTH_RADIUS;
    return std::sqrt(re * re + r * r - 2 * re * r * std::cos(CentralAngleAt(t)));
}

double
LeoPassCondition::GetElevation(Time t) const
{
    const double r = satellite::EARTH_RADIUS + m_altitude;
    const double psi = CentralAngleAt(t);
    return std::asin((r * std::cos(psi) - satellite::EARTH_RADIUS) / GetSlantRange(t)) / DEGREE;
}

uint64_t
LeoPassCondition::GetHandoverCount(Time t) const
{
    if (m_handoverInterval.IsZero() || t.IsNegative())
    {
        return 0;
    }
    return uint64_t(t.GetTimeStep() / m_handoverInterval.GetTimeStep());
}

Time
LeoPassCondition::GetDelay(Time t)
{
    const Time path = Seconds(m_hops * GetSlantRange(t) / satellite::SPEED_OF_LIGHT);
    return GetHandoverCount(t) % 2 == 1 ? path + m_handoverStep : path;
}

Time
LeoPassCondition::GetOutageEnd(Time t)
{
    const uint64_t handovers = GetHandoverCount(t);
    if (handovers == 0)
    {
        return t;
    }
    const Time end = TimeStep(m_handoverInterval.GetTimeStep() * int64_t(handovers)) + m_handoverOutage;
    if (t < end)
    {
        NS_LOG_LOGIC("handover " << handovers << ": out until " << end.As(Time::S));
        return end;
    }
    return t;
}

Time
LeoPassCondition::GetNextOutage(Time t)
{
    if (m_handoverInterval.IsZero() || m_handoverOutage.IsZero())
    {
        return Time::Max();
    }
    const int64_t next = t.IsNegative() ? 1 : int64_t(GetHandoverCount(t)) + 1;
    return TimeStep(m_handoverInterval.GetTimeStep() * next);
}

} // namespace ns3
