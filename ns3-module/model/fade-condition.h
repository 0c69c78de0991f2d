/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FADE_CONDITION_H
#define FADE_CONDITION_H

#include "link-condition.h"

#include "ns3/random-variable-stream.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief A link that fades on and off: clear spells and fades alternate, each as long as a
 * draw of its random variable. Rain fade on a satellite link and blockage of a sub-THz beam
 * are both this process.
 *
 * During a fade the rate is FadeRateFactor times what it was (attenuation: the modulation
 * steps down), or, with FadeRateFactor 0, the link is out. A fade that took the link out is
 * followed by RecoveryTime out as well, while the beam is found again.
 *
 * With exponential clear spells of mean 1/lambda and fades of mean D (no recovery), the link
 * fades a fraction lambda D / (1 + lambda D) of the time.
 *
 * Spells are drawn as far ahead as has been asked about and kept, so the same time always
 * gets the same answer.
 */
class FadeCondition : public LinkCondition
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    Time GetOutageEnd(Time t) override;
    Time GetNextOutage(Time t) override;
    DataRate GetRate(Time t, DataRate rate) override;
    Time GetNextRateChange(Time t) override;

    /**
     * \param t a time
     * \return whether the link is fading (or recovering from a fade) at t
     */
    bool IsFaded(Time t);

    /**
     * \brief Fix the random variables' streams, as ns-3's AssignStreams does.
     * \param stream the first stream
     * \return the number of streams used (2)
     */
    int64_t AssignStreams(int64_t stream);

  private:
    /// What the link is doing in a spell.
    enum State
    {
        CLEAR,
        FADED,
        RECOVERING,
    };

    /// A stretch of time in one state, until the next spell's start.
    struct Spell
    {
        Time start;  //!< when it begins
        State state; //!< what the link does
    };

    /// \return the index of the spell t falls in, drawing spells up to t first
    std::size_t SpellAt(Time t);

    Ptr<RandomVariableStream> m_clearTime; //!< seconds of each clear spell
    Ptr<RandomVariableStream> m_fadeTime;  //!< seconds of each fade
    double m_fadeRateFactor;               //!< rate multiplier while faded; 0: out
    Time m_recoveryTime;                   //!< out after a fade that took the link out
    std::vector<Spell> m_spells;           //!< drawn so far, from time 0
};

} // namespace ns3

#endif /* FADE_CONDITION_H */
