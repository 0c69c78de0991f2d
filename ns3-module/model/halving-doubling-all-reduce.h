/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HALVING_DOUBLING_ALL_REDUCE_H
#define HALVING_DOUBLING_ALL_REDUCE_H

#include "scheduled-collective.h"

namespace ns3
{

/**
 * \ingroup uniference
 * \brief Recursive halving-doubling all-reduce (Rabenseifner): a reduce-scatter by recursive halving over the largest power of two p <= n participants, then an all-gather by recursive doubling. Each of the n - p participants beyond it first hands its buffer to a partner in the power of two and gets the result back at the end.
 */
class HalvingDoublingAllReduce : public ScheduledCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief This schedule's time over uncongested links (CollectiveRegistry's alpha-beta
     * model, which presets such as `auto` compare).
     * \param bytes the operation's size S
     * \param n the group size
     * \param link the path's alpha and beta
     * \return seconds
     */
    static double AlphaBetaSeconds(uint64_t bytes, uint32_t n, const AlphaBeta& link);
    HalvingDoublingAllReduce();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;
};

} // namespace ns3

#endif /* HALVING_DOUBLING_ALL_REDUCE_H */
