/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fade-condition.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/string.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FadeCondition");

NS_OBJECT_ENSURE_REGISTERED(FadeCondition);

TypeId
FadeCondition::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FadeCondition")
            .SetParent<LinkCondition>()
            .SetGroupName("Uniference")
            .AddConstructor<FadeCondition>()
            .AddAttribute("ClearTime",
                          "Seconds of each clear spell (mean 1/lambda for fades at rate lambda).",
                          StringValue("ns3::ExponentialRandomVariable[Mean=10.0]"),
                          MakePointerAccessor(&FadeCondition::m_clearTime),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("FadeTime",
                          "Seconds of each fade.",
                          StringValue("ns3::ExponentialRandomVariable[Mean=0.5]"),
                          MakePointerAccessor(&FadeCondition::m_fadeTime),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("FadeRateFactor",
                          "The rate during a fade as a fraction of the clear rate; 0: out.",
                          DoubleValue(0),
                          MakeDoubleAccessor(&FadeCondition::m_fadeRateFactor),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("RecoveryTime",
                          "How long the link stays out after a fade that took it out.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&FadeCondition::m_recoveryTime),
                          MakeTimeChecker(Time(0)));
    return tid;
}

int64_t
FadeCondition::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_clearTime->SetStream(stream);
    m_fadeTime->SetStream(stream + 1);
    return 2;
}

std::size_t
FadeCondition::SpellAt(Time t)
{
    if (m_spells.empty())
    {
        m_spells.push_back({Time(0), CLEAR});
    }
    // A zero-length draw (a recovery of 0, a fade drawn as 0) simply yields an empty spell.
    while (m_spells.back().start <= t)
    {
        const Spell& last = m_spells.back();
        Time length;
        State next;
        switch (last.state)
        {
        case CLEAR:
            length = Seconds(std::max(0.0, m_clearTime->GetValue()));
            next = FADED;
            break;
        case FADED:
            length = Seconds(std::max(0.0, m_fadeTime->GetValue()));
            next = m_fadeRateFactor == 0 ? RECOVERING : CLEAR;
            break;
        default:
            length = m_recoveryTime;
            next = CLEAR;
            break;
        }
        NS_LOG_LOGIC((last.state == CLEAR   ? "clear"
                      : last.state == FADED ? "faded"
                                            : "recovering")
                     << " from " << last.start.As(Time::S) << " for " << length.As(Time::S));
        m_spells.push_back({last.start + length, next});
    }
    auto later = std::upper_bound(m_spells.begin(), m_spells.end(), t,
                                  [](Time time, const Spell& s) { return time < s.start; });
    return std::size_t(later - m_spells.begin()) - 1;
}

bool
FadeCondition::IsFaded(Time t)
{
    return m_spells[SpellAt(t)].state != CLEAR;
}

Time
FadeCondition::GetOutageEnd(Time t)
{
    std::size_t i = SpellAt(t);
    if (m_fadeRateFactor > 0 || m_spells[i].state == CLEAR)
    {
        return t;
    }
    // Out through the fade and its recovery, to the start of the next clear spell.
    while (m_spells[i].state != CLEAR)
    {
        SpellAt(m_spells[i + 1].start);
        ++i;
    }
    NS_LOG_LOGIC("faded at " << t.As(Time::S) << ": out until " << m_spells[i].start.As(Time::S));
    return m_spells[i].start;
}

Time
FadeCondition::GetNextOutage(Time t)
{
    if (m_fadeRateFactor > 0)
    {
        return Time::Max();
    }
    // Clear spells alternate with fades: the next fade starts where the next clear spell ends.
    std::size_t i = SpellAt(t) + 1;
    while (true)
    {
        SpellAt(m_spells[i].start);
        if (m_spells[i].state == FADED && m_spells[i + 1].start > m_spells[i].start)
        {
            return m_spells[i].start;
        }
        ++i;
    }
}

DataRate
FadeCondition::GetRate(Time t, DataRate rate)
{
    if (m_fadeRateFactor > 0 && m_spells[SpellAt(t)].state == FADED)
    {
        return DataRate(uint64_t(double(rate.GetBitRate()) * m_fadeRateFactor));
    }
    return rate;
}

Time
FadeCondition::GetNextRateChange(Time t)
{
    if (m_fadeRateFactor == 0)
    {
        return Time::Max(); // outages only; the rate itself never changes
    }
    return m_spells[SpellAt(t) + 1].start;
}

} // namespace ns3
