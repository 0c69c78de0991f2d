/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SATELLITE_GEOMETRY_H
#define SATELLITE_GEOMETRY_H

#include <cmath>

namespace ns3
{
namespace satellite
{

/// Mean Earth radius, metres.
constexpr double EARTH_RADIUS = 6371.0e3;
/// Earth's gravitational parameter GM, m^3/s^2.
constexpr double EARTH_MU = 3.986004418e14;
/// Speed of light in vacuum, m/s: radio between ground and satellite.
constexpr double SPEED_OF_LIGHT = 299792458.0;
/// Altitude of the geostationary orbit above the equator, metres.
constexpr double GEO_ALTITUDE = 35786.0e3;

/**
 * \param altitude the satellite's altitude, metres
 * \param elevation the satellite's elevation seen from the ground, radians
 * \return the distance from the ground station to the satellite, metres
 */
inline double
SlantRange(double altitude, double elevation)
{
    const double r = EARTH_RADIUS + altitude;
    const double ground = EARTH_RADIUS * std::cos(elevation);
    return std::sqrt(r * r - ground * ground) - EARTH_RADIUS * std::sin(elevation);
}

/**
 * \param altitude the satellite's altitude, metres
 * \param elevation the satellite's elevation seen from the ground, radians
 * \return the angle at the Earth's centre between the ground station and the satellite
 */
inline double
CentralAngle(double altitude, double elevation)
{
    return std::acos(EARTH_RADIUS * std::cos(elevation) / (EARTH_RADIUS + altitude)) - elevation;
}

/**
 * \param altitude a circular orbit's altitude, metres
 * \return the satellite's angular speed about the Earth's centre, rad/s
 */
inline double
OrbitalRate(double altitude)
{
    const double r = EARTH_RADIUS + altitude;
    return std::sqrt(EARTH_MU / (r * r * r));
}

} // namespace satellite
} // namespace ns3

#endif /* SATELLITE_GEOMETRY_H */
