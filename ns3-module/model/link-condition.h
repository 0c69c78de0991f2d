/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LINK_CONDITION_H
#define LINK_CONDITION_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief What a link is like at a given time: its propagation delay, whether it is out, and
 * its rate. A VaryingLinkChannel asks its conditions about every packet at the moment the
 * packet starts to be sent.
 *
 * One condition describes the path (a LEO pass, a GEO hop, a replayed trace, a fixed delay);
 * others add impairments to it (rain fade, blockage). Their delays add up, their outages
 * combine, and their rates apply one after another to the device's own rate.
 *
 * Stochastic conditions draw their future lazily, so the queries are not const; the same
 * time asked twice gets the same answer.
 */
class LinkCondition : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \param t a send time
     * \return the one-way propagation delay of a packet that starts to be sent at t (an
     *         impairment's, adding nothing to the path's, is zero)
     */
    virtual Time GetDelay(Time t);

    /**
     * \param t a time
     * \return when the outage that t falls in ends, or t itself when the link is up at t
     */
    virtual Time GetOutageEnd(Time t);

    /**
     * \param t a time
     * \return the start of the first outage that begins after t, or Time::Max() if none
     */
    virtual Time GetNextOutage(Time t);

    /**
     * \param t a time
     * \param rate the rate this condition is applied to (the device's own, or what earlier
     *        conditions made of it)
     * \return the rate at t; never zero (an outage is GetOutageEnd's business)
     */
    virtual DataRate GetRate(Time t, DataRate rate);

    /**
     * \param t a time
     * \return the first time after t at which GetRate may answer differently, or Time::Max()
     *         if never
     */
    virtual Time GetNextRateChange(Time t);
};

/**
 * \ingroup uniference
 *
 * \brief A path of constant propagation delay, as ns-3's PointToPointChannel has.
 */
class FixedDelayCondition : public LinkCondition
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    Time GetDelay(Time t) override;

  private:
    Time m_delay; //!< The one-way delay
};

} // namespace ns3

#endif /* LINK_CONDITION_H */
