/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "link-condition.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LinkCondition");

NS_OBJECT_ENSURE_REGISTERED(LinkCondition);
NS_OBJECT_ENSURE_REGISTERED(FixedDelayCondition);

TypeId
LinkCondition::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::LinkCondition").SetParent<Object>().SetGroupName("Uniference");
    return tid;
}

Time
LinkCondition::GetDelay(Time)
{
    return Time(0);
}

Time
LinkCondition::GetOutageEnd(Time t)
{
    return t;
}

Time
LinkCondition::GetNextOutage(Time)
{
    return Time::Max();
}

DataRate
LinkCondition::GetRate(Time, DataRate rate)
{
    return rate;
}

Time
LinkCondition::GetNextRateChange(Time)
{
    return Time::Max();
}

TypeId
FixedDelayCondition::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FixedDelayCondition")
                            .SetParent<LinkCondition>()
                            .SetGroupName("Uniference")
                            .AddConstructor<FixedDelayCondition>()
                            .AddAttribute("Delay",
                                          "One-way propagation delay.",
                                          TimeValue(MilliSeconds(1)),
                                          MakeTimeAccessor(&FixedDelayCondition::m_delay),
                                          MakeTimeChecker(Time(0)));
    return tid;
}

Time
FixedDelayCondition::GetDelay(Time)
{
    return m_delay;
}

} // namespace ns3
